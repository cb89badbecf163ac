#pragma once
// Shared helpers of the sorted-list tests: points (1D bodies with coordinate keys), random
// motions, the check of the list against an exact sort of its keys, and a recorder of swaps.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kds/key.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds::testing {

/// A point of the tests: a new 1D body of `sim` with motion m, entered in `list` by its x.
inline EntryId insert_point(Simulator& sim, SortedList& list, const Motion<1>& m) {
  return list.insert(Key::coordinate(sim.bodies().insert(m)));
}

/// The body of a point's entry (its key's only body).
inline BodyId body_of(const SortedList& list, EntryId entry) { return list.key(entry).bodies()[0]; }

/// Removes a point: its entry from the list, then its body from the simulator.
inline void erase_point(Simulator& sim, SortedList& list, EntryId entry) {
  const BodyId b = body_of(list, entry);
  list.erase(entry);
  sim.bodies().erase(b);
}

/// The exact value of an entry's key at the rational time t.
inline Rational key_at(const Simulator& sim, const SortedList& list, EntryId entry, const Rational& t) {
  return list.key(entry).value<Rational>(sim.bodies(), 0.0)(t);
}

/// A random polynomial motion of the given degree about t0, coefficients in [-1, 1]
/// (positions in [0, spread]).
inline Motion<1> random_motion(std::mt19937_64& rng, int degree, double t0 = 0.0, double spread = 1.0) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::array<Motion<1>::Coefficients, 1> c{};
  c[0][0] = spread * 0.5 * (u(rng) + 1.0);
  for (int k = 1; k <= degree; ++k) c[0][k] = u(rng);
  return Motion<1>::polynomial(t0, c);
}

/// c0 + c1 s + c2 s^2 + c3 s^3 with s = t - t0.
inline Motion<1> cubic(double t0, double c0, double c1, double c2, double c3) {
  return Motion<1>::polynomial(t0, {{{c0, c1, c2, c3}}});
}

/// A copy of list.order() (a view of the list's storage), to keep or compare.
inline std::vector<EntryId> order_of(const SortedList& list) { return {list.order().begin(), list.order().end()}; }

/// Checks that list.order() is a permutation of the list's entries with up-to-date ranks,
/// sorted by the exact values of their keys at the rational time t.
inline ::testing::AssertionResult sorted_at(const Simulator& sim, const SortedList& list, double t) {
  const Rational rt(t);
  const auto& order = list.order();
  if (order.size() != list.size()) return ::testing::AssertionFailure() << "order() has " << order.size() << " entries";
  std::vector<EntryId> ids(order.begin(), order.end());
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) return ::testing::AssertionFailure() << "an entry appears twice";
  Rational previous;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (!list.contains(order[i])) return ::testing::AssertionFailure() << "entry " << order[i] << " is not in the list";
    if (list.rank(order[i]) != i) return ::testing::AssertionFailure() << "rank of entry " << order[i] << " is stale";
    Rational x = key_at(sim, list, order[i], rt);
    if (i > 0 && x < previous)
      return ::testing::AssertionFailure() << "at t = " << t << " entry " << order[i - 1] << " (key " << previous.get_d()
                                           << ") is before entry " << order[i] << " (key " << x.get_d() << ")";
    previous = x;
  }
  return ::testing::AssertionSuccess();
}

struct Swap {
  EntryId left, right;
  double time;
  bool operator==(const Swap& o) const { return left == o.left && right == o.right; }
};

/// Records every swap of a list with the (approximate) time it happened.
inline std::vector<Swap>& record_swaps(SortedList& list, Simulator& sim, std::vector<Swap>& out) {
  list.on_swap().subscribe([&out, &sim](EntryId l, EntryId r) { out.push_back({l, r, sim.now_approx()}); });
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

/// Inversions between two orders of the same entries.
inline std::uint64_t inversions(const std::vector<EntryId>& a, const std::vector<EntryId>& b) {
  std::vector<std::size_t> pos(*std::max_element(a.begin(), a.end()) + 1);
  for (std::size_t i = 0; i < b.size(); ++i) pos[b[i]] = i;
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j)
      if (pos[a[i]] > pos[a[j]]) ++n;
  return n;
}

/// Whether `text` contains `fragment`, saying what it is if not.
inline ::testing::AssertionResult contains(const std::string& text, const std::string& fragment) {
  if (text.find(fragment) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << fragment << "\"";
}

/// Runs f, which must throw InvalidInput whose message contains every fragment.
template <class F>
void expect_invalid(F&& f, std::initializer_list<std::string> fragments) {
  try {
    f();
    ADD_FAILURE() << "no InvalidInput";
  } catch (const InvalidInput& e) {
    for (const std::string& fragment : fragments) EXPECT_TRUE(contains(e.what(), fragment));
  }
}

}  // namespace kds::testing
