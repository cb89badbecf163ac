// Bad input: every error names the sphere (or the setting) and the problem.
#include <gtest/gtest.h>

#include <limits>

#include "collision_world_support.hpp"
#include "structures/collision/io/validate_spheres.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"

namespace kds::testing {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Four good spheres in a box of side 20; tests spoil one of them.
std::vector<Sphere> good_spheres() {
  std::vector<Sphere> s(4);
  for (std::size_t i = 0; i < s.size(); ++i) {
    s[i].position = {3.0 + 4.0 * double(i), 10, 10};
    s[i].velocity = {1, -1, 0.5};
    s[i].radius = 1;
    s[i].mass = 1;
  }
  return s;
}

/// The message of the InvalidInput thrown when building a world on these spheres.
std::string build_error(const std::vector<Sphere>& s, CollisionWorldSettings settings = world_settings(cube(20), "tvb-grid")) {
  return invalid_input_message([&] {
    Simulator sim;
    CollisionWorld world(sim, settings, s);
  });
}

struct BadSphere {
  const char* name;
  std::size_t index;
  void (*spoil)(Sphere&);
  std::vector<std::string> expected;  ///< fragments of the message besides "sphere <index>"
};

class BadSpheres : public ::testing::TestWithParam<BadSphere> {};

TEST_P(BadSpheres, AreRefusedWithAMessageNamingTheSphereAndTheProblem) {
  const BadSphere& b = GetParam();
  auto s = good_spheres();
  b.spoil(s[b.index]);
  for (const char* bp : {"tvb-grid", "all-pairs", "box-overlap", "box-overlap-2d", "guards-cones", "guards-cones-lists"}) {
    const std::string what = build_error(s, world_settings(cube(20), bp));
    EXPECT_TRUE(message_has(what, {"sphere " + std::to_string(b.index)}));
    for (const std::string& e : b.expected) EXPECT_TRUE(message_has(what, {e}));
  }
  // The scene validation of the io module refuses it too.
  EXPECT_THROW(validate_spheres(s, cube(20)), InvalidInput);
}

INSTANTIATE_TEST_SUITE_P(
    Spheres, BadSpheres,
    ::testing::Values(
        BadSphere{"nan_position", 2, [](Sphere& s) { s.position[1] = kNaN; }, {"position.y", "NaN"}},
        BadSphere{"infinite_position", 0, [](Sphere& s) { s.position[2] = -kInf; }, {"position.z", "infinity"}},
        BadSphere{"nan_velocity", 1, [](Sphere& s) { s.velocity[0] = kNaN; }, {"velocity.x", "NaN"}},
        BadSphere{"infinite_velocity", 3, [](Sphere& s) { s.velocity[2] = kInf; }, {"velocity.z", "infinity"}},
        BadSphere{"zero_radius", 1, [](Sphere& s) { s.radius = 0; }, {"radius", "> 0", "got 0"}},
        BadSphere{"negative_radius", 2, [](Sphere& s) { s.radius = -1; }, {"radius", "> 0", "got -1"}},
        BadSphere{"nan_radius", 2, [](Sphere& s) { s.radius = kNaN; }, {"radius"}},
        BadSphere{"zero_mass", 0, [](Sphere& s) { s.mass = 0; }, {"mass", "> 0", "got 0"}},
        BadSphere{"negative_mass", 3, [](Sphere& s) { s.mass = -2; }, {"mass", "> 0", "got -2"}},
        BadSphere{"infinite_mass", 3, [](Sphere& s) { s.mass = kInf; }, {"mass"}},
        BadSphere{"negative_acceleration_bound", 1, [](Sphere& s) { s.max_acceleration = -1; },
                  {"max_acceleration", ">= 0", "got -1"}},
        BadSphere{"nan_acceleration_bound", 1, [](Sphere& s) { s.max_acceleration = kNaN; }, {"max_acceleration", "NaN"}},
        BadSphere{"outside_the_box_x", 0, [](Sphere& s) { s.position[0] = -5; }, {"outside the box", "x"}},
        BadSphere{"poking_out_of_the_box_y", 3, [](Sphere& s) { s.position[1] = 19.5; }, {"outside the box", "y"}},
        BadSphere{"an_ulp_out_of_the_box_z", 2, [](Sphere& s) { s.position[2] = std::nextafter(1.0, 0.0); },
                  {"outside the box", "z"}}),
    [](const ::testing::TestParamInfo<BadSphere>& i) { return std::string(i.param.name); });

TEST(BadInput, OverlappingSpheresAtTheStartNameBothSpheres) {
  auto s = good_spheres();
  s[3].position = {9.5, 10, 10};  // sphere 2 is at (11, 10, 10): distance 1.5 < 2
  const std::string what = build_error(s);
  EXPECT_TRUE(message_has(what, {"spheres 2 and 3", "overlap", "1.5"}));
  // By an ulp: still refused; touching exactly: accepted.
  s = good_spheres();
  s[1].position[0] = std::nextafter(s[0].position[0] + 2, 0.0);
  EXPECT_TRUE(message_has(build_error(s), {"spheres 0 and 1", "overlap"}));
  s = good_spheres();
  s[1].position[0] = s[0].position[0] + 2;
  EXPECT_NO_THROW({
    Simulator sim;
    CollisionWorld world(sim, world_settings(cube(20), "tvb-grid"), s);
  });
  // Touching the walls exactly: accepted.
  s = good_spheres();
  s[0].position = {1, 1, 19};
  EXPECT_NO_THROW({
    Simulator sim;
    CollisionWorld world(sim, world_settings(cube(20), "tvb-grid"), s);
  });
}

TEST(BadInput, UnknownTrajectoryWithoutAProbe) {
  auto s = good_spheres();
  s[2].max_acceleration = 5;
  EXPECT_TRUE(message_has(build_error(s), {"sphere 2", "unknown trajectory", "TrajectoryProbe"}));
}

TEST(BadInput, BadSettingsAreNamed) {
  const auto s = good_spheres();
  auto settings = world_settings(cube(20), "tvb-grid");
  settings.contact_tolerance = 0;
  EXPECT_TRUE(message_has(build_error(s, settings), {"contact_tolerance"}));
  settings = world_settings(cube(20), "tvb-grid");
  settings.restitution = 1.5;
  EXPECT_TRUE(message_has(build_error(s, settings), {"restitution"}));
  settings = world_settings(cube(20), "tvb-grid");
  settings.gravity[2] = kNaN;
  EXPECT_TRUE(message_has(build_error(s, settings), {"gravity"}));
  settings = world_settings(Box3{{0, 0, 0}, {20, 0, 20}}, "tvb-grid");
  EXPECT_TRUE(message_has(build_error(s, settings), {"box", "y1"}));
  settings = world_settings(cube(20), "tvb-grid");
  settings.cell_ratio = 1.5;
  EXPECT_TRUE(message_has(build_error(s, settings), {"cell_ratio"}));
}

TEST(BadInput, BadBodiesForAWorldAreNamedAndChangeNothing) {
  const auto s = good_spheres();
  const auto settings = world_settings(cube(20), "tvb-grid");
  Simulator sim({.audit = true});
  std::vector<BodyId> bodies;
  for (const Sphere& sp : s) bodies.push_back(sim.bodies().insert(Motion<3>::linear(0.0, sp.position, sp.velocity)));
  const BodyId line = sim.bodies().insert(Motion<1>::constant({0.0}));
  Simulator other;
  const BodyId foreign = other.bodies().insert(Motion<3>::constant({1, 1, 1}));
  auto with = [&](std::size_t slot, BodyId b) {
    std::vector<BodyId> v = bodies;
    v[slot] = b;
    return invalid_input_message([&] { CollisionWorld world(sim, settings, s, v); });
  };
  EXPECT_TRUE(message_has(with(2, line), {"sphere 2", "body " + std::to_string(line.index), "not 3D"}));
  EXPECT_TRUE(message_has(with(1, foreign), {"sphere 1", "another simulator"}));
  EXPECT_TRUE(message_has(with(3, bodies[0]), {"sphere 3", "given twice"}));
  const std::vector<BodyId> fewer(bodies.begin(), bodies.begin() + 2);
  EXPECT_TRUE(message_has(invalid_input_message([&] { CollisionWorld world(sim, settings, s, fewer); }),
                          {"4 spheres for 2 bodies"}));
  sim.bodies().erase(line);
  EXPECT_TRUE(message_has(with(0, line), {"sphere 0", "stale"}));
  // Nothing was held or certified by the failed attempts: the bodies can still go, or
  // carry a world.
  for (BodyId b : bodies) EXPECT_EQ(sim.bodies().holders(b), 0u);
  EXPECT_EQ(sim.certificate_count(), 0u);
  {
    CollisionWorld world(sim, settings, s, bodies);
    EXPECT_TRUE(message_has(invalid_input_message([&] { sim.bodies().erase(bodies[0]); }), {"still held"}));
    sim.run_until(3.0);
  }
  for (BodyId b : bodies) sim.bodies().erase(b);
  EXPECT_EQ(sim.bodies().size(), 0u);
}

TEST(BadInput, ResponseLeavingAPairApproachingIsRefused) {
  std::vector<Sphere> s(2);
  s[0].position = {5, 10, 10};
  s[0].velocity = {1, 0, 0};
  s[1].position = {15, 10, 10};
  s[1].velocity = {-1, 0, 0};
  for (const char* bp : {"tvb-grid", "all-pairs", "box-overlap", "box-overlap-2d", "guards-cones", "guards-cones-lists"}) {
    WorldRun w(s, world_settings(cube(20), bp));
    w.world->set_pair_response([](const Contact&, SphereState&, SphereState& b) { b.velocity[0] -= 0.5; });
    const std::string what = invalid_input_message([&] { w.run_until(10); });
    EXPECT_TRUE(message_has(what, {"spheres 0 and 1", "approaching", "t = 4"}));
  }
  // A response that does separate them is accepted and used.
  WorldRun w(s, world_settings(cube(20), "tvb-grid"));
  w.world->set_pair_response([](const Contact&, SphereState& a, SphereState& b) {
    a.velocity = {-2, 0, 0};
    b.velocity = {2, 0, 0};
  });
  ASSERT_TRUE(w.run_until(5));
  EXPECT_EQ(w.world->state(1, 5).velocity[0], 2);
}

TEST(BadInput, WallResponseLeavingASphereMovingIntoTheWallIsRefused) {
  std::vector<Sphere> s(1);
  s[0].position = {10, 10, 10};
  s[0].velocity = {0, 0, -3};
  WorldRun w(s, world_settings(cube(20), "tvb-grid"));
  w.world->set_wall_response([](const Contact&, SphereState&) {});
  const std::string what = invalid_input_message([&] { w.run_until(10); });
  EXPECT_TRUE(message_has(what, {"sphere 0", "wall", "t = 3"}));
}

}  // namespace
}  // namespace kds::testing
