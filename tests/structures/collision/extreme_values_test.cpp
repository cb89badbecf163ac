// Extreme but valid input through the whole collision world (issue 12, items 1 and 3):
// subnormal and huge velocities, masses at both ends of their range, radii far apart, with
// both broad phases. Every scene either runs (the grid and all pairs finding the same
// contacts) or stops with a kds error; nothing crashes. The random scenes print their seed.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <array>
#include <limits>
#include <random>

#include "collision_world_support.hpp"
#include "kds/errors.hpp"
#include "structures/collision/input_range.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

TEST(ExtremeValues, SubnormalVelocitiesNeverReachTheWall) {
  // 4 / 5e-324 is beyond the largest double: the wall contact is "never" (it crashed
  // kds_spheres with SIGFPE, converting the infinite bound of that time to a rational).
  for (double v : {5e-324, 1e-323, -5e-324, 3e-310}) {
    const std::vector<Sphere> s = {ball({5, 5, 5}, {v, 0, 0}), ball({2, 2, 7}, {v, -v, v})};
    for (double until : {10.0, 1e300, std::numeric_limits<double>::max()}) {
      const TwinResult r = run_twins(s, world_settings(cube(10), "tvb-grid"), until);
      EXPECT_TRUE(r.tested.empty()) << "v " << v << " until " << until;
      EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
    }
  }
}

TEST(ExtremeValues, SlowSpheresReachTheWallAtHugeTimes) {
  // 4 / 1e-300 = 4e300: within the doubles, and found.
  const std::vector<Sphere> s = {ball({5, 5, 5}, {1e-300, 0, 0})};
  const TwinResult r = run_twins(s, world_settings(cube(10), "tvb-grid"), 1e301);
  ASSERT_EQ(r.tested.size(), 1u);  // the next wall, at 1.2e301, is beyond the end
  EXPECT_NEAR(r.tested[0].time / 4e300, 1, 1e-15);
  EXPECT_TRUE(r.tested[0].with_wall);
  EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
}

// Radii 1 and 5e-5 in a box of 100 (a ratio of 2e4): the grid refused it ("too large for
// the grid"), all pairs ran it. Now the grid runs it too, and both agree.
TEST(ExtremeValues, RadiusRatiosBeyondTheOldLevelCapRunOnTheGrid) {
  // (The small spheres are slow: at level 0 their cells are 7.6e-4 wide, and every cell
  // they cross is an event of the grid.)
  std::vector<Sphere> s = {ball({50, 50, 50}, {5, 2.5, 1}, 1), ball({10, 10, 10}, {0.03, 0.02, 0.01}, 5e-5, 1e-3),
                           ball({99.9, 50, 50}, {0.05, 0, 0}, 5e-5), ball({20, 80, 30}, {0, -0.1, 0.1}, 1e-3)};
  const TwinResult r = run_twins(s, world_settings(cube(100), "tvb-grid"), 300);
  EXPECT_GE(r.tested.size(), 20u);
  EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
  // And the extremes of the radius rule: 2^-40 of the box beside a radius of 30.
  s[1].radius = input_range::min_radius_per_box_side * 100;
  s[2].radius = 30;
  s[2].position = {60, 50, 50};
  s[2].velocity = {0, 0, 1};
  s[0].position = {50, 50, 85};
  const TwinResult e = run_twins(s, world_settings(cube(100), "tvb-grid"), 200);
  EXPECT_GE(e.tested.size(), 10u);
  EXPECT_TRUE(same_contacts(e.tested, e.all_pairs));
}

// Found by feeding extreme scenes to kds_spheres: a box of side 1e-6 at -1e6 with radii
// of 1e-12 and 2e-7. The grid's cells (7.6e-12) were below the spacing of coordinates
// there (1.2e-10), and the first bound, registered with a margin of 1e-12 of its
// coordinates, took 1.8 GB of cells before the run was killed.
TEST(ExtremeValues, ATinyBoxFarOutGetsCellsAboveTheSpacingOfItsCoordinates) {
  const double lo = -1e6, hi = -999999.999999;
  const Box3 box{{lo, lo, lo}, {hi, hi, hi}};
  const std::vector<Sphere> s = {
      ball({-999999.999999387, -999999.9999995693, -999999.9999991123}, {1e-150, -2.2250738585072014e-308, -1e-300},
           1e-12, 3),
      ball({-999999.999999652, -999999.9999996509, -999999.9999998054}, {-1e-323, -1, -0.0}, 1.0000000000000001e-11, 3),
      ball({-999999.9999991435, -999999.9999996865, -999999.9999992477}, {2.2250738585072014e-308, -5e-324, -5e-324},
           1e-07, 1e-50),
      ball({-999999.999999652, -999999.9999992811, -999999.9999994119}, {-1e+49, -1e+50, -1e-150}, 2e-07, 3)};
  auto settings = world_settings(box, "tvb-grid", 1.0, {0, 0, 3e-310});
  settings.contact_tolerance = 1.8189894045458564e-06;
  std::vector<Contact> contacts[2];
  for (int k = 0; k < 2; ++k) {
    settings.broad_phase = k == 0 ? "tvb-grid" : "all-pairs";
    WorldRun w(s, settings);
    (void)w.run_until(1, 200);
    contacts[k] = w.contacts();
  }
  const std::size_t common = std::min(contacts[0].size(), contacts[1].size());
  EXPECT_GT(common, 0u);
  EXPECT_TRUE(same_contacts({contacts[0].begin(), contacts[0].begin() + common},
                            {contacts[1].begin(), contacts[1].begin() + common}));
}

/// A random valid scene with extreme values: a handful of spheres, well apart.
std::vector<Sphere> extreme_scene(std::mt19937_64& rng, double side) {
  static const double values[] = {0, 5e-324, 1e-323, 2.2250738585072014e-308, 1e-300, 1e-150, 1e-20, 1, 1e20, 1e50};
  static const double masses[] = {1, 1e-50, 1e50, 1e-20, 3};
  static const double radii[] = {0.01, 0.1, 1e-5, 1e-6, 0.2};
  std::uniform_int_distribution<int> value(0, std::size(values) - 1), mass(0, std::size(masses) - 1),
      radius(0, std::size(radii) - 1), count(1, 5);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Sphere> s;
  const int n = count(rng);
  for (int i = 0; i < n; ++i) {
    const double r = side * radii[radius(rng)];
    for (int attempt = 0; attempt < 50; ++attempt) {
      Vec<3> x;
      for (double& c : x) c = r + u(rng) * (side - 2 * r);
      bool apart = true;
      for (const Sphere& o : s) apart = apart && norm3({x[0] - o.position[0], x[1] - o.position[1], x[2] - o.position[2]}) > 1.01 * (r + o.radius);
      if (!apart) continue;
      Vec<3> v;
      for (double& c : v) c = values[value(rng)] * (u(rng) < 0.5 ? -1 : 1);
      s.push_back(ball(x, v, r, masses[mass(rng)]));
      break;
    }
  }
  return s;
}

TEST(ExtremeValues, RandomExtremeScenesRunOrStopWithAKdsError) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  int ran = 0, built = 0;
  for (int trial = 0; trial < 24; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const double side = std::array{1e-3, 1.0, 20.0, 1e6}[trial % 4];
    const std::vector<Sphere> s = extreme_scene(rng, side);
    auto settings = world_settings(cube(side), "tvb-grid");
    settings.contact_tolerance = std::max(1e-9 * side, input_range::min_tolerance_per_coordinate * side);
    const double until = std::array{1.0, 1e10, 1e300}[trial % 3];
    std::vector<Contact> contacts[2];
    bool complete[2] = {false, false};
    for (int k = 0; k < 2; ++k) {
      settings.broad_phase = k == 0 ? "tvb-grid" : "all-pairs";
      try {
        WorldRun w(s, settings);
        ++built;
        complete[k] = w.run_until(until, 2000);  // extreme values make slow events: a few ms each
        contacts[k] = w.contacts();
      } catch (const InvalidInput&) {
      } catch (const NoProgress&) {
      }
    }
    // Stopped by the budget, one run's contacts are the start of the other's.
    const std::size_t common = std::min(contacts[0].size(), contacts[1].size());
    const std::vector<Contact> grid(contacts[0].begin(), contacts[0].begin() + common),
        all(contacts[1].begin(), contacts[1].begin() + common);
    EXPECT_TRUE(same_contacts(grid, all));
    if (complete[0] && complete[1]) EXPECT_EQ(contacts[0].size(), contacts[1].size());
    if (complete[0] && complete[1]) ++ran;
  }
  EXPECT_GE(built, 24);  // most scenes are valid: the runs, not the validation, are tested
  EXPECT_GE(ran, 2);
}

}  // namespace
}  // namespace kds::testing
