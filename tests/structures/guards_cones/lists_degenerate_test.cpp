// Guards and cones with centre lists ("guards-cones-lists") on degenerate scenes built on
// purpose, audited after every event and against all-pairs: simultaneous contacts,
// contacts at time 0, small balls grazing a large one, centres moving exactly along a
// facet plane and crossing one at an exact time, guards exactly on box sides, a
// flight-plan jump; and what it refuses. The scenes are those of degenerate_twin_test.cpp
// and grazing_test.cpp (the member-list variant).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision_world_support.hpp"
#include "guards_scenes.hpp"
#include "structures/guards_cones/guards_cones_lists.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

constexpr const char* kLists = "guards-cones-lists";

std::vector<Contact> lists_twins(const std::vector<Sphere>& spheres, double t_end) {
  return guards_twins(spheres, t_end, 100, kLists);
}

struct Audited {
  explicit Audited(const std::vector<Sphere>& s) : run(s, guards_settings(100, kLists), audited()) {}
  static SimulatorSettings audited() {
    SimulatorSettings a;
    a.audit = true;
    return a;
  }
  const GuardsConesLists& gl() const { return dynamic_cast<const GuardsConesLists&>(run.world->broad_phase()); }
  WorldRun run;
};

GuardId guard_with_offset(const GuardsConesLists& gl, SphereId owner, const Vec<3>& offset) {
  for (GuardId g = 0; g < gl.guards(); ++g)
    if (gl.guard_owner(g) == owner && gl.guard_offset(g) == offset) return g;
  ADD_FAILURE() << "no guard of sphere " << owner << " at offset " << offset[0] << ", " << offset[1] << ", "
                << offset[2];
  return 0;
}

/// The cone of g whose closest object is k, or no_cone.
ConeIndex cone_led_by(const GuardsConesLists& gl, GuardId g, SphereId k) {
  for (const auto& [cone, j] : gl.closest(g))
    if (j == k) return cone;
  return no_cone;
}

TEST(GuardsConesListsDegenerate, SimultaneousCollisionsInTieKeyOrder) {
  EXPECT_TRUE(same_contacts(lists_twins(simultaneous_contacts_scene(), 4.5), simultaneous_contacts_expected()));
}

TEST(GuardsConesListsDegenerate, ContactsAtTimeZero) {
  const auto c = lists_twins(touching_at_start_scene(), 1.0);
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c[0].time, 0.0);
}

// A ball of radius 0.05 passing a ball of radius 20 (tangent, shallow), and a ring of
// small balls grazing it from random directions at t = 1.
TEST(GuardsConesListsDegenerate, SmallBallsGrazingALargeOne) {
  const Sphere big = ball({50, 50, 50}, {0, 0, 0}, 20, 1000);
  lists_twins({big, ball({20, 70.05, 50}, {1, 0, 0}, 0.05)}, 40);
  const auto shallow = lists_twins({big, ball({20, 70.04, 50}, {1, 0, 0}, 0.05)}, 40);
  ASSERT_FALSE(shallow.empty());
  EXPECT_NEAR(shallow[0].time, 30 - std::sqrt(20.05 * 20.05 - 20.04 * 20.04), 1e-9);
  std::vector<Sphere> ring{big};
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < 8; ++i) {
    Vec<3> u{nd(rng), nd(rng), nd(rng)};
    const double l = norm3(u);
    for (double& x : u) x /= l;
    Vec<3> v{nd(rng), nd(rng), nd(rng)};
    const double along = dot3(v, u);
    for (int k = 0; k < 3; ++k) v[k] -= along * u[k];
    const double depth = i % 3 == 0 ? 0 : 1e-3 * i;
    Vec<3> p;
    for (int k = 0; k < 3; ++k) p[k] = 50 + (20.05 - depth) * u[k] - v[k];
    bool free = true;
    for (const Sphere& o : ring)
      free = free && norm3({p[0] - o.position[0], p[1] - o.position[1], p[2] - o.position[2]}) >
                         o.radius + (o.radius > 1 ? 0.06 : 0.2);
    if (free) ring.push_back(ball(p, v, 0.05, 0.01));
  }
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto c = lists_twins(ring, 1.5);
  std::size_t with_big = 0;
  for (const Contact& k : c) with_big += !k.with_wall && k.a == 0;
  EXPECT_GE(with_big, 2u);
}

// Sphere 0 (radius 1.75: guards on the half-integers) at rest; sphere 1's centre, seen
// from one of its guards, moves exactly on a facet plane (x = z, and x = z / 5), inside
// the guard's box all along: it stays the closest object of a cone that holds it.
TEST(GuardsConesListsDegenerate, CentreMovingAlongAConeFacet) {
  const Vec<3> c0{50, 50, 50};
  struct Case {
    Vec<3> offset, d0, v;
  };
  for (const Case& k : {Case{{0.5, 1.5, 1.5}, {2.5, 0.5, 2.5}, {0.0625, 0, 0.0625}},
                        Case{{0.5, 2.5, 1.5}, {0.5, 0.5, 2.5}, {0.03125, 0, 0.15625}}}) {
    const std::vector<Sphere> s{ball(c0, {0, 0, 0}, 1.75),
                                ball({c0[0] + k.offset[0] + k.d0[0], c0[1] + k.offset[1] + k.d0[1],
                                      c0[2] + k.offset[2] + k.d0[2]},
                                     k.v, 3)};
    Audited a(s);
    const GuardId g = guard_with_offset(a.gl(), 0, k.offset);
    ConeIndex c = cone_led_by(a.gl(), g, 1);
    ASSERT_NE(c, no_cone) << "the box of sphere 1 contains the guard";
    EXPECT_TRUE(a.gl().cones().contains(c, k.d0, 0));
    ASSERT_TRUE(a.run.run_until(3));
    c = cone_led_by(a.gl(), g, 1);
    ASSERT_NE(c, no_cone);
    const Vec<3> d{k.d0[0] + 3 * k.v[0], k.d0[1], k.d0[2] + 3 * k.v[2]};
    EXPECT_TRUE(a.gl().cones().contains(c, d, 0));
    lists_twins(s, 4);
  }
}

// The same guard; sphere 1's centre crosses the facet x = z at t = 0.25 exactly (and one
// starts on it and leaves at t = 0): a center event from the facet lists, audited.
TEST(GuardsConesListsDegenerate, CentreCrossingAFacetAtAnExactTime) {
  const Vec<3> c0{50, 50, 50};
  const Vec<3> off{0.5, 1.5, 1.5};
  for (const Vec<3>& d0 : std::vector<Vec<3>>{{2.75, 0.5, 2.5}, {2.5, 0.5, 2.5}}) {
    const std::vector<Sphere> s{ball(c0, {0, 0, 0}, 1.75),
                                ball({c0[0] + off[0] + d0[0], c0[1] + off[1] + d0[1], c0[2] + off[2] + d0[2]},
                                     {-1, 0, 0}, 3)};
    Audited a(s);
    const GuardId g = guard_with_offset(a.gl(), 0, off);
    const ConeIndex before = cone_led_by(a.gl(), g, 1);
    ASSERT_NE(before, no_cone);
    const ConeSet& cones = a.gl().cones();
    ASSERT_TRUE(a.run.run_until(0.5));
    EXPECT_GT(a.gl().center_events(), 0u);
    const ConeIndex after = cone_led_by(a.gl(), g, 1);
    ASSERT_NE(after, no_cone);
    EXPECT_TRUE(cones.contains(after, {d0[0] - 0.5, d0[1], d0[2]}, 0));
    // Faces: x+ is 1, z+ is 5. A centre starting on the facet is given the cone it moves
    // into (just after now), on z+.
    const std::size_t per_face = 2 * cones.cells_per_side() * cones.cells_per_side();
    EXPECT_EQ(before / per_face, d0[0] > d0[2] ? 1u : 5u);
    EXPECT_EQ(after / per_face, 5u);
  }
}

// Sphere 1's box side x = c - h passes exactly through a guard of sphere 0: resting
// there, arriving at t = 0, leaving at t = 0, and crossing it at t = 0.5.
TEST(GuardsConesListsDegenerate, GuardsExactlyOnBoxSides) {
  const Vec<3> c0{50, 50, 50};
  const Vec<3> g{50.5, 51.5, 51.5};
  const double h = 3 + kGuardsTolerance;
  struct Case {
    double x0, vx;
    bool held_at_end;
  };
  for (const Case& k : {Case{g[0] + h, 0, true}, Case{g[0] + h, -1, true}, Case{g[0] + h, 1, false},
                        Case{g[0] + h + 0.5, -1, true}}) {
    SCOPED_TRACE("x0 = " + std::to_string(k.x0) + ", vx = " + std::to_string(k.vx));
    const std::vector<Sphere> s{ball(c0, {0, 0, 0}, 1.75), ball({k.x0, g[1] + 2.5, g[2] + 2.5}, {k.vx, 0, 0}, 3)};
    Audited a(s);
    const GuardId gd = guard_with_offset(a.gl(), 0, {0.5, 1.5, 1.5});
    ASSERT_TRUE(a.run.run_until(0.75));
    // The only other object: the closest object of its cone iff its box holds the guard.
    EXPECT_EQ(cone_led_by(a.gl(), gd, 1) != no_cone, k.held_at_end);
    EXPECT_EQ(a.gl().box_lists().contains(gd, 1), k.held_at_end);
    lists_twins(s, 3);
  }
}

TEST(GuardsConesListsFlightPlan, AJumpIsRepairedAtOnce) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const SceneSpec spec{8, 20, 0.3, 2, 4, 1, 1};
  const auto spheres = random_scene(rng, spec);
  SimulatorSettings audited;
  audited.audit = true;
  WorldRun w(spheres, world_settings(cube(spec.box), kLists), audited);
  ASSERT_TRUE(w.run_until(0.5));
  const double r0 = spheres[0].radius;
  for (double x = 3; x < 17; x += 0.5)
    for (double y = 3; y < 17; y += 0.5) {
      bool free = true;
      for (SphereId j = 1; j < w.world->size() && free; ++j) {
        const Vec<3> p = w.world->state(j, 0.5).position;
        free = std::hypot(p[0] - x, p[1] - y, p[2] - 10) > r0 + w.world->sphere(j).radius + 0.5;
      }
      if (!free) continue;
      const auto swaps = dynamic_cast<const GuardsConesLists&>(w.world->broad_phase()).swaps();
      w.sim->bodies().set_motion(w.world->body(0), Motion<3>::linear(0.5, {x, y, 10}, {1, -1, 0}));
      ASSERT_NO_THROW(w.run_until(1.5));
      EXPECT_GT(dynamic_cast<const GuardsConesLists&>(w.world->broad_phase()).swaps(), swaps);
      EXPECT_GT(w.sim->statistics().audits, 10u);
      return;
    }
  FAIL() << "no free spot found for the jump (seed " << seed << ")";
}

TEST(GuardsConesListsInput, UnknownTrajectoriesAreRefusedNamingTheSphere) {
  struct NoProbe final : TrajectoryProbe {
    SphereState state(SphereId, double) override { return {}; }
    void set_velocity(SphereId, double, const Vec<3>&) override {}
  };
  std::vector<Sphere> s{ball({5, 5, 5}, {1, 0, 0}), ball({10, 5, 5}, {0, 0, 0}), ball({15, 5, 5}, {0, 1, 0})};
  s[1].max_acceleration = 2;
  auto st = world_settings(cube(20), kLists);
  NoProbe probe;
  st.probe = &probe;
  Simulator sim;
  EXPECT_TRUE(message_has(invalid_input_message([&] { CollisionWorld world(sim, st, s); }),
                          {"sphere 1", "unknown trajectory", "guards-cones-lists"}));
}

}  // namespace
}  // namespace kds::testing
