// The kinetic tournament on degenerate input built on purpose: ties, identical motions,
// many values crossing at one time, events at time 0.
#include <gtest/gtest.h>

#include "brute_force_max.hpp"

namespace kds::testing {
namespace {

Motion<1> line(double x0, double v) { return Motion<1>::linear(0.0, {x0}, {v}); }

TEST(TournamentDegenerate, EqualConstantsNeverFail) {
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<ObjectId> points;
  for (int i = 0; i < 7; ++i) points.push_back(t.insert(Motion<1>::constant({3.0})));
  EXPECT_EQ(run_checked(sim, t, points, 5.0), 0u);
  EXPECT_EQ(t.max(), points.front());  // a new tie goes to the left child
  EXPECT_EQ(t.leader_changes(), 0u);
}

TEST(TournamentDegenerate, IdenticalMotionsAmongCrossingOnes) {
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<ObjectId> points;
  for (int i = 0; i < 4; ++i) points.push_back(t.insert(line(0.0, 1.0)));
  for (int i = 0; i < 4; ++i) points.push_back(t.insert(line(2.0 + i, -1.0)));
  points.push_back(t.insert(line(-3.0, 2.0)));
  run_checked(sim, t, points, 10.0);
  EXPECT_EQ(t.max(), points.back());
}

TEST(TournamentDegenerate, ManyValuesCrossAtOneTime) {
  // x_i(t) = 1 + v_i (t - 1): all equal at t = 1. Before, the slowest leads; after, the fastest.
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<ObjectId> points;
  const double v[] = {0.5, -2.0, 3.0, 1.0, -0.25, 2.0, 0.0, -1.0, 1.5};
  for (double vi : v) points.push_back(t.insert(line(1.0 - vi, vi)));
  EXPECT_EQ(t.max(), points[1]);
  std::vector<std::pair<ObjectId, ObjectId>> changes;
  t.on_maximum_change([&](ObjectId a, ObjectId b) { changes.emplace_back(a, b); });
  run_checked(sim, t, points, 3.0);
  EXPECT_EQ(t.max(), points[2]);
  EXPECT_GE(sim.statistics().events_at_equal_times, 1u);
  ASSERT_FALSE(changes.empty());
  EXPECT_EQ(changes.front().first, points[1]);
  EXPECT_EQ(changes.back().second, points[2]);
}

TEST(TournamentDegenerate, CrossingsOfQuadraticsAtOneTime) {
  // x_i(t) = a_i (t - 2)^2 + b_i (t - 2): all zero at t = 2, several touching there.
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<ObjectId> points;
  for (double a : {-1.0, 0.0, 1.0})
    for (double b : {-1.0, 0.0, 1.0}) points.push_back(t.insert(Motion<1>::polynomial(2.0, {{{0.0, b, a, 0.0}}})));
  run_checked(sim, t, points, 4.0);
  EXPECT_EQ(position(t, t.max(), 4.0), Rational(6));  // a = b = 1: 4 + 2
}

TEST(TournamentDegenerate, EventsAtTimeZero) {
  // All start at 0: the winners are decided by the futures, so nothing fails at time 0.
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<ObjectId> points;
  for (double vi : {0.0, 1.0, -1.0, 3.0, 2.0}) points.push_back(t.insert(line(0.0, vi)));
  EXPECT_EQ(t.max(), points[3]);
  EXPECT_EQ(run_checked(sim, t, points, 1.0), 0u);

  // A motion replaced at time 0 that breaks certificates: they fail at once, at time 0.
  Simulator sim2({.audit = true});
  Tournament t2(sim2);
  std::vector<ObjectId> points2;
  for (double vi : {0.0, 1.0, 2.0}) points2.push_back(t2.insert(line(0.0, vi)));
  t2.set_motion(points2[0], line(5.0, 0.0));
  EXPECT_EQ(sim2.next_event_time().lo(), 0.0);
  run_checked(sim2, t2, points2, 1.0);
  EXPECT_EQ(t2.max(), points2[0]);
  EXPECT_EQ(t2.leader_changes(), 1u);
}

TEST(TournamentDegenerate, TouchingWithoutCrossingIsNoEvent) {
  // -(t - 1)^2 touches the constant 0 at t = 1 from below: the constant stays ahead.
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<ObjectId> points{t.insert(Motion<1>::constant({0.0})),
                               t.insert(Motion<1>::polynomial(1.0, {{{0.0, 0.0, -1.0, 0.0}}}))};
  EXPECT_EQ(run_checked(sim, t, points, 3.0), 0u);
  EXPECT_EQ(t.max(), points[0]);
}

TEST(TournamentDegenerate, FloatingModeAgreesOnSimpleInput) {
  Simulator sim({.exactness = Exactness::floating});
  Tournament t(sim);
  std::vector<ObjectId> points;
  for (int i = 0; i < 6; ++i) points.push_back(t.insert(line(-i, 0.5 * i + 0.125)));
  sim.run_until(50.0);
  EXPECT_EQ(t.max(), points.back());
}

}  // namespace
}  // namespace kds::testing
