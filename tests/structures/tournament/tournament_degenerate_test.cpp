// The kinetic tournament on degenerate input built on purpose: ties, identical motions,
// many values crossing at one time, events at time 0; for the largest and the smallest key.
#include <gtest/gtest.h>

#include <iterator>

#include "brute_force_winner.hpp"

namespace kds::testing {
namespace {

Motion<1> line(double x0, double v) { return Motion<1>::linear(0.0, {x0}, {v}); }

TEST(TournamentDegenerate, EqualConstantsNeverFail) {
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<EntryId> points;
  for (int i = 0; i < 7; ++i) points.push_back(insert_point(sim, t, Motion<1>::constant({3.0})));
  EXPECT_EQ(run_checked(sim, t, points, 5.0), 0u);
  EXPECT_EQ(t.winner(), points.front());  // a new tie goes to the left child
  EXPECT_EQ(t.leader_changes(), 0u);
}

TEST(TournamentDegenerate, IdenticalMotionsAmongCrossingOnes) {
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<EntryId> points;
  for (int i = 0; i < 4; ++i) points.push_back(insert_point(sim, t, line(0.0, 1.0)));
  for (int i = 0; i < 4; ++i) points.push_back(insert_point(sim, t, line(2.0 + i, -1.0)));
  points.push_back(insert_point(sim, t, line(-3.0, 2.0)));
  run_checked(sim, t, points, 10.0);
  EXPECT_EQ(t.winner(), points.back());
}

TEST(TournamentDegenerate, ManyValuesCrossAtOneTime) {
  // x_i(t) = 1 + v_i (t - 1): all equal at t = 1. Before, the slowest leads; after, the fastest.
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<EntryId> points;
  const double v[] = {0.5, -2.0, 3.0, 1.0, -0.25, 2.0, 0.0, -1.0, 1.5};
  for (double vi : v) points.push_back(insert_point(sim, t, line(1.0 - vi, vi)));
  EXPECT_EQ(t.winner(), points[1]);
  std::vector<std::pair<EntryId, EntryId>> changes;
  t.on_winner_change().subscribe([&](EntryId a, EntryId b) { changes.emplace_back(a, b); });
  run_checked(sim, t, points, 3.0);
  EXPECT_EQ(t.winner(), points[2]);
  EXPECT_GE(sim.statistics().events_at_equal_times, 1u);
  ASSERT_FALSE(changes.empty());
  EXPECT_EQ(changes.front().first, points[1]);
  EXPECT_EQ(changes.back().second, points[2]);
}

TEST(TournamentDegenerate, CrossingsOfQuadraticsAtOneTime) {
  // x_i(t) = a_i (t - 2)^2 + b_i (t - 2): all zero at t = 2, several touching there.
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<EntryId> points;
  for (double a : {-1.0, 0.0, 1.0})
    for (double b : {-1.0, 0.0, 1.0}) points.push_back(insert_point(sim, t, Motion<1>::polynomial(2.0, {{{0.0, b, a, 0.0}}})));
  run_checked(sim, t, points, 4.0);
  EXPECT_EQ(key_at(sim, t, t.winner(), 4.0), Rational(6));  // a = b = 1: 4 + 2
}

TEST(TournamentDegenerate, EventsAtTimeZero) {
  // All start at 0: the winners are decided by the futures, so nothing fails at time 0.
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<EntryId> points;
  for (double vi : {0.0, 1.0, -1.0, 3.0, 2.0}) points.push_back(insert_point(sim, t, line(0.0, vi)));
  EXPECT_EQ(t.winner(), points[3]);
  EXPECT_EQ(run_checked(sim, t, points, 1.0), 0u);

  // A motion replaced at time 0 that breaks certificates: they fail at once, at time 0.
  Simulator sim2({.audit = true});
  Tournament t2(sim2);
  std::vector<EntryId> points2;
  for (double vi : {0.0, 1.0, 2.0}) points2.push_back(insert_point(sim2, t2, line(0.0, vi)));
  const BodyId moved = body_of(t2, points2[0]);
  const auto& of_moved = sim2.bodies().certificates_of(moved);
  const auto held = static_cast<std::uint64_t>(std::distance(of_moved.begin(), of_moved.end()));
  EXPECT_EQ(held, 1u) << "points2[0] loses at the leaves' node";
  const auto rescheduled = sim2.statistics().certificates_rescheduled;
  sim2.bodies().set_motion(moved, line(5.0, 0.0));
  EXPECT_EQ(sim2.statistics().certificates_rescheduled, rescheduled + held);
  EXPECT_EQ(sim2.next_event_time().lo(), 0.0);
  run_checked(sim2, t2, points2, 1.0);
  EXPECT_EQ(t2.winner(), points2[0]);
  EXPECT_EQ(t2.leader_changes(), 1u);
}

TEST(TournamentDegenerate, TouchingWithoutCrossingIsNoEvent) {
  // -(t - 1)^2 touches the constant 0 at t = 1 from below: the constant stays ahead.
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<EntryId> points{insert_point(sim, t, Motion<1>::constant({0.0})),
                               insert_point(sim, t, Motion<1>::polynomial(1.0, {{{0.0, 0.0, -1.0, 0.0}}}))};
  EXPECT_EQ(run_checked(sim, t, points, 3.0), 0u);
  EXPECT_EQ(t.winner(), points[0]);
}

TEST(TournamentDegenerate, FloatingModeAgreesOnSimpleInput) {
  Simulator sim({.exactness = Exactness::floating});
  Tournament t(sim);
  std::vector<EntryId> points;
  for (int i = 0; i < 6; ++i) points.push_back(insert_point(sim, t, line(-i, 0.5 * i + 0.125)));
  sim.run_until(50.0);
  EXPECT_EQ(t.winner(), points.back());
}

// ---------------------------------------------------------------- the smallest key

TEST(TournamentSmallest, EqualConstantsNeverFail) {
  Simulator sim({.audit = true});
  Tournament t(sim, Extremum::smallest);
  std::vector<EntryId> points;
  for (int i = 0; i < 7; ++i) points.push_back(insert_point(sim, t, Motion<1>::constant({3.0})));
  EXPECT_EQ(run_checked(sim, t, points, 5.0), 0u);
  EXPECT_EQ(t.winner(), points.front());  // a new tie goes to the left child
  EXPECT_EQ(t.leader_changes(), 0u);
}

TEST(TournamentSmallest, ManyValuesCrossAtOneTime) {
  // x_i(t) = 1 + v_i (t - 1): all equal at t = 1. Before, the fastest is the smallest;
  // after, the slowest.
  Simulator sim({.audit = true});
  Tournament t(sim, Extremum::smallest);
  std::vector<EntryId> points;
  const double v[] = {0.5, -2.0, 3.0, 1.0, -0.25, 2.0, 0.0, -1.0, 1.5};
  for (double vi : v) points.push_back(insert_point(sim, t, line(1.0 - vi, vi)));
  EXPECT_EQ(t.winner(), points[2]);
  std::vector<std::pair<EntryId, EntryId>> changes;
  t.on_winner_change().subscribe([&](EntryId a, EntryId b) { changes.emplace_back(a, b); });
  run_checked(sim, t, points, 3.0);
  EXPECT_EQ(t.winner(), points[1]);
  EXPECT_GE(sim.statistics().events_at_equal_times, 1u);
  ASSERT_FALSE(changes.empty());
  EXPECT_EQ(changes.front().first, points[2]);
  EXPECT_EQ(changes.back().second, points[1]);
}

TEST(TournamentSmallest, TouchingWithoutCrossingIsNoEvent) {
  // (t - 1)^2 touches the constant 0 at t = 1 from above: the constant stays the smallest.
  Simulator sim({.audit = true});
  Tournament t(sim, Extremum::smallest);
  std::vector<EntryId> points{insert_point(sim, t, Motion<1>::polynomial(1.0, {{{0.0, 0.0, 1.0, 0.0}}})),
                              insert_point(sim, t, Motion<1>::constant({0.0}))};
  EXPECT_EQ(t.winner(), points[1]);
  EXPECT_EQ(run_checked(sim, t, points, 3.0), 0u);
  EXPECT_EQ(t.winner(), points[1]);
}

TEST(TournamentSmallest, MotionChangeAtTimeZeroFailsAtOnce) {
  Simulator sim({.audit = true});
  Tournament t(sim, Extremum::smallest);
  std::vector<EntryId> points;
  for (double vi : {0.0, 1.0, 2.0}) points.push_back(insert_point(sim, t, line(0.0, vi)));
  EXPECT_EQ(t.winner(), points[0]);
  sim.bodies().set_motion(body_of(t, points[2]), line(-5.0, 0.0));
  EXPECT_EQ(sim.next_event_time().lo(), 0.0);
  run_checked(sim, t, points, 1.0);
  EXPECT_EQ(t.winner(), points[2]);
  EXPECT_EQ(t.leader_changes(), 1u);
}

TEST(TournamentSmallest, SquaredDistancesToAMovingTarget) {
  // The nearest of several bodies to a target, by squared distance in 2D (keys of two bodies).
  Simulator sim({.audit = true});
  Tournament nearest(sim, Extremum::smallest);
  const BodyId target = sim.bodies().insert(Motion<2>::linear(0.0, {0.0, 0.0}, {1.0, 0.0}));
  std::vector<EntryId> entries;
  for (double x : {1.0, 2.0, 3.0, 4.0})
    entries.push_back(nearest.insert(Key::squared_distance(target, sim.bodies().insert(Motion<2>::constant({x, 0.25})))));
  EXPECT_EQ(sim.bodies().holders(target), 4u);
  // The target passes x = 1.5, 2.5, 3.5: the nearest changes at each.
  EXPECT_EQ(run_checked(sim, nearest, entries, 5.0), 3u);
  EXPECT_EQ(nearest.winner(), entries.back());
  EXPECT_EQ(nearest.leader_changes(), 3u);
}

}  // namespace
}  // namespace kds::testing
