// Guards and cones over convex polytopes against all-pairs on degenerate scenes built on
// purpose, contact by contact and bit for bit, the structure audited: a small polytope
// grazing a large one's face and edge, vertex on face at exact times, simultaneous
// contacts, contacts at time 0.
#include <gtest/gtest.h>

#include "collision_world_support.hpp"
#include "polytope_scenes.hpp"

namespace kds::testing {
namespace {

std::size_t pair_contacts(const std::vector<Contact>& c) {
  std::size_t n = 0;
  for (const Contact& x : c) n += !x.with_wall;
  return n;
}

// ---- degenerate scenes, audited every 5 events and at the end

const auto kBigCube = ConvexPolytope::cube(4);  // faces x, y, z = centre +- 4

TEST(GuardsConesPolytopes, SmallPolytopesGrazingALargeFace) {
  const auto small = ConvexPolytope::cube(0.25), octa = ConvexPolytope::octahedron(0.25);
  const std::vector<Sphere> bodies = {
      polytope_body(kBigCube, {20, 20, 20}, {}, 1000),
      // A small cube sliding face on face along x = 24 (touching, never a contact).
      polytope_body(small, {24.25, 17, 18}, {0, 4, 0}),
      // An octahedron whose vertex slides exactly in the face plane z = 24.
      polytope_body(octa, {18, 17.5, 24.25}, {2, 2, 0}),
      // An octahedron whose vertex meets the face y = 16 on a shallow slope (1 in 64).
      polytope_body(octa, {22, 16 - 0.25 - 0.015625, 22}, {-4, 0.0625, 0}),
      // An octahedron whose vertex slides along the edge x = 16, z = 16 of the large cube.
      polytope_body(octa, {16, 17, 16 - 0.25}, {0, 4, 0})};
  const auto contacts = audited_polytope_twins(bodies, 0.4, 40, 5, "grazing");
  ASSERT_GE(pair_contacts(contacts), 1u);
  for (const Contact& c : contacts)
    if (!c.with_wall) EXPECT_TRUE(c.a == 0 && c.b == 3) << describe(c);  // only the shallow one is a contact
}

TEST(GuardsConesPolytopes, VertexOnFaceAtAnExactTime) {
  // An octahedron's vertex hits the large cube's face x = 24 head on at t = 0.25, and a
  // tetrahedron's vertex its face z = 16 from below at t = 0.5.
  const auto tetra = std::make_shared<const ConvexPolytope>(
      std::vector<Vec<3>>{{0.5, 0.5, 0.5}, {0.5, -0.5, -0.5}, {-0.5, 0.5, -0.5}, {-0.5, -0.5, 0.5}}, "tetrahedron");
  const std::vector<Sphere> bodies = {polytope_body(kBigCube, {20, 20, 20}, {}, 1000),
                                      polytope_body(ConvexPolytope::octahedron(0.5), {25, 21.25, 19.5}, {-2, 0, 0}),
                                      polytope_body(tetra, {18.5, 22, 16 - 0.5 - 1}, {0, 0, 2})};
  const auto contacts = audited_polytope_twins(bodies, 0.6, 40, 5, "vertex on face");
  ASSERT_GE(contacts.size(), 2u);
  EXPECT_TRUE(same_contact(contacts[0], pair_contact(0.25, 0, 1))) << describe(contacts[0]);
  EXPECT_TRUE(same_contact(contacts[1], pair_contact(0.5, 0, 2))) << describe(contacts[1]);
}

TEST(GuardsConesPolytopes, SimultaneousContactsOnALargeCube) {
  // Four small dice meet the large cube's faces at t = 0.25 from four sides, and two small
  // cubes meet each other then too: tie-key order, as all-pairs.
  const auto c = ConvexPolytope::cube(0.25), o = ConvexPolytope::octahedron(0.25);
  const std::vector<Sphere> bodies = {
      polytope_body(kBigCube, {20, 20, 20}, {}, 1000), polytope_body(c, {24.75, 20, 20}, {-2, 0, 0}),
      polytope_body(c, {15.25, 21, 20.5}, {2, 0, 0}),  polytope_body(o, {19, 24.75, 20}, {0, -2, 0}),
      polytope_body(o, {20.5, 21, 15.25}, {0, 0, 2}),  polytope_body(c, {32, 32, 31}, {0, 0, 1}),
      polytope_body(c, {32, 32, 32}, {0, 0, -1})};
  const auto contacts = audited_polytope_twins(bodies, 0.3, 40, 5, "simultaneous");
  ASSERT_GE(contacts.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(contacts[i].time, 0.25) << describe(contacts[i]);
  EXPECT_TRUE(same_contact(contacts[0], pair_contact(0.25, 0, 1))) << describe(contacts[0]);
}

TEST(GuardsConesPolytopes, ContactsAtTimeZero) {
  // Touching the large cube at the start: one approaching (a contact at 0), one sliding,
  // one leaving; and two small octahedra touching vertex to vertex, approaching.
  const auto c = ConvexPolytope::cube(0.25), o = ConvexPolytope::octahedron(0.5);
  const std::vector<Sphere> bodies = {
      polytope_body(kBigCube, {20, 20, 20}, {}, 1000), polytope_body(c, {24.25, 20, 20}, {-1, 0, 0}),
      polytope_body(c, {20, 24.25, 20}, {1, 0, 0}),    polytope_body(c, {20, 20, 15.75}, {0, 0, -1}),
      polytope_body(o, {32, 32, 32}, {0, 0, 0}),       polytope_body(o, {33, 32, 32}, {-0.5, 0, 0})};
  const auto contacts = audited_polytope_twins(bodies, 0.1, 40, 5, "time zero");
  ASSERT_GE(contacts.size(), 2u);
  EXPECT_TRUE(same_contact(contacts[0], pair_contact(0, 0, 1))) << describe(contacts[0]);
  EXPECT_TRUE(same_contact(contacts[1], pair_contact(0, 4, 5))) << describe(contacts[1]);
}

}  // namespace
}  // namespace kds::testing
