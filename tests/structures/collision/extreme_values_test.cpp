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
#include <sstream>
#include <string>

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

/// A random valid scene with extreme values: a handful of spheres, well apart. With
/// `quiet_until` > 0, each velocity component is drawn among the values slow enough that
/// the sphere moves at most a thousandth of its radius by then (a quiet scene, below), and
/// the first sphere touches the wall x_lo, approaching it: one contact, at time 0.
std::vector<Sphere> extreme_scene(std::mt19937_64& rng, double side, double quiet_until = 0) {
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
    std::vector<double> slow;  // 0 at least
    for (double v : values)
      if (3 * v * quiet_until <= 1e-3 * r) slow.push_back(v);
    std::uniform_int_distribution<std::size_t> slow_value(0, slow.size() - 1);
    for (int attempt = 0; attempt < 50; ++attempt) {
      Vec<3> x;
      for (double& c : x) c = r + u(rng) * (side - 2 * r);
      if (quiet_until > 0 && i == 0) x[0] = r;
      bool apart = true;
      for (const Sphere& o : s) apart = apart && norm3({x[0] - o.position[0], x[1] - o.position[1], x[2] - o.position[2]}) > 1.01 * (r + o.radius);
      if (!apart) continue;
      Vec<3> v;
      for (double& c : v) c = (quiet_until > 0 ? slow[slow_value(rng)] : values[value(rng)]) * (u(rng) < 0.5 ? -1 : 1);
      if (quiet_until > 0 && i == 0) v[0] = -std::max(std::fabs(v[0]), std::numeric_limits<double>::denorm_min());
      s.push_back(ball(x, v, r, masses[mass(rng)]));
      break;
    }
  }
  return s;
}

/// Whether a scene needs only a few events up to `until`, in either broad phase, so that
/// it must run to the end within the test's budget of 2000 events. A sphere's path is at
/// most |v|_1 until (an elastic wall turns it, never speeds it up; |v|_1, since the squares
/// of subnormal components vanish in |v|_2). If no path exceeds a hundredth of its radius
/// and no two paths can close a gap, no two spheres touch, a sphere touches each wall at
/// most once (the wall is behind it afterwards), and its bound crosses at most one cell
/// face per axis (a level's cells are at least four radii wide, cell_sides.hpp): a few
/// events per sphere, and ballistic bounds are never reset.
bool quiet(const std::vector<Sphere>& s, double until, double tolerance) {
  std::vector<double> path;
  for (const Sphere& x : s)
    path.push_back((std::fabs(x.velocity[0]) + std::fabs(x.velocity[1]) + std::fabs(x.velocity[2])) * until);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!(path[i] <= 0.01 * s[i].radius)) return false;
    for (std::size_t j = 0; j < i; ++j) {
      const Vec<3>& a = s[i].position;
      const Vec<3>& b = s[j].position;
      const double gap = norm3({a[0] - b[0], a[1] - b[1], a[2] - b[2]}) - s[i].radius - s[j].radius;
      if (!(path[i] + path[j] < gap - tolerance)) return false;
    }
  }
  return true;
}

TEST(ExtremeValues, RandomExtremeScenesRunOrStopWithAKdsError) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  // Most random scenes cannot run to the end within the budget, and rightly: a sphere at
  // 1e20 or 1e50 hits the walls of its box 1e17 to 1e56 times a second, and a sphere of
  // radius 2e-4 at speed 1 crosses 2500 cells of the grid a second. How many of the 24 do
  // is luck (none for 15 of seeds 1..100, fewer than 2 for 34 of them: the test asked for
  // 2, and scenes are never rejected, none threw in those 2400). The scenes that must run
  // to the end are the quiet ones (quiet()), and 4 more scenes are
  // drawn quiet, still with extreme values (subnormal and tiny velocities, masses, radii,
  // times up to 1e300) and with a contact at time 0, so that every seed has some.
  constexpr int random_trials = 24, quiet_trials = 4;
  int ran = 0, built = 0, quiet_scenes = 0;
  for (int trial = 0; trial < random_trials + quiet_trials; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const double side = std::array{1e-3, 1.0, 20.0, 1e6}[trial % 4];
    const double until = std::array{1.0, 1e10, 1e300}[trial % 3];
    const std::vector<Sphere> s = extreme_scene(rng, side, trial < random_trials ? 0 : until);
    auto settings = world_settings(cube(side), "tvb-grid");
    settings.contact_tolerance = std::max(1e-9 * side, input_range::min_tolerance_per_coordinate * side);
    const bool must_finish = quiet(s, until, settings.contact_tolerance);
    if (trial >= random_trials) ASSERT_TRUE(must_finish) << "extreme_scene drew a scene that is not quiet";
    quiet_scenes += must_finish;
    std::vector<Contact> contacts[2];
    bool complete[2] = {false, false};
    std::string stop[2];
    for (int k = 0; k < 2; ++k) {
      settings.broad_phase = k == 0 ? "tvb-grid" : "all-pairs";
      try {
        WorldRun w(s, settings);
        ++built;
        complete[k] = w.run_until(until, 2000);  // extreme values make slow events: a few ms each
        contacts[k] = w.contacts();
        if (!complete[k]) {
          std::ostringstream os;
          os.precision(17);
          os << "the budget of 2000 events at t = " << w.sim->now_approx();
          stop[k] = os.str();
        }
      } catch (const InvalidInput& e) {
        stop[k] = e.what();
      } catch (const NoProgress& e) {
        stop[k] = e.what();
      }
    }
    // Stopped by the budget, one run's contacts are the start of the other's.
    const std::size_t common = std::min(contacts[0].size(), contacts[1].size());
    const std::vector<Contact> grid(contacts[0].begin(), contacts[0].begin() + common),
        all(contacts[1].begin(), contacts[1].begin() + common);
    EXPECT_TRUE(same_contacts(grid, all));
    if (complete[0] && complete[1]) EXPECT_EQ(contacts[0].size(), contacts[1].size());
    if (complete[0] && complete[1]) ++ran;
    for (int k = 0; k < 2; ++k) {
      const char* name = k == 0 ? "tvb-grid" : "all-pairs";
      if (must_finish)
        EXPECT_TRUE(complete[k]) << "a quiet scene, run with " << name << " to " << until << ", stopped: " << stop[k];
      if (trial >= random_trials)
        EXPECT_TRUE(!contacts[k].empty() && same_contact(contacts[k][0], wall_contact(0, 0, Wall::x_lo)))
            << name << ": the first sphere, touching the wall x_lo, meets it at time 0";
    }
  }
  EXPECT_GE(built, random_trials + quiet_trials);  // most scenes are valid: the runs, not the validation, are tested
  std::cout << "[ extreme  ] " << ran << " of " << random_trials + quiet_trials << " scenes ran to the end, "
            << quiet_scenes << " of them quiet\n";
}

}  // namespace
}  // namespace kds::testing
