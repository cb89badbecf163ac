#include "structures/tournament/tournament.hpp"

#include <bit>
#include <sstream>
#include <stdexcept>

#include "kds/errors.hpp"

namespace kds {

Tournament::Tournament(Simulator& sim, Extremum extremum)
    : sim_(sim), extremum_(extremum), keys_(sim.bodies(), "Tournament", "tournament"), winner_(2, no_entry),
      certificates_(1, nullptr) {
  sim_.attach(*this);
}

Tournament::~Tournament() {
  // The clock may be the root of one of this tournament's certificates, still read at
  // this instant (Function::same_or_negated, exact comparisons): not once the keys are gone.
  Certificate::pin_clock_if_owned(sim_, *this);
  // Certificates before bodies: they name the bodies, which outlive the tournament.
  for (Certificate* c : certificates_)
    if (c != nullptr) sim_.destroy(c);
  sim_.detach(*this);
}

void Tournament::require_not_in_callback(const char* operation) const {
  if (winner_changed_.emitting())
    throw InvalidInput(std::string("Tournament::") + operation + ": called from one of this tournament's own callbacks");
}

const Key& Tournament::key(EntryId entry) const {
  keys_.require(entry, "key");
  return keys_[entry];
}

int Tournament::height() const { return std::countr_zero(capacity_); }

Sign Tournament::beats(EntryId a, EntryId b) const {
  auto difference =
      make_function([&]<class NT>(double origin) { return keys_.value<NT>(a, origin) - keys_.value<NT>(b, origin); });
  const Sign sign = sign_just_after(difference, sim_.now(), sim_.exactness());
  return extremum_ == Extremum::largest ? sign : -sign;
}

Tournament::Certificate* Tournament::certify(EntryId winner, EntryId loser, Birth birth, Certificate* reuse) {
  const EntryId lower = extremum_ == Extremum::largest ? loser : winner;
  const EntryId upper = extremum_ == Extremum::largest ? winner : loser;
  if (reuse != nullptr) {
    if (sim_.now().source() != reuse) {
      reuse->move_to(sim_, lower, upper, birth);
      return reuse;
    }
    sim_.destroy(reuse);
  }
  return birth == Birth::vanishes_now ? sim_.create_vanishing_now<Certificate>(*this, lower, upper, "tournament")
                                      : sim_.create<Certificate>(*this, lower, upper, "tournament");
}

EntryId Tournament::certificate_winner(const Certificate& c) const {
  return extremum_ == Extremum::largest ? c.upper() : c.lower();
}

void Tournament::drop_certificate(std::size_t k) {
  if (certificates_[k] != nullptr) {
    sim_.destroy(certificates_[k]);
    certificates_[k] = nullptr;
  }
}

bool Tournament::refresh(std::size_t k) {
  const EntryId a = winner_[2 * k], b = winner_[2 * k + 1];
  const EntryId previous = winner_[k];
  if (a == no_entry || b == no_entry) {
    drop_certificate(k);
    winner_[k] = a == no_entry ? b : a;
    return winner_[k] != previous;
  }
  const Certificate* c = certificates_[k];
  const bool same_pair = c != nullptr && ((c->lower() == a && c->upper() == b) || (c->lower() == b && c->upper() == a));
  if (same_pair) {
    // The certificate still compares these two entries and is scheduled for its own
    // failure: its roles stand, even if it fails at this very time.
    winner_[k] = certificate_winner(*c);
    return winner_[k] != previous;
  }
  // Identical futures (sign 0) go to the left child, deterministically.
  const bool a_wins = beats(a, b) != Sign::negative;
  const EntryId winner = a_wins ? a : b, loser = a_wins ? b : a;
  certificates_[k] = certify(winner, loser, Birth::generic, certificates_[k]);
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
  winner_.assign(2 * capacity_, no_entry);
  certificates_.assign(capacity_, nullptr);
  for (std::size_t s = 0; s < size_; ++s) winner_[leaf(s)] = slots_[s];
  for (std::size_t k = capacity_ - 1; k >= 1; --k) refresh(k);
}

void Tournament::announce(EntryId previous, bool external) {
  const EntryId current = winner();
  if (current == previous) return;
  if (external) {
    ++leader_changes_;
    sim_.note_external_event();
  }
  winner_changed_.emit(previous, current);
}

EntryId Tournament::insert(const Key& key) {
  require_not_in_callback("insert");
  keys_.check(key, "insert");
  const EntryId previous = winner();
  const EntryId entry = keys_.add(key);
  if (slot_.size() < keys_.id_bound()) slot_.resize(keys_.id_bound());
  if (size_ == capacity_ && size_ > 0) rebuild(2 * capacity_);
  const std::size_t s = size_++;
  slots_.push_back(entry);
  slot_[entry] = s;
  winner_[leaf(s)] = entry;
  climb(leaf(s) / 2);
  announce(previous, false);
  return entry;
}

void Tournament::erase(EntryId entry) {
  require_not_in_callback("erase");
  keys_.require(entry, "erase");
  Certificate::pin_clock_if_reading(sim_, *this, entry);
  const EntryId previous = winner();
  // The last leaf fills the hole, so that the leaves in use stay a prefix.
  const std::size_t s = slot_[entry], last = size_ - 1;
  const EntryId moved = slots_[last];
  slots_[s] = moved;
  slot_[moved] = s;
  slots_.pop_back();
  --size_;
  winner_[leaf(last)] = no_entry;
  climb(leaf(last) / 2);
  if (s != last) {
    winner_[leaf(s)] = moved;
    climb(leaf(s) / 2);
  }
  if (capacity_ >= 4 && 4 * size_ <= capacity_) rebuild(capacity_ / 2);
  keys_.remove(entry);
  announce(previous, false);
}

void Tournament::set_key(EntryId entry, const Key& key) {
  require_not_in_callback("set_key");
  keys_.require(entry, "set_key");
  keys_.check(key, "set_key");
  const EntryId previous = winner();
  Certificate::pin_clock_if_reading(sim_, *this, entry);
  keys_.replace(entry, key);
  // The entry contends only on the path from its leaf to the root: its certificates there
  // compare the old key and name the old bodies. Replace them, and refresh the whole path
  // (a winner may change at a node whose winner below did not).
  const std::size_t first = leaf(slot_[entry]) / 2;
  for (std::size_t k = first; k >= 1; k /= 2)
    if (certificates_[k] != nullptr && (certificates_[k]->lower() == entry || certificates_[k]->upper() == entry))
      drop_certificate(k);
  for (std::size_t k = first; k >= 1; k /= 2) refresh(k);
  announce(previous, false);
}

void Tournament::order_failed(Certificate& c, Simulator& sim) {
  const EntryId previous = winner();
  const EntryId old_winner = certificate_winner(c);
  const EntryId old_loser = old_winner == c.upper() ? c.lower() : c.upper();
  // The node of a certificate is the lowest common ancestor of its two entries' leaves.
  std::size_t a = leaf(slot_[old_loser]), b = leaf(slot_[old_winner]);
  while (a != b) {
    a /= 2;
    b /= 2;
  }
  const std::size_t k = a;
  if (k == 0 || k >= capacity_ || certificates_[k] != &c)
    throw std::logic_error("kds::Tournament: a failed certificate is not the one at the node of its entries");
  // The old difference just became negative: its negation vanishes now and grows. The
  // certificate becomes that negation in place (Order::swap_in_place: the clock, whose
  // source it is, keeps its value).
  c.swap_in_place(sim, Birth::vanishes_now);
  winner_[k] = old_loser;
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
    fail("tree arrays out of step with " + std::to_string(size_) + " entries");
  for (std::size_t s = 0; s < capacity_; ++s) {
    const EntryId expected = s < size_ ? slots_[s] : no_entry;
    if (winner_[leaf(s)] != expected) fail("leaf " + std::to_string(s) + " does not hold its point");
    if (s < size_ && (!contains(expected) || slot_[expected] != s))
      fail("slot index of entry " + std::to_string(expected) + " out of date");
  }
  // Ranked so that a larger rank wins: the key itself, or its negation.
  auto value = [&](EntryId id) {
    const Rational v = keys_.value<Rational>(id, 0.0)(t);
    return extremum_ == Extremum::largest ? v : Rational(-v);
  };
  for (std::size_t k = capacity_ - 1; k >= 1; --k) {
    const std::string node = "node " + std::to_string(k);
    // Brute force: the best key over the leaves of k's subtree.
    std::size_t lo = k, hi = k;
    while (lo < capacity_) {
      lo = 2 * lo;
      hi = 2 * hi + 1;
    }
    EntryId best = no_entry;
    Rational best_value;
    for (std::size_t l = lo; l <= hi; ++l) {
      const EntryId id = winner_[l];
      if (id == no_entry) continue;
      Rational v = value(id);
      if (best == no_entry || v > best_value) {
        best = id;
        best_value = v;
      }
    }
    const EntryId w = winner_[k];
    if ((w == no_entry) != (best == no_entry)) fail(node + " has a winner iff its subtree is empty");
    if (w == no_entry) continue;
    if (!contains(w) || leaf(slot_[w]) < lo || leaf(slot_[w]) > hi) fail(node + ": winner " + std::to_string(w) + " is not in its subtree");
    if (value(w) != best_value) {
      std::ostringstream os;
      os.precision(17);
      os << node << ": winner " << w << " (key " << keys_.value<Rational>(w, 0.0)(t).get_d() << ") is beaten by entry "
         << best << " (key " << keys_.value<Rational>(best, 0.0)(t).get_d() << ")";
      fail(os.str());
    }
    const EntryId a = winner_[2 * k], b = winner_[2 * k + 1];
    const Certificate* c = certificates_[k];
    if (a == no_entry || b == no_entry) {
      if (c != nullptr) fail(node + " has a certificate but fewer than two contenders");
      if (w != (a == no_entry ? b : a)) fail(node + ": winner is not its only contender");
      continue;
    }
    const EntryId loser = w == a ? b : a;
    if (w != a && w != b) fail(node + ": winner is neither child's winner");
    if (c == nullptr || !c->alive() || certificate_winner(*c) != w || (c->lower() != loser && c->upper() != loser))
      fail(node + ": certificate does not say winner " + std::to_string(w) + " beats loser " + std::to_string(loser));
  }
  if (size_ > 0 && winner() != winner_[1]) fail("winner() is not the root's winner");
}

}  // namespace kds
