// Guards and cones with centre lists ("guards-cones-lists") where the facet lists decide:
// centres moving exactly along a facet plane and crossing one at an exact time, guards
// exactly on box sides; audited every few events and against all-pairs (the scenes of
// degenerate_twin_test.cpp). Flight-plan jumps: lists_jump_test.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "collision_world_support.hpp"
#include "guards_scenes.hpp"
#include "lists_scenes.hpp"

namespace kds::testing {
namespace {

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
    ASSERT_TRUE(a.run_until(1));
    c = cone_led_by(a.gl(), g, 1);
    ASSERT_NE(c, no_cone);
    const Vec<3> d{k.d0[0] + k.v[0], k.d0[1], k.d0[2] + k.v[2]};
    EXPECT_TRUE(a.gl().cones().contains(c, d, 0));
    lists_twins(s, 1.5);
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
    ASSERT_TRUE(a.run_until(0.5));
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
    ASSERT_TRUE(a.run_until(0.75));
    // The only other object: the closest object of its cone iff its box holds the guard.
    EXPECT_EQ(cone_led_by(a.gl(), gd, 1) != no_cone, k.held_at_end);
    EXPECT_EQ(a.gl().box_lists().contains(gd, 1), k.held_at_end);
    lists_twins(s, 1);
  }
}

}  // namespace
}  // namespace kds::testing
