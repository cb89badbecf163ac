#pragma once
// The brute-force twin of the kinetic tournament: the maximum of all points evaluated
// exactly at a rational time, and a driver that checks the tournament against it at a
// time strictly between every two events.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "structures/tournament/tournament.hpp"

namespace kds::testing {

inline Rational position(const Tournament& t, ObjectId id, double time) {
  return t.motion(id).coordinate<Rational>(0, 0.0)(Rational(time));
}

/// The largest position at `time` over `points`, exactly.
inline Rational brute_force_max(const Tournament& t, const std::vector<ObjectId>& points, double time) {
  Rational best = position(t, points.front(), time);
  for (ObjectId id : points) best = std::max(best, position(t, id, time));
  return best;
}

/// The tournament's maximum is a maximum at `time` (ties allowed): at a time between
/// events it is the largest there, and at an event time it is by continuity.
inline void expect_max_at(const Tournament& t, const std::vector<ObjectId>& points, double time) {
  ASSERT_EQ(t.size(), points.size());
  if (points.empty()) {
    EXPECT_EQ(t.max(), no_object);
    return;
  }
  ASSERT_TRUE(t.contains(t.max())) << "max() = " << t.max();
  EXPECT_EQ(position(t, t.max(), time), brute_force_max(t, points, time))
      << "at t = " << time << " the tournament's maximum " << t.max() << " is not the largest point";
}

/// Runs the simulation to `until`, checking the maximum against brute force at a rational
/// time strictly between each two events (where one exists) and at `until`. Returns the
/// number of events processed.
inline std::size_t run_checked(Simulator& sim, const Tournament& t, const std::vector<ObjectId>& points,
                               double until) {
  std::size_t events = 0;
  for (;;) {
    const Root next = sim.next_event_time();
    const double a = sim.now().hi();
    const double b = next.is_infinite() || compare(next, until) > 0 ? until : next.lo();
    const double mid = a + 0.5 * (b - a);
    if (mid > a && mid < b) {
      sim.run_until(mid);
      expect_max_at(t, points, mid);
      if (::testing::Test::HasFailure()) return events;
    }
    if (next.is_infinite() || compare(next, until) > 0) break;
    sim.step();
    ++events;
  }
  sim.run_until(until);
  expect_max_at(t, points, until);
  return events;
}

/// A random polynomial motion of degree 1 to 3 from t = 0, with coefficients that keep
/// the points within a few units of each other over [0, 10].
inline Motion<1> random_motion(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> degree(1, 3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const int d = degree(rng);
  const double scale[4] = {10.0, 2.0, 0.4, 0.04};
  Motion<1>::Coefficients c{};
  for (int k = 0; k <= d; ++k) c[k] = scale[k] * unit(rng);
  return Motion<1>::polynomial(0.0, {c});
}

/// A random motion with small integer coefficients: exact ties, identical motions and
/// several points crossing at one time are frequent.
inline Motion<1> random_integer_motion(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> small(-2, 2);
  std::uniform_int_distribution<int> degree(1, 3);
  const int d = degree(rng);
  Motion<1>::Coefficients c{};
  for (int k = 0; k <= d; ++k) c[k] = k == 3 ? 0.125 * small(rng) : small(rng);
  return Motion<1>::polynomial(0.0, {c});
}

}  // namespace kds::testing
