#pragma once
// Shared helpers of the sorted-list tests: random motions, exact positions, the check of
// the list against an exact sort, and a recorder of swaps.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds::testing {

inline Rational exact_position(const Motion<1>& m, const Rational& t) { return m.coordinate<Rational>(0, 0.0)(t); }

/// A random polynomial motion of the given degree about t0, coefficients in [-1, 1]
/// (positions in [0, spread]).
inline Motion<1> random_motion(std::mt19937_64& rng, int degree, double t0 = 0.0, double spread = 1.0) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::array<Motion<1>::Coefficients, 1> c{};
  c[0][0] = spread * 0.5 * (u(rng) + 1.0);
  for (int k = 1; k <= degree; ++k) c[0][k] = u(rng);
  return Motion<1>::polynomial(t0, c);
}

/// Checks that list.order() is sorted by exact position at the rational time t and is a
/// permutation of the points. Returns the number of adjacent pairs at equal positions.
inline ::testing::AssertionResult sorted_at(const SortedList& list, double t) {
  const Rational rt(t);
  const auto& order = list.order();
  std::vector<ObjectId> ids(order);
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) return ::testing::AssertionFailure() << "a point appears twice";
  Rational previous;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (list.rank(order[i]) != i) return ::testing::AssertionFailure() << "rank of point " << order[i] << " is stale";
    Rational x = exact_position(list.motion(order[i]), rt);
    if (i > 0 && x < previous)
      return ::testing::AssertionFailure() << "at t = " << t << " point " << order[i - 1] << " (x = " << previous.get_d()
                                           << ") is before point " << order[i] << " (x = " << x.get_d() << ")";
    previous = x;
  }
  return ::testing::AssertionSuccess();
}

/// A double strictly between the current time and the next event, or NaN if there is none.
inline double time_between_events(Simulator& sim, double horizon) {
  const Root next = sim.next_event_time();
  const double a = sim.now().hi();
  const double b = next.is_infinite() ? horizon : std::min(next.lo(), horizon);
  const double t = a + 0.5 * (b - a);
  return t > a && t < b ? t : std::numeric_limits<double>::quiet_NaN();
}

struct Swap {
  ObjectId left, right;
  double time;
  bool operator==(const Swap& o) const { return left == o.left && right == o.right; }
};

/// Records every swap of a list with the (approximate) time it happened.
inline std::vector<Swap>& record_swaps(SortedList& list, Simulator& sim, std::vector<Swap>& out) {
  list.on_swap([&out, &sim](ObjectId l, ObjectId r) { out.push_back({l, r, sim.now_approx()}); });
  return out;
}

/// A hash of an event sequence (ids and exact-rounded times), for determinism checks.
inline std::uint64_t hash_swaps(const std::vector<Swap>& swaps) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  for (const Swap& s : swaps) {
    mix(s.left);
    mix(s.right);
    mix(std::bit_cast<std::uint64_t>(s.time));
  }
  return h;
}

/// Inversions between two orders of the same points.
inline std::uint64_t inversions(const std::vector<ObjectId>& a, const std::vector<ObjectId>& b) {
  std::vector<std::size_t> pos(*std::max_element(a.begin(), a.end()) + 1);
  for (std::size_t i = 0; i < b.size(); ++i) pos[b[i]] = i;
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j)
      if (pos[a[i]] > pos[a[j]]) ++n;
  return n;
}

}  // namespace kds::testing
