// The accepted range of input (structures/collision/input_range.hpp, docs/scene-format.md)
// at both ends of every limit: a value just inside builds a world that runs and finds the
// same contacts with every broad phase; the next double outside is refused with a message
// naming the sphere (or the setting), the field and the limit.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <sstream>

#include "collision_world_support.hpp"
#include "structures/collision/input_range.hpp"
#include "structures/collision/io/scene.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"

namespace kds::testing {
namespace {

constexpr double kMax = input_range::max_magnitude;
const double kAbove = std::nextafter(kMax, INFINITY);

/// Two unit spheres on the x axis of a box of side 20, the first moving towards the second.
std::vector<Sphere> head_on(double speed) {
  std::vector<Sphere> s(2);
  s[0].position = {5, 10, 10};
  s[0].velocity = {speed, 0, 0};
  s[1].position = {15, 10, 10};
  return s;
}

/// Runs the spheres until `until` with the grid and with all pairs: they must agree and
/// find at least `contacts` contacts.
void runs_alike(const std::vector<Sphere>& spheres, CollisionWorldSettings settings, double until, std::size_t contacts,
                TrajectoryProbe* probe = nullptr) {
  settings.probe = probe;
  TwinResult r;
  ASSERT_NO_THROW(r = run_twins(spheres, settings, until));
  EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
  EXPECT_GE(r.tested.size(), contacts);
}

std::string refused(const std::vector<Sphere>& spheres, const CollisionWorldSettings& settings) {
  return invalid_input_message([&] {
    Simulator sim;
    CollisionWorld world(sim, settings, spheres);
  });
}

TEST(InputRange, VelocityAtTheLimitRunsAndBeyondIsRefused) {
  // A crossing of the box takes 2e-49: about a dozen contacts until 1e-48.
  runs_alike(head_on(kMax), world_settings(cube(20), "tvb-grid"), 1e-48, 10);
  runs_alike(head_on(-kMax), world_settings(cube(20), "tvb-grid"), 1e-48, 10);
  EXPECT_TRUE(message_has(refused(head_on(kAbove), world_settings(cube(20), "tvb-grid")),
                          {"sphere 0", "velocity.x", "at most 1e+50", "got 1.0000000000000003e+50"}));
}

TEST(InputRange, GravityAtTheLimitRunsAndBeyondIsRefused) {
  // Falling 9 takes about 4e-25; bouncing, a handful of wall contacts until 1e-23.
  auto settings = world_settings(cube(20), "tvb-grid", 1.0, {0, 0, -kMax});
  runs_alike(head_on(0), settings, 1e-23, 4);
  settings.gravity[2] = -kAbove;
  EXPECT_TRUE(message_has(refused(head_on(0), settings), {"gravity.z", "at most 1e+50"}));
}

TEST(InputRange, AccelerationBoundAtTheLimitRunsAndBeyondIsRefused) {
  auto spheres = head_on(1);
  for (Sphere& s : spheres) s.max_acceleration = kMax;
  // A bound fills its cell within sqrt((L - 2r) / A) (eq. 8), some 5e-25, and the two bounds
  // meet sooner: a few dozen bound collisions and resets until 4e-23.
  PiecewiseAccelerationProbe grid_probe(spheres, 0.1, 7), all_pairs_probe(spheres, 0.1, 7);
  auto settings = world_settings(cube(20), "tvb-grid");
  for (auto [name, probe] : {std::pair<const char*, TrajectoryProbe*>{"tvb-grid", &grid_probe},
                             std::pair<const char*, TrajectoryProbe*>{"all-pairs", &all_pairs_probe}}) {
    settings.broad_phase = name;
    settings.probe = probe;
    WorldRun w(spheres, settings);
    ASSERT_TRUE(w.run_until(4e-23));
    const Statistics& s = w.sim->statistics();
    std::cout << "[ range    ] " << name << ": " << s.events_of("resetting") << " resetting events, "
              << s.events_of("bound collision") << " bound collisions\n";
    EXPECT_GT(s.events_of("resetting") + s.events_of("bound collision"), 20u) << name;
  }
  spheres[1].max_acceleration = kAbove;
  EXPECT_TRUE(message_has(refused(spheres, settings), {"sphere 1", "max_acceleration", "at most 1e+50"}));
}

TEST(InputRange, BoxCornersAtTheLimitRunAndBeyondAreRefused) {
  const Box3 box{{-kMax, -kMax, -kMax}, {kMax, kMax, kMax}};
  std::vector<Sphere> s(2);
  s[0].position = {-1e49, 0, 0};
  s[0].velocity = {1e49, 0, 0};
  s[0].radius = 1e48;
  s[1].position = {1e49, 0, 0};
  s[1].radius = 1e48;
  // Coordinates of 1e49 have ulps of 2e33: the tolerance must be at least 2^-40 of them.
  auto settings = world_settings(box, "tvb-grid");
  settings.contact_tolerance = input_range::min_tolerance_per_coordinate * kMax;
  runs_alike(s, settings, 20, 2);
  Box3 beyond = box;
  beyond.hi[1] = kAbove;
  settings.box = beyond;
  EXPECT_TRUE(message_has(refused(s, settings), {"box corner y1", "at most 1e+50"}));
}

TEST(InputRange, ContactToleranceAtTheResolutionOfTheLocalFrameRunsAndBelowIsRefused) {
  // Unit spheres far from the origin (ulps of 2^-12 there), in a box held relative to its
  // corner: local coordinates up to 20.
  const double corner = 0x1p40;
  const Box3 box{{corner, corner, corner}, {corner + 20, corner + 20, corner + 20}};
  auto s = head_on(1);
  for (Sphere& x : s)
    for (double& c : x.position) c += corner;
  auto settings = world_settings(box, "tvb-grid");
  const double least = input_range::min_tolerance_per_coordinate * 20;  // exact
  settings.contact_tolerance = least;
  runs_alike(s, settings, 40, 4);
  settings.contact_tolerance = std::nextafter(least, 0.0);
  EXPECT_TRUE(message_has(refused(s, settings), {"contact_tolerance", "2^-40", "local origin (20)"}));
  // The default tolerance, 1e-6, runs there; a box across zero keeps its coordinates, and
  // refuses it.
  runs_alike(s, world_settings(box, "tvb-grid"), 40, 4);
  const Box3 across{{-corner, -corner, -corner}, {corner + 20, corner + 20, corner + 20}};
  EXPECT_TRUE(message_has(refused(s, world_settings(across, "tvb-grid")), {"contact_tolerance", "got 1e-06"}));
}

TEST(InputRange, MassesAtTheLimitsRunAndBeyondAreRefused) {
  auto s = head_on(1);
  s[0].mass = input_range::min_mass;
  s[1].mass = kMax;
  runs_alike(s, world_settings(cube(20), "tvb-grid"), 40, 3);
  s[0].mass = std::nextafter(input_range::min_mass, 0.0);
  EXPECT_TRUE(message_has(refused(s, world_settings(cube(20), "tvb-grid")), {"sphere 0", "mass", "[1e-50, 1e+50]"}));
  s[0].mass = 1;
  s[1].mass = kAbove;
  EXPECT_TRUE(message_has(refused(s, world_settings(cube(20), "tvb-grid")), {"sphere 1", "mass", "[1e-50, 1e+50]"}));
}

TEST(InputRange, SmallestRadiusRunsAndSmallerIsRefused) {
  const double r = 20 * input_range::min_radius_per_box_side;
  auto s = head_on(1);
  s[0].radius = s[1].radius = r;
  s[1].position = {5 + 8 * r, 10, 10};
  runs_alike(s, world_settings(cube(20), "tvb-grid"), 1e-3, 1);
  s[1].radius = std::nextafter(r, 0.0);
  EXPECT_TRUE(message_has(refused(s, world_settings(cube(20), "tvb-grid")),
                          {"sphere 1", "radius", "2^-40 times the largest side of the box"}));
}

// No limit on the ratio of radii (issue 12, item 3): the grid puts spheres too small for
// its finest level there (structures/collision/cell_sides.hpp). A ratio of 2^24 runs.
TEST(InputRange, AnyRadiusRatioRuns) {
  const double big = 0x1p24;  // times the unit radius of sphere 0
  const Box3 box = cube(4 * big);
  std::vector<Sphere> s(2);
  s[0].position = {10, 2 * big, 2 * big};
  s[0].velocity = {1e6, 0, 0};
  s[1].position = {2 * big, 2 * big, 2 * big};
  s[1].radius = big;
  auto settings = world_settings(box, "tvb-grid");
  settings.contact_tolerance = 1e-3;
  runs_alike(s, settings, 40, 2);
}

// The two scenes of issue 7, as a new user wrote them: refused at once, naming the sphere.
TEST(InputRange, TheScenesOfTheIssueAreRefusedNamingTheSphere) {
  auto error = [](const std::string& text) {
    return invalid_input_message([&] {
      std::istringstream in(text);
      read_scene(in, "edge.scene");
    });
  };
  EXPECT_TRUE(message_has(error("box 0 0 0 20 20 20\nmode ballistic\nspheres\n5 5 5 1e308 0 0 1 1\n"),
                          {"edge.scene:4", "sphere 0", "velocity.x", "1e+50"}));
  EXPECT_TRUE(message_has(error("box 0 0 0 20 20 20\nmode ballistic\nspheres\n5 5 5 1 0 0 1 1\n9 9 9 0 0 0 1e-320 1\n"),
                          {"edge.scene:5", "sphere 1", "radius", "2^-40"}));
}

}  // namespace
}  // namespace kds::testing
