// The realized-trajectory checker: finds planted overlaps at their exact time, accepts
// grazing contacts (a double root, touching without overlapping), and agrees with dense
// sampling on random probe trajectories.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kds/errors.hpp"
#include "structures/collision/trajectories/overlap_checker.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

Trajectory still(Vec<3> x) { return {TrajectoryPiece{0, x, {0, 0, 0}, {0, 0, 0}}}; }
Trajectory line(Vec<3> x, Vec<3> v) { return {TrajectoryPiece{0, x, v, {0, 0, 0}}}; }

TEST(OverlapChecker, FindsAPlantedOverlapAtItsTime) {
  // b passes a at closest distance 1.999 < 2 = ra + rb, at t = 5.
  const Trajectory a = still({0, 0, 0}), b = line({-5, 1.999, 0}, {1, 0, 0});
  const auto t = first_overlap(a, b, 1, 1, 0, 0, 10);
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(t->approx(), 5 - std::sqrt(4 - 1.999 * 1.999), 1e-12);
  EXPECT_FALSE(check_no_overlap(a, b, 1, 1, 0, 0, 10));
  // Depth 0.001: within a tolerance of 0.01, beyond one of 1e-4.
  EXPECT_TRUE(check_no_overlap(a, b, 1, 1, 0.01, 0, 10));
  EXPECT_FALSE(check_no_overlap(a, b, 1, 1, 1e-4, 0, 10));
  // Outside the time window: none.
  EXPECT_TRUE(check_no_overlap(a, b, 1, 1, 0, 0, 4.9));
  EXPECT_NEAR(min_gap_over_time(a, b, 1, 1, 0, 10).gap, -0.001, 1e-12);
  EXPECT_NEAR(min_gap_over_time(a, b, 1, 1, 0, 10).time, 5, 1e-6);
}

TEST(OverlapChecker, AcceptsAGrazingContactAndRejectsOneUlpDeeper) {
  const Trajectory a = still({0, 0, 0});
  EXPECT_TRUE(check_no_overlap(a, line({-5, 2, 0}, {1, 0, 0}), 1, 1, 0, 0, 10));
  EXPECT_FALSE(check_no_overlap(a, line({-5, std::nextafter(2.0, 0.0), 0}, {1, 0, 0}), 1, 1, 0, 0, 10));
  // Touching at t = 0 and leaving: fine; touching at t = 0 and moving in: an overlap at 0.
  EXPECT_TRUE(check_no_overlap(a, line({2, 0, 0}, {1, 0, 0}), 1, 1, 0, 0, 10));
  const auto now = first_overlap(a, line({2, 0, 0}, {-1, 0, 0}), 1, 1, 0, 0, 10);
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(compare(*now, 0.0), 0);
}

TEST(OverlapChecker, PieceBoundariesAreExact) {
  // b arrives touching a at t = 5 exactly, where its second piece starts.
  const Trajectory a = still({0, 0, 0});
  const TrajectoryPiece first{0, {-5, 2, 0}, {1, 0, 0}, {0, 0, 0}};
  Trajectory away = {first, TrajectoryPiece{5, {0, 2, 0}, {1, 0, 0}, {0, 1, 0}}};
  Trajectory in = {first, TrajectoryPiece{5, {0, 2, 0}, {1, 0, 0}, {0, -1, 0}}};
  EXPECT_TRUE(check_no_overlap(a, away, 1, 1, 0, 0, 10));
  const auto t = first_overlap(a, in, 1, 1, 0, 0, 10);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(compare(*t, 5.0), 0);
  EXPECT_THROW((void)first_overlap(a, in, 1, 1, 0, -1, 10), InvalidInput);
}

TEST(OverlapChecker, Walls) {
  const Box3 box{{0, 0, 0}, {10, 10, 10}};
  // Rises 0.5 into the high z wall: centre 5.5 + 4t - t^2 peaks at 9.5 at t = 2 (r = 1).
  const Trajectory t = {TrajectoryPiece{0, {5, 5, 5.5}, {0, 0, 4}, {0, 0, -2}}};
  const auto hit = first_wall_overlap(t, 1, box, 0.25, 0, 4);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->wall, Wall::z_hi);
  EXPECT_EQ(compare(hit->time, 1.5), 0);  // 5.5 + 4t - t^2 = 9.25
  EXPECT_FALSE(first_wall_overlap(t, 1, box, 0.5, 0, 4).has_value());  // exactly at the tolerance: grazing
  // Falling back, it goes through the floor: z_lo when 5.5 + 4t - t^2 = 1 - 0.25.
  const auto floor = first_wall_overlap(t, 1, box, 0.25, 3, 10);  // from t = 3: below the top again
  ASSERT_TRUE(floor.has_value());
  EXPECT_EQ(floor->wall, Wall::z_lo);
  EXPECT_NEAR(floor->time.approx(), 2 + std::sqrt(8.75), 1e-12);
  EXPECT_FALSE(first_wall_overlap(still({1, 9, 1}), 1, box, 0, 0, 10).has_value());
  const auto low = first_wall_overlap(line({5, 5, 5}, {-1, 0, 0}), 1, box, 0, 0, 10);
  ASSERT_TRUE(low.has_value());
  EXPECT_EQ(low->wall, Wall::x_lo);
  EXPECT_EQ(compare(low->time, 4.0), 0);
}

TEST(OverlapChecker, AgreesWithSamplingOnRandomProbeTrajectories) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  int overlaps = 0, clear = 0;
  for (int round = 0; round < 40; ++round) {
    SCOPED_TRACE("KDS_TEST_SEED=" + std::to_string(seed) + ", round " + std::to_string(round));
    std::vector<Sphere> s(2);
    s[0].position = {0, 0, 0};
    s[1].position = {4.5 + 4 * u(rng), 0, 0};
    s[1].velocity = {-1 - 2 * u(rng), 1 - 2 * u(rng), 1 - 2 * u(rng)};
    for (Sphere& x : s) {
      x.radius = 1 + u(rng);
      x.max_acceleration = 5;
    }
    PiecewiseAccelerationProbe probe(s, 0.25, seed + round);
    probe.realize_until(6);
    const Trajectory &a = probe.trajectory(0), &b = probe.trajectory(1);
    const double tol = 0.01;
    const auto t = first_overlap(a, b, s[0].radius, s[1].radius, tol, 0, 6);
    const Gap g = min_gap_over_time(a, b, s[0].radius, s[1].radius, 0, 6);
    double sampled = INFINITY;
    for (int k = 0; k <= 6000; ++k) {
      const double time = 6.0 * k / 6000;
      const Vec<3> xa = piece_at(a, time).position_at(time), xb = piece_at(b, time).position_at(time);
      sampled = std::min(sampled, std::hypot(xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]) - s[0].radius - s[1].radius);
    }
    EXPECT_LE(g.gap, sampled + 1e-12);     // the minimiser is at least as deep as any sample
    EXPECT_GE(g.gap, sampled - 1e-3);      // and not much deeper (samples are 1 ms apart)
    if (g.gap < -tol - 1e-9) EXPECT_TRUE(t.has_value()) << "gap " << g.gap;
    if (g.gap > -tol + 1e-9) EXPECT_FALSE(t.has_value()) << "gap " << g.gap;
    if (t) {
      ++overlaps;
      EXPECT_LE(t->approx(), g.time + 1e-9);
    } else {
      ++clear;
    }
  }
  EXPECT_GT(overlaps, 3);
  EXPECT_GT(clear, 3);
}

}  // namespace
}  // namespace kds::testing
