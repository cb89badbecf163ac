// Guards and cones on degenerate scenes built on purpose, audited after every event and
// against all-pairs: centres moving exactly along a facet of a cone and crossing one at an
// exact time, guards exactly on the sides of boxes, simultaneous contacts, contacts at
// time 0; and what it refuses. (grazing_test.cpp: small balls grazing large ones, a jump.)
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision_world_support.hpp"
#include "guards_scenes.hpp"
#include "structures/guards_cones/guards_cones.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {


/// A world with guards-cones over these spheres, audited after every event.
struct Audited {
  explicit Audited(const std::vector<Sphere>& s) : run(s, guards_settings(), audited()) {}
  static SimulatorSettings audited() {
    SimulatorSettings a;
    a.audit = true;
    return a;
  }
  const GuardsCones& gc() const { return dynamic_cast<const GuardsCones&>(run.world->broad_phase()); }
  WorldRun run;
};

/// The guard of `owner` with exactly this offset.
GuardId guard_with_offset(const GuardsCones& gc, SphereId owner, const Vec<3>& offset) {
  for (GuardId g = 0; g < gc.guards(); ++g)
    if (gc.guard_owner(g) == owner && gc.guard_offset(g) == offset) return g;
  ADD_FAILURE() << "no guard of sphere " << owner << " at offset " << offset[0] << ", " << offset[1] << ", "
                << offset[2];
  return 0;
}

const GuardsCones::Member* member(const GuardsCones& gc, GuardId g, SphereId k) {
  for (const auto& m : gc.members(g))
    if (m.object == k) return &m;
  return nullptr;
}

TEST(GuardsConesDegenerate, SimultaneousCollisionsInTieKeyOrder) {
  EXPECT_TRUE(same_contacts(guards_twins(simultaneous_contacts_scene(), 4.5), simultaneous_contacts_expected()));
}

TEST(GuardsConesDegenerate, ContactsAtTimeZero) {
  const auto c = guards_twins(touching_at_start_scene(), 1.0);
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c[0].time, 0.0);
}

// Sphere 0 (radius 1.75: its guards lie on the half-integers) at rest; sphere 1's centre,
// seen from one of its guards, moves exactly on a facet plane of a cone, inside the
// guard's box all along: x = z (a cube edge: a facet of cones on two faces), and
// 5x = z (a grid line of the face z+ with 10 cells per side: x = z / 5).
TEST(GuardsConesDegenerate, CentreMovingAlongAConeFacet) {
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
    const GuardId g = guard_with_offset(a.gc(), 0, k.offset);
    const auto* m = member(a.gc(), g, 1);
    ASSERT_NE(m, nullptr) << "the box of sphere 1 contains the guard";
    EXPECT_TRUE(a.gc().cones().contains(m->cone, k.d0, 0));
    ASSERT_TRUE(a.run.run_until(3));
    m = member(a.gc(), g, 1);
    ASSERT_NE(m, nullptr);
    const Vec<3> d{k.d0[0] + 3 * k.v[0], k.d0[1], k.d0[2] + 3 * k.v[2]};
    EXPECT_TRUE(a.gc().cones().contains(m->cone, d, 0));
    EXPECT_NO_THROW(a.run.sim->audit());
    guards_twins(s, 4);
  }
}

// The same guard; sphere 1's centre crosses the facet x = z at t = 0.25 exactly (and one
// starts on it and leaves at t = 0): a center event at that time, audited.
TEST(GuardsConesDegenerate, CentreCrossingAFacetAtAnExactTime) {
  const Vec<3> c0{50, 50, 50};
  const Vec<3> off{0.5, 1.5, 1.5};
  for (const Vec<3>& d0 : std::vector<Vec<3>>{{2.75, 0.5, 2.5}, {2.5, 0.5, 2.5}}) {
    const std::vector<Sphere> s{ball(c0, {0, 0, 0}, 1.75),
                                ball({c0[0] + off[0] + d0[0], c0[1] + off[1] + d0[1], c0[2] + off[2] + d0[2]},
                                     {-1, 0, 0}, 3)};
    Audited a(s);
    const GuardId g = guard_with_offset(a.gc(), 0, off);
    const auto* m = member(a.gc(), g, 1);
    ASSERT_NE(m, nullptr);
    const ConeIndex before = m->cone;
    const ConeSet& cones = a.gc().cones();
    ASSERT_TRUE(a.run.run_until(0.5));
    EXPECT_GT(a.gc().center_events(), 0u);
    m = member(a.gc(), g, 1);
    ASSERT_NE(m, nullptr);
    EXPECT_TRUE(cones.contains(m->cone, {d0[0] - 0.5, d0[1], d0[2]}, 0));
    // The face of a cone: x+ is 1, z+ is 5. Before the crossing the centre was on the face
    // x+, after it on the face z+; the centre that starts on the facet and leaves it is
    // given the cone it moves into (just after now), on z+.
    const std::size_t per_face = 2 * cones.cells_per_side() * cones.cells_per_side();
    EXPECT_EQ(before / per_face, d0[0] > d0[2] ? 1u : 5u);
    EXPECT_EQ(m->cone / per_face, 5u);
  }
}

// Guards exactly on the sides of boxes: sphere 1's box side x = c - h passes exactly
// through the guard at offset (0.5, 1.5, 1.5) of sphere 0: resting there (equal keys
// forever: the closed box holds it), arriving at t = 0 and moving on, leaving at t = 0,
// and crossing it at t = 0.5.
TEST(GuardsConesDegenerate, GuardsExactlyOnBoxSides) {
  const Vec<3> c0{50, 50, 50};
  const Vec<3> g{50.5, 51.5, 51.5};
  const double h = 3 + kGuardsTolerance;
  struct Case {
    double x0, vx;
    bool member_at_end;
  };
  for (const Case& k : {Case{g[0] + h, 0, true}, Case{g[0] + h, -1, true}, Case{g[0] + h, 1, false},
                        Case{g[0] + h + 0.5, -1, true}}) {
    SCOPED_TRACE("x0 = " + std::to_string(k.x0) + ", vx = " + std::to_string(k.vx));
    const std::vector<Sphere> s{ball(c0, {0, 0, 0}, 1.75), ball({k.x0, g[1] + 2.5, g[2] + 2.5}, {k.vx, 0, 0}, 3)};
    Audited a(s);
    const GuardId gd = guard_with_offset(a.gc(), 0, {0.5, 1.5, 1.5});
    ASSERT_TRUE(a.run.run_until(0.75));
    EXPECT_EQ(member(a.gc(), gd, 1) != nullptr, k.member_at_end);
    guards_twins(s, 3);
  }
}

TEST(GuardsConesInput, UnknownTrajectoriesAreRefusedNamingTheSphere) {
  struct NoProbe final : TrajectoryProbe {
    SphereState state(SphereId, double) override { return {}; }
    void set_velocity(SphereId, double, const Vec<3>&) override {}
  };
  std::vector<Sphere> s{ball({5, 5, 5}, {1, 0, 0}), ball({10, 5, 5}, {0, 0, 0}), ball({15, 5, 5}, {0, 1, 0})};
  s[2].max_acceleration = 2;
  auto st = world_settings(cube(20), "guards-cones");
  NoProbe probe;
  st.probe = &probe;
  Simulator sim;
  EXPECT_TRUE(message_has(invalid_input_message([&] { CollisionWorld world(sim, st, s); }),
                          {"sphere 2", "unknown trajectory", "guards-cones"}));
}

TEST(GuardsConesInput, OverlappingStartsAreRefusedNamingTheSpheres) {
  const std::vector<Sphere> s{ball({5, 5, 5}, {1, 0, 0}), ball({6, 5, 5}, {0, 0, 0}, 0.5)};
  Simulator sim;
  const std::string m = invalid_input_message([&] { CollisionWorld world(sim, world_settings(cube(20), "guards-cones"), s); });
  EXPECT_TRUE(message_has(m, {"0", "1"})) << m;
  EXPECT_FALSE(m.empty());
}

}  // namespace
}  // namespace kds::testing
