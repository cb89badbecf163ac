#pragma once
/// \file
/// What guards-cones-lists does to its sorted lists when a body's motion jumps (a
/// flight-plan update): measure how far the body's entries are out of order now, and
/// if that is far, erase them and insert them again where they belong, instead of
/// letting the lists repair themselves by one swap per entry passed (thousands at one
/// instant after a jump across the scene; the simulator stops such a run with
/// NoProgress). Used by GuardBoxLists and FacetPlaneLists on their own lists.

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "structures/sorted_list/sorted_list.hpp"

namespace kds {

/// How many neighbours the entries `mine` must pass, upwards or downwards, to be in order
/// just after now: for each entry, the consecutive entries next to it (not in `mine`, as
/// told by is_mine) on the side where the order is broken. Stops counting above `budget`
/// (returns budget + 1 then). An estimate of the swaps the list would make: entries of
/// one body never pass each other, and the walk stops at the first of them.
std::size_t passes_to_order(const SortedList& list, Simulator& sim, std::span<const EntryId> mine,
                            const std::function<bool(EntryId)>& is_mine, std::size_t budget);

/// Erases `entries` from the list and inserts their keys again (at the current time,
/// where they belong now); returns the new ids, in the order of `entries`. The list's
/// insert and erase callbacks run; no swap is reported. O(list size + entries log
/// entries) comparisons and moves (SortedList::erase_all and insert_all).
std::vector<EntryId> reinsert(SortedList& list, std::span<const EntryId> entries);

}  // namespace kds
