#include "structures/sorted_list/sorted_list.hpp"

#include <algorithm>
#include <functional>
#include <iterator>
#include <sstream>

#include "kds/errors.hpp"

namespace kds {

SortedList::SortedList(Simulator& sim) : sim_(sim), keys_(sim.bodies(), "SortedList", "list") { sim_.attach(*this); }

SortedList::~SortedList() {
  // The clock may be the root of one of this list's certificates, still read at this
  // instant (Function::same_or_negated, exact comparisons): not once the keys are gone.
  Certificate::pin_clock_if_owned(sim_, *this);
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
      if (below(entry, order_[mid])) hi = mid;
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

Sign SortedList::quick_sign(EntryId a, EntryId b) const {
  // Filtered and exact modes only: there a sign is the exact one however it is found; the
  // floating mode keeps its own evaluation in doubles.
  if (sim_.exactness() == Exactness::floating) return Sign::unknown;
  StoredLine la, lb;
  if (!keys_.stored_line(a, la) || !keys_.stored_line(b, lb)) return Sign::unknown;
  // The two lines as stored (x + offset + v (t - t0)) over the clock's isolating interval,
  // outward rounded: a difference that excludes zero there has that sign at now and so
  // just after.
  const Interval now(sim_.now().lo(), sim_.now().hi());
  auto value = [&](const StoredLine& l) {
    return Interval(l.x) + Interval(l.offset) + Interval(l.v) * (now - Interval(l.t0));
  };
  const Interval d = value(lb) - value(la);
  if (!d.certainly_positive() && !d.certainly_negative()) return Sign::unknown;
  ++solver_counters().sign_queries;  // a sign asked, as sign_just_after counts it (reports compare modes by it)
  return d.certainly_positive() ? Sign::positive : Sign::negative;
}

bool SortedList::below(EntryId a, EntryId b) const {
  // Most comparisons of linear keys are decided by one interval evaluation; the rest (equal
  // at now, other keys) by sign_just_after, which also looks at the derivatives.
  if (const Sign quick = quick_sign(a, b); quick != Sign::unknown) return quick == Sign::positive;
  if (const Sign constant = keys_.constant_difference_sign(b, a); constant != Sign::unknown)
    return constant == Sign::positive;  // two keys of one body (kds/linear_form.hpp)
  auto difference = make_function(
      [&]<class NT>(double origin) { return keys_.value<NT>(b, origin) - keys_.value<NT>(a, origin); });
  return sign_just_after(difference, sim_.now(), sim_.exactness()) == Sign::positive;
}

void SortedList::relink(const std::vector<std::size_t>& old_rank, LargeVector<Certificate*> old_certificates) {
  constexpr std::size_t none = ~std::size_t{0};
  for (std::size_t k = 0; k < order_.size(); ++k) rank_[order_[k]] = k;
  const std::size_t gaps = order_.size() > 0 ? order_.size() - 1 : 0;
  certificates_.assign(gaps, nullptr);
  // Keep the certificate of every pair that was adjacent before (in the same order).
  for (std::size_t i = 0; i < gaps; ++i) {
    const EntryId a = order_[i], b = order_[i + 1];
    const std::size_t ra = a < old_rank.size() ? old_rank[a] : none, rb = b < old_rank.size() ? old_rank[b] : none;
    if (ra != none && rb != none && rb == ra + 1 && ra < old_certificates.size() && old_certificates[ra] != nullptr) {
      certificates_[i] = old_certificates[ra];
      old_certificates[ra] = nullptr;
    }
  }
  // The others go before the new ones are made (they may name erased entries).
  for (Certificate* c : old_certificates)
    if (c != nullptr) sim_.destroy(c);
  for (std::size_t i = 0; i < gaps; ++i)
    if (certificates_[i] == nullptr) link(i);
}

std::vector<EntryId> SortedList::insert_all(std::span<const Key> keys) {
  require_not_in_callback("insert_all");
  for (const Key& k : keys) keys_.check(k, "insert_all");
  if (keys.empty()) return {};
  constexpr std::size_t none = ~std::size_t{0};
  std::vector<EntryId> added;
  added.reserve(keys.size());
  LargeVector<EntryId> merged;
  try {
    for (const Key& k : keys) added.push_back(keys_.add(k));
    // The new keys in order among themselves (stable: equal keys keep the given order);
    // a batch that comes in order, as a structure's build makes it, costs m - 1 tests.
    std::vector<EntryId> sorted = added;
    bool in_order = true;
    for (std::size_t i = 1; i < sorted.size() && in_order; ++i) in_order = !below(sorted[i], sorted[i - 1]);
    if (!in_order)
      std::stable_sort(sorted.begin(), sorted.end(), [&](EntryId a, EntryId b) { return below(a, b); });
    // Merged after the list (std::merge: equal keys of the first range come first).
    merged.reserve(order_.size() + sorted.size());
    std::merge(order_.begin(), order_.end(), sorted.begin(), sorted.end(), std::back_inserter(merged),
               [&](EntryId a, EntryId b) { return below(a, b); });
  } catch (...) {
    for (EntryId e : added) keys_.remove(e);  // nothing half-changed
    throw;
  }
  std::vector<std::size_t> old_rank(keys_.id_bound(), none);
  for (std::size_t k = 0; k < order_.size(); ++k) old_rank[order_[k]] = k;
  if (rank_.size() < keys_.id_bound()) rank_.resize(keys_.id_bound());
  order_ = std::move(merged);
  relink(old_rank, std::move(certificates_));
  std::vector<EntryId> by_rank = added;
  std::sort(by_rank.begin(), by_rank.end(), [&](EntryId a, EntryId b) { return rank_[a] < rank_[b]; });
  for (EntryId e : by_rank) inserted_.emit(e);
  return added;
}

void SortedList::erase_all(std::span<const EntryId> entries) {
  require_not_in_callback("erase_all");
  std::vector<char> going(keys_.id_bound(), 0);
  for (EntryId e : entries) {
    keys_.require(e, "erase_all");
    if (going[e]) throw InvalidInput("SortedList::erase_all: entry " + std::to_string(e) + " is named twice");
    going[e] = 1;
  }
  if (entries.empty()) return;
  for (EntryId e : entries) Certificate::pin_clock_if_reading(sim_, *this, e);
  constexpr std::size_t none = ~std::size_t{0};
  std::vector<std::size_t> old_rank(keys_.id_bound(), none);
  for (std::size_t k = 0; k < order_.size(); ++k) old_rank[order_[k]] = k;
  std::vector<std::pair<std::size_t, EntryId>> erased;  // (old rank, entry)
  erased.reserve(entries.size());
  for (EntryId e : entries) erased.emplace_back(rank_[e], e);
  LargeVector<EntryId> kept;
  kept.reserve(order_.size() - entries.size());
  for (EntryId e : order_)
    if (!going[e]) kept.push_back(e);
  order_ = std::move(kept);
  // The certificates over erased entries go in relink, before their keys leave the table.
  for (EntryId e : entries) old_rank[e] = none;
  relink(old_rank, std::move(certificates_));
  for (EntryId e : entries) keys_.remove(e);
  std::sort(erased.begin(), erased.end(), std::greater<>());
  for (const auto& [r, e] : erased) erased_.emit(e, r);
}

void SortedList::order_failed(Certificate& c, Simulator&) {
  const EntryId a = c.lower(), b = c.upper();
  const std::size_t i = rank_[a];
  // Before the swap renews c (its failure time goes).
  swap_keys_equal_now_ = c.vanishes_at_failure_time();
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
  if (i > 0) slide(i - 1);
  if (i + 2 < order_.size()) slide(i + 1);
  swapped_.emit(a, b);
  swap_keys_equal_now_ = false;  // says nothing outside on_swap
}

void SortedList::slide(std::size_t i) {
  // A neighbour that is the clock's source (it failed earlier at this instant, and was
  // swapped in place) is made anew instead: renewing it would pin the clock, an exact
  // root, and the clock's function must stay readable (the next swaps of the instant
  // compare their certificates with it: Function::same_or_negated). The old one lives
  // on until the clock moves on, as every destroyed certificate does.
  if (sim_.now().source() == certificates_[i]) link(i);
  else certificates_[i]->move_to(sim_, order_[i], order_[i + 1]);
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
