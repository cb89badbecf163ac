#include "structures/sorted_list/sorted_list.hpp"

#include <sstream>

#include "kds/errors.hpp"

namespace kds {

SortedList::SortedList(Simulator& sim) : sim_(sim), keys_(sim.bodies(), "SortedList", "list") { sim_.attach(*this); }

SortedList::~SortedList() {
  // Certificates before bodies: they name the bodies, which outlive the list.
  for (Certificate* c : certificates_)
    if (c != nullptr) sim_.destroy(c);
  sim_.detach(*this);
}

void SortedList::require_not_in_callback(const char* operation) const {
  if (swapped_.emitting() || inserted_.emitting() || erased_.emitting())
    throw InvalidInput(std::string("SortedList::") + operation + ": called from one of this list's own callbacks");
}

const Key& SortedList::key(EntryId entry) const {
  keys_.require(entry, "key");
  return keys_[entry];
}

std::size_t SortedList::rank(EntryId entry) const {
  keys_.require(entry, "rank");
  return rank_[entry];
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

EntryId SortedList::insert(const Key& key) {
  require_not_in_callback("insert");
  keys_.check(key, "insert");
  // The key joins the table first, so that the binary search reads it through the
  // table's compact record like every other key (log n evaluations per insert).
  const EntryId entry = keys_.add(key);
  // Binary search for the first entry whose key is above the new one just after now.
  std::size_t lo = 0, hi = order_.size();
  try {
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      const EntryId other = order_[mid];
      auto difference = make_function(
          [&]<class NT>(double origin) { return keys_.value<NT>(other, origin) - keys_.value<NT>(entry, origin); });
      if (sign_just_after(difference, sim_.now(), sim_.exactness()) == Sign::positive) hi = mid;
      else lo = mid + 1;
    }
  } catch (...) {
    keys_.remove(entry);  // nothing half-changed
    throw;
  }
  if (rank_.size() < keys_.id_bound()) rank_.resize(keys_.id_bound());
  const std::size_t r = lo;
  order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(r), entry);
  for (std::size_t k = r; k < order_.size(); ++k) rank_[order_[k]] = k;
  // One more gap between entries (none for a single entry); the certificate between
  // r - 1 and r (old numbering) becomes two.
  if (order_.size() > 1) {
    if (r > 0) unlink(r - 1);
    certificates_.insert(certificates_.begin() + static_cast<std::ptrdiff_t>(std::min(r, certificates_.size())), nullptr);
    if (r > 0) link(r - 1);
    link(r);
  }
  inserted_.emit(entry);
  return entry;
}

void SortedList::erase(EntryId entry) {
  require_not_in_callback("erase");
  keys_.require(entry, "erase");
  Certificate::pin_clock_if_reading(sim_, *this, entry);
  const std::size_t r = rank_[entry];
  if (r > 0) unlink(r - 1);
  unlink(r);
  order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(r));
  if (!certificates_.empty())
    certificates_.erase(certificates_.begin() + static_cast<std::ptrdiff_t>(std::min(r, certificates_.size() - 1)));
  for (std::size_t k = r; k < order_.size(); ++k) rank_[order_[k]] = k;
  keys_.remove(entry);
  if (r > 0) link(r - 1);
  erased_.emit(entry, r);
}

void SortedList::order_failed(Certificate& c, Simulator&) {
  const EntryId a = c.lower(), b = c.upper();
  const std::size_t i = rank_[a];
  std::swap(order_[i], order_[i + 1]);
  rank_[b] = i;
  rank_[a] = i + 1;
  ++swaps_;
  sim_.note_external_event();
  // b - a just changed sign here, so a - b vanishes now and grows: say so, and the
  // filter skips the root at now without an exact computation.
  // The failed certificate becomes the one of the swapped pair, in place: its function
  // is negated, so the clock, whose source it is, keeps its value (renew_negated). Its
  // neighbours slide along in place.
  c.swap_in_place(sim_, Birth::vanishes_now);
  if (i > 0) certificates_[i - 1]->move_to(sim_, order_[i - 1], order_[i]);
  if (i + 2 < order_.size()) certificates_[i + 1]->move_to(sim_, order_[i + 1], order_[i + 2]);
  swapped_.emit(a, b);
}

void SortedList::audit(const AuditContext& ctx) const {
  const Rational t = ctx.exact_time();
  if (certificates_.size() + 1 != std::max<std::size_t>(order_.size(), 1))
    throw AuditFailure("sorted list: " + std::to_string(certificates_.size()) + " certificates for " +
                       std::to_string(order_.size()) + " entries");
  for (std::size_t i = 0; i < order_.size(); ++i) {
    const EntryId e = order_[i];
    if (!contains(e) || rank_[e] != i)
      throw AuditFailure("sorted list: rank index out of date at rank " + std::to_string(i));
    for (BodyId b : keys_[e].bodies())
      if (!sim_.bodies().contains(b) || sim_.bodies().holders(b) == 0)
        throw AuditFailure("sorted list: entry " + std::to_string(e) + " names body " + std::to_string(b.index) +
                           ", which is not live and held");
  }
  for (std::size_t i = 0; i + 1 < order_.size(); ++i) {
    const Certificate* c = certificates_[i];
    if (c == nullptr || !c->alive() || c->lower() != order_[i] || c->upper() != order_[i + 1])
      throw AuditFailure("sorted list: certificate " + std::to_string(i) + " does not join ranks " +
                         std::to_string(i) + " and " + std::to_string(i + 1));
    const Rational ka = keys_.value<Rational>(order_[i], 0.0)(t);
    const Rational kb = keys_.value<Rational>(order_[i + 1], 0.0)(t);
    if (ka > kb) {
      std::ostringstream os;
      os.precision(17);
      os << "sorted list: at t = " << ctx.time << " entry " << order_[i] << " (key " << ka.get_d()
         << ") is before entry " << order_[i + 1] << " (key " << kb.get_d() << ")";
      throw AuditFailure(os.str());
    }
  }
}

}  // namespace kds
