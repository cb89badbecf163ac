#pragma once
// The brute-force twin of the kinetic tournament: the largest (or smallest) key of all
// entries evaluated exactly at a rational time, and a driver that checks the tournament
// against it at a time strictly between every two events. Plus the points of the tests:
// 1D bodies entered by their coordinate.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "kds/key.hpp"
#include "kds/simulator.hpp"
#include "structures/tournament/tournament.hpp"

namespace kds::testing {

/// A point of the tests: a new 1D body of `sim` with motion m, entered in `t` by its x.
inline EntryId insert_point(Simulator& sim, Tournament& t, const Motion<1>& m) {
  return t.insert(Key::coordinate(sim.bodies().insert(m)));
}

/// The body of a point's entry (its key's first body).
inline BodyId body_of(const Tournament& t, EntryId entry) { return t.key(entry).bodies()[0]; }

/// The exact value of a key at `time`.
inline Rational key_at(const Simulator& sim, const Key& key, double time) {
  return key.value<Rational>(sim.bodies(), 0.0)(Rational(time));
}
inline Rational key_at(const Simulator& sim, const Tournament& t, EntryId entry, double time) {
  return key_at(sim, t.key(entry), time);
}

/// Whether value a beats value b in a tournament keeping `extremum`.
inline bool beats(Extremum extremum, const Rational& a, const Rational& b) {
  return extremum == Extremum::largest ? a > b : a < b;
}

/// The best key at `time` over `entries`, exactly.
inline Rational brute_force_best(const Simulator& sim, const Tournament& t, const std::vector<EntryId>& entries,
                                 double time) {
  Rational best = key_at(sim, t, entries.front(), time);
  for (EntryId e : entries) {
    const Rational v = key_at(sim, t, e, time);
    if (beats(t.extremum(), v, best)) best = v;
  }
  return best;
}

/// The tournament's winner is a best entry at `time` (ties allowed): at a time between
/// events it is the best there, and at an event time it is by continuity.
inline void expect_winner_at(const Simulator& sim, const Tournament& t, const std::vector<EntryId>& entries,
                             double time) {
  ASSERT_EQ(t.size(), entries.size());
  if (entries.empty()) {
    EXPECT_EQ(t.winner(), no_entry);
    return;
  }
  ASSERT_TRUE(t.contains(t.winner())) << "winner() = " << t.winner();
  ASSERT_NE(std::find(entries.begin(), entries.end(), t.winner()), entries.end()) << "winner() = " << t.winner();
  EXPECT_EQ(key_at(sim, t, t.winner(), time), brute_force_best(sim, t, entries, time))
      << "at t = " << time << " the tournament's winner " << t.winner() << " is not the "
      << (t.extremum() == Extremum::largest ? "largest" : "smallest") << " key";
}

/// Runs the simulation to `until`, checking the winner against brute force at a time
/// strictly between each two events (where one exists) and at `until`. Returns the
/// number of events processed.
inline std::size_t run_checked(Simulator& sim, const Tournament& t, const std::vector<EntryId>& entries,
                               double until) {
  std::size_t events = 0;
  for (;;) {
    if (const auto mid = sim.time_between_events(until)) {
      sim.run_until(*mid);
      expect_winner_at(sim, t, entries, *mid);
      if (::testing::Test::HasFailure()) return events;
    }
    const Root next = sim.next_event_time();
    if (next.is_infinite() || compare(next, until) > 0) break;
    sim.step();
    ++events;
  }
  sim.run_until(until);
  expect_winner_at(sim, t, entries, until);
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

/// Runs f, which must throw InvalidInput; returns its message ("no InvalidInput" if none).
template <class F>
std::string invalid_input_message(F&& f) {
  try {
    f();
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "no InvalidInput";
}

}  // namespace kds::testing
