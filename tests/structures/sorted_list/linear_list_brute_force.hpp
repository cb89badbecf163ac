#pragma once
// The exact brute force the linear sorted list is checked against (its unit tests and its
// campaign): the order of the points just after a time, the order at the end of time, and
// the swaps between two orders. Dyadic arithmetic: exact for any doubles.

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "kds/dyadic.hpp"
#include "structures/sorted_list/linear_sorted_list.hpp"

namespace kds::testing {

/// The list's order as a vector, to compare with the orders computed here.
inline std::vector<LinearSortedList::PointId> order_of(const LinearSortedList& list) {
  const std::span<const LinearSortedList::PointId> o = list.order();
  return {o.begin(), o.end()};
}

/// The order of the points just after time t, exactly: by x + v t, then by velocity (the
/// slower falls behind), then by id (points together forever keep their given order).
inline std::vector<LinearSortedList::PointId> brute_order(const std::vector<LinearPoint>& p, double t) {
  std::vector<Dyadic> x;
  x.reserve(p.size());
  for (const LinearPoint& q : p) x.push_back(Dyadic(q.x) + Dyadic(q.v) * Dyadic(t));
  std::vector<LinearSortedList::PointId> ids(p.size());
  for (LinearSortedList::PointId i = 0; i < ids.size(); ++i) ids[i] = i;
  std::stable_sort(ids.begin(), ids.end(), [&](auto a, auto b) {
    const int s = (x[a] - x[b]).sign();
    return s < 0 || (s == 0 && p[a].v < p[b].v);
  });
  return ids;
}

/// The order once every pair that ever crosses has crossed: by velocity, then by position
/// at time 0, then by id.
inline std::vector<LinearSortedList::PointId> final_order(const std::vector<LinearPoint>& p) {
  std::vector<LinearSortedList::PointId> ids(p.size());
  for (LinearSortedList::PointId i = 0; i < ids.size(); ++i) ids[i] = i;
  std::stable_sort(ids.begin(), ids.end(), [&](auto a, auto b) {
    return p[a].v < p[b].v || (p[a].v == p[b].v && (Dyadic(p[a].x) - Dyadic(p[b].x)).sign() < 0);
  });
  return ids;
}

/// Pairs in a different relative order in the two orders: the swaps a list makes between
/// them (linear points cross at most once).
inline std::uint64_t inversions(const std::vector<LinearSortedList::PointId>& before,
                                const std::vector<LinearSortedList::PointId>& after) {
  // Pairs i < j of `before` with rank[before[i]] > rank[before[j]], counted from the right
  // with a Fenwick tree of the ranks seen: O(n log n), for the tests of 40,000 points.
  const std::size_t n = after.size();
  std::vector<std::size_t> rank(n);
  for (std::size_t r = 0; r < n; ++r) rank[after[r]] = r;
  std::vector<std::uint64_t> seen(n + 1, 0);  // seen[x]: ranks in a range ending at x - 1
  std::uint64_t k = 0;
  for (std::size_t i = before.size(); i-- > 0;) {
    const std::size_t r = rank[before[i]];
    for (std::size_t x = r; x > 0; x -= x & (~x + 1)) k += seen[x];  // ranks below r seen to the right
    for (std::size_t x = r + 1; x <= n; x += x & (~x + 1)) ++seen[x];
  }
  return k;
}

}  // namespace kds::testing
