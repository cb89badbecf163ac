#include "structures/guards_cones/list_reinsertion.hpp"

#include "kds/function.hpp"
#include "kds/solver.hpp"

namespace kds {
namespace {

/// Whether key a is above key b just after now.
bool above(const SortedList& list, Simulator& sim, EntryId a, EntryId b) {
  const KeyTable& keys = list.key_table();
  // An object's centre and its own planes differ by a constant (kds/linear_form.hpp).
  if (const Sign constant = keys.constant_difference_sign(a, b); constant != Sign::unknown)
    return constant == Sign::positive;
  auto difference = make_function(
      [&]<class NT>(double origin) { return keys.value<NT>(a, origin) - keys.value<NT>(b, origin); });
  return sign_just_after(difference, sim.now(), sim.exactness()) == Sign::positive;
}

}  // namespace

std::size_t passes_to_order(const SortedList& list, Simulator& sim, std::span<const EntryId> mine,
                            const std::function<bool(EntryId)>& is_mine, std::size_t budget) {
  const auto& order = list.order();
  std::size_t passes = 0;
  for (EntryId e : mine) {
    const std::size_t r = list.rank(e);
    for (std::size_t j = r + 1; j < order.size() && !is_mine(order[j]) && above(list, sim, e, order[j]); ++j)
      if (++passes > budget) return passes;
    for (std::size_t j = r; j > 0 && !is_mine(order[j - 1]) && above(list, sim, order[j - 1], e); --j)
      if (++passes > budget) return passes;
  }
  return passes;
}

std::vector<EntryId> reinsert(SortedList& list, std::span<const EntryId> entries) {
  std::vector<Key> keys;
  keys.reserve(entries.size());
  for (EntryId e : entries) keys.push_back(list.key(e));
  list.erase_all(entries);
  return list.insert_all(keys);
}

}  // namespace kds
