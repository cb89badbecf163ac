#include "structures/tournament/tournament.hpp"

#include <bit>
#include <sstream>
#include <stdexcept>

#include "kds/errors.hpp"

namespace kds {

Tournament::Tournament(Simulator& sim) : sim_(sim), winner_(2, no_object), certificates_(1, nullptr) {
  sim_.attach(*this);
}

Tournament::~Tournament() {
  for (Certificate* c : certificates_)
    if (c != nullptr) sim_.destroy(c);
  for (std::size_t s = 0; s < size_; ++s) sim_.remove_object(slots_[s]);
  sim_.detach(*this);
}

void Tournament::require(ObjectId id, const char* operation) const {
  if (!contains(id)) {
    std::ostringstream os;
    os << "Tournament::" << operation << ": point " << id << " is not in the tournament";
    throw InvalidInput(os.str());
  }
}

const Motion<1>& Tournament::motion(ObjectId id) const {
  require(id, "motion");
  return items_[id].motion;
}

int Tournament::height() const { return std::countr_zero(capacity_); }

int Tournament::compare_just_after(ObjectId a, ObjectId b) const {
  const Motion<1>& ma = items_[a].motion;
  const Motion<1>& mb = items_[b].motion;
  auto difference = make_function([&]<class NT>(double origin) {
    return ma.coordinate<NT>(0, origin) - mb.coordinate<NT>(0, origin);
  });
  return sign_just_after(difference, sim_.now(), sim_.exactness());
}

void Tournament::drop_certificate(std::size_t k) {
  if (certificates_[k] != nullptr) {
    sim_.destroy(certificates_[k]);
    certificates_[k] = nullptr;
  }
}

bool Tournament::refresh(std::size_t k) {
  const ObjectId a = winner_[2 * k], b = winner_[2 * k + 1];
  const ObjectId previous = winner_[k];
  if (a == no_object || b == no_object) {
    drop_certificate(k);
    winner_[k] = a == no_object ? b : a;
    return winner_[k] != previous;
  }
  const Certificate* c = certificates_[k];
  const bool same_pair =
      c != nullptr && ((c->before() == a && c->after() == b) || (c->before() == b && c->after() == a));
  if (same_pair) {
    // The certificate still compares these two points and is scheduled for its own
    // failure: its roles stand, even if it fails at this very time.
    winner_[k] = c->after();
    return winner_[k] != previous;
  }
  drop_certificate(k);
  // Identical futures (sign 0) go to the left child, deterministically.
  const bool a_wins = compare_just_after(a, b) >= 0;
  const ObjectId winner = a_wins ? a : b, loser = a_wins ? b : a;
  certificates_[k] = sim_.create<Certificate>(*this, loser, winner, "tournament");
  winner_[k] = winner;
  return winner != previous;
}

void Tournament::climb(std::size_t k) {
  for (; k >= 1; k /= 2)
    if (!refresh(k)) break;
}

void Tournament::rebuild(std::size_t capacity) {
  for (std::size_t k = 1; k < capacity_; ++k) drop_certificate(k);
  capacity_ = capacity;
  winner_.assign(2 * capacity_, no_object);
  certificates_.assign(capacity_, nullptr);
  for (std::size_t s = 0; s < size_; ++s) winner_[leaf(s)] = slots_[s];
  for (std::size_t k = capacity_ - 1; k >= 1; --k) refresh(k);
}

void Tournament::announce(ObjectId previous, bool external) {
  const ObjectId current = max();
  if (current == previous) return;
  if (external) {
    ++leader_changes_;
    sim_.note_external_event();
  }
  for (const auto& f : callbacks_) f(previous, current);
}

ObjectId Tournament::insert(const Motion<1>& motion) {
  try {
    motion.validate();
  } catch (const InvalidInput& e) {
    throw InvalidInput(std::string("Tournament::insert: new point: ") + e.what());
  }
  const ObjectId previous = max();
  const ObjectId id = sim_.add_object();
  if (id >= items_.size()) items_.resize(id + 1);
  if (size_ == capacity_ && size_ > 0) rebuild(2 * capacity_);
  const std::size_t s = size_++;
  slots_.push_back(id);
  items_[id] = Item{motion, s, true};
  winner_[leaf(s)] = id;
  climb(leaf(s) / 2);
  announce(previous, false);
  return id;
}

void Tournament::erase(ObjectId id) {
  require(id, "erase");
  const ObjectId previous = max();
  // The last leaf fills the hole, so that the leaves in use stay a prefix.
  const std::size_t s = items_[id].slot, last = size_ - 1;
  const ObjectId moved = slots_[last];
  slots_[s] = moved;
  items_[moved].slot = s;
  slots_.pop_back();
  --size_;
  items_[id].present = false;
  winner_[leaf(last)] = no_object;
  climb(leaf(last) / 2);
  if (s != last) {
    winner_[leaf(s)] = moved;
    climb(leaf(s) / 2);
  }
  if (capacity_ >= 4 && 4 * size_ <= capacity_) rebuild(capacity_ / 2);
  sim_.remove_object(id);
  announce(previous, false);
}

void Tournament::set_motion(ObjectId id, const Motion<1>& motion) {
  require(id, "set_motion");
  const std::string what = "Tournament::set_motion: point " + std::to_string(id);
  try {
    motion.validate();
  } catch (const InvalidInput& e) {
    throw InvalidInput(what + ": " + e.what());
  }
  sim_.round_clock();
  sim_.check_motion_start(motion.start(), what);
  items_[id].motion = motion;
  sim_.motion_changed(id);
}

void Tournament::order_failed(Certificate& c, Simulator& sim) {
  const ObjectId previous = max();
  const ObjectId loser = c.before(), winner = c.after();
  // The node of a certificate is the lowest common ancestor of its two points' leaves.
  std::size_t a = leaf(items_[loser].slot), b = leaf(items_[winner].slot);
  while (a != b) {
    a /= 2;
    b /= 2;
  }
  const std::size_t k = a;
  if (k == 0 || k >= capacity_ || certificates_[k] != &c)
    throw std::logic_error("kds::Tournament: a failed certificate is not the one at the node of its points");
  sim.destroy(&c);
  // winner - loser just became negative: loser - winner vanishes now and grows.
  certificates_[k] = sim.create_vanishing_now<Certificate>(*this, winner, loser, "tournament");
  winner_[k] = loser;
  climb(k / 2);
  announce(previous, true);
}

void Tournament::audit(const AuditContext& ctx) const {
  const Rational t = ctx.exact_time();
  auto fail = [&](const std::string& what) {
    std::ostringstream os;
    os.precision(17);
    os << "tournament: at t = " << ctx.time << ": " << what;
    throw AuditFailure(os.str());
  };
  if (slots_.size() != size_ || size_ > capacity_ || winner_.size() != 2 * capacity_ ||
      certificates_.size() != capacity_)
    fail("tree arrays out of step with " + std::to_string(size_) + " points");
  for (std::size_t s = 0; s < capacity_; ++s) {
    const ObjectId expected = s < size_ ? slots_[s] : no_object;
    if (winner_[leaf(s)] != expected) fail("leaf " + std::to_string(s) + " does not hold its point");
    if (s < size_ && (!contains(expected) || items_[expected].slot != s))
      fail("slot index of point " + std::to_string(expected) + " out of date");
  }
  auto value = [&](ObjectId id) { return Rational(coordinate<Rational>(id, 0.0)(t)); };
  for (std::size_t k = capacity_ - 1; k >= 1; --k) {
    const std::string node = "node " + std::to_string(k);
    // Brute force: the largest position over the leaves of k's subtree.
    std::size_t lo = k, hi = k;
    while (lo < capacity_) {
      lo = 2 * lo;
      hi = 2 * hi + 1;
    }
    ObjectId best = no_object;
    Rational best_value;
    for (std::size_t l = lo; l <= hi; ++l) {
      const ObjectId id = winner_[l];
      if (id == no_object) continue;
      Rational v = value(id);
      if (best == no_object || v > best_value) {
        best = id;
        best_value = v;
      }
    }
    const ObjectId w = winner_[k];
    if ((w == no_object) != (best == no_object)) fail(node + " has a winner iff its subtree is empty");
    if (w == no_object) continue;
    if (!contains(w) || leaf(items_[w].slot) < lo || leaf(items_[w].slot) > hi) fail(node + ": winner " + std::to_string(w) + " is not in its subtree");
    if (value(w) != best_value) {
      std::ostringstream os;
      os.precision(17);
      os << node << ": winner " << w << " (x = " << value(w).get_d() << ") is below point " << best
         << " (x = " << best_value.get_d() << ")";
      fail(os.str());
    }
    const ObjectId a = winner_[2 * k], b = winner_[2 * k + 1];
    const Certificate* c = certificates_[k];
    if (a == no_object || b == no_object) {
      if (c != nullptr) fail(node + " has a certificate but fewer than two contenders");
      if (w != (a == no_object ? b : a)) fail(node + ": winner is not its only contender");
      continue;
    }
    const ObjectId loser = w == a ? b : a;
    if (w != a && w != b) fail(node + ": winner is neither child's winner");
    if (c == nullptr || !c->alive() || c->after() != w || c->before() != loser)
      fail(node + ": certificate does not say winner " + std::to_string(w) + " >= loser " + std::to_string(loser));
  }
  if (size_ > 0 && max() != winner_[1]) fail("max() is not the root's winner");
}

}  // namespace kds
