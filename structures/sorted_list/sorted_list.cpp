#include "structures/sorted_list/sorted_list.hpp"

#include <sstream>

#include "kds/errors.hpp"

namespace kds {

SortedList::SortedList(Simulator& sim) : sim_(sim) { sim_.attach(*this); }

SortedList::~SortedList() {
  for (Certificate* c : certificates_)
    if (c != nullptr) sim_.destroy(c);
  for (ObjectId id : order_) sim_.remove_object(id);
  sim_.detach(*this);
}

void SortedList::require(ObjectId id, const char* operation) const {
  if (!contains(id)) {
    std::ostringstream os;
    os << "SortedList::" << operation << ": point " << id << " is not in the list";
    throw InvalidInput(os.str());
  }
}

const Motion<1>& SortedList::motion(ObjectId id) const {
  require(id, "motion");
  return items_[id].motion;
}

std::size_t SortedList::rank(ObjectId id) const {
  require(id, "rank");
  return items_[id].rank;
}

void SortedList::unlink(std::size_t i) {
  if (i < certificates_.size() && certificates_[i] != nullptr) {
    sim_.destroy(certificates_[i]);
    certificates_[i] = nullptr;
  }
}

void SortedList::link(std::size_t i, Birth birth) {
  unlink(i);
  if (i + 1 >= order_.size()) return;
  certificates_[i] = birth == Birth::vanishes_now
                         ? sim_.create_vanishing_now<Certificate>(*this, order_[i], order_[i + 1])
                         : sim_.create<Certificate>(*this, order_[i], order_[i + 1]);
}

ObjectId SortedList::insert(const Motion<1>& motion) {
  try {
    motion.validate();
  } catch (const InvalidInput& e) {
    throw InvalidInput(std::string("SortedList::insert: new point: ") + e.what());
  }
  const ObjectId id = sim_.add_object();
  if (id >= items_.size()) items_.resize(id + 1);
  items_[id].motion = motion;
  // Binary search for the first point that is after the new one just after now.
  std::size_t lo = 0, hi = order_.size();
  while (lo < hi) {
    std::size_t mid = lo + (hi - lo) / 2;
    const Motion<1>& m = items_[order_[mid]].motion;
    auto difference = make_function([&]<class NT>(double origin) {
      return m.coordinate<NT>(0, origin) - motion.coordinate<NT>(0, origin);
    });
    if (sign_just_after(difference, sim_.now(), sim_.exactness()) > 0) hi = mid;
    else lo = mid + 1;
  }
  const std::size_t r = lo;
  order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(r), id);
  items_[id].present = true;
  for (std::size_t k = r; k < order_.size(); ++k) items_[order_[k]].rank = k;
  // One more gap between points (none for a single point); the certificate between
  // r - 1 and r (old numbering) becomes two.
  if (r > 0) unlink(r - 1);
  if (order_.size() > 1)
    certificates_.insert(certificates_.begin() + static_cast<std::ptrdiff_t>(std::min(r, certificates_.size())), nullptr);
  if (r > 0) link(r - 1);
  link(r);
  return id;
}

void SortedList::erase(ObjectId id) {
  require(id, "erase");
  const std::size_t r = items_[id].rank;
  if (r > 0) unlink(r - 1);
  unlink(r);
  order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(r));
  if (!certificates_.empty()) certificates_.erase(certificates_.begin() + static_cast<std::ptrdiff_t>(std::min(r, certificates_.size() - 1)));
  for (std::size_t k = r; k < order_.size(); ++k) items_[order_[k]].rank = k;
  items_[id].present = false;
  sim_.remove_object(id);
  if (r > 0) link(r - 1);
}

void SortedList::set_motion(ObjectId id, const Motion<1>& motion) {
  require(id, "set_motion");
  std::string what = "SortedList::set_motion: point " + std::to_string(id);
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

void SortedList::order_failed(Certificate& c, Simulator&) {
  const ObjectId a = c.before(), b = c.after();
  const std::size_t i = items_[a].rank;
  std::swap(order_[i], order_[i + 1]);
  items_[b].rank = i;
  items_[a].rank = i + 1;
  ++swaps_;
  sim_.note_external_event();
  // b - a just changed sign here, so a - b vanishes now and grows: say so, and the
  // filter skips the root at now without an exact computation.
  link(i, Birth::vanishes_now);
  if (i > 0) link(i - 1);
  link(i + 1);
  for (const auto& f : swap_callbacks_) f(a, b);
}

void SortedList::audit(const AuditContext& ctx) const {
  const Rational t = ctx.exact_time();
  if (certificates_.size() + 1 != std::max<std::size_t>(order_.size(), 1))
    throw AuditFailure("sorted list: " + std::to_string(certificates_.size()) + " certificates for " +
                       std::to_string(order_.size()) + " points");
  for (std::size_t i = 0; i + 1 < order_.size(); ++i) {
    const Certificate* c = certificates_[i];
    if (c == nullptr || !c->alive() || c->before() != order_[i] || c->after() != order_[i + 1])
      throw AuditFailure("sorted list: certificate " + std::to_string(i) + " does not join ranks " +
                         std::to_string(i) + " and " + std::to_string(i + 1));
    Rational xa = coordinate<Rational>(order_[i], 0.0)(t);
    Rational xb = coordinate<Rational>(order_[i + 1], 0.0)(t);
    if (xa > xb) {
      std::ostringstream os;
      os.precision(17);
      os << "sorted list: at t = " << ctx.time << " point " << order_[i] << " (x = " << xa.get_d()
         << ") is before point " << order_[i + 1] << " (x = " << xb.get_d() << ")";
      throw AuditFailure(os.str());
    }
  }
  for (std::size_t i = 0; i < order_.size(); ++i)
    if (items_[order_[i]].rank != i) throw AuditFailure("sorted list: rank index out of date at rank " + std::to_string(i));
}

}  // namespace kds
