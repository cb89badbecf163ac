// Guards and cones with centre lists ("guards-cones-lists") over convex polytopes, against
// all-pairs contact by contact and bit for bit, audited (the structure's audit: K* of every
// kept cone, every box holding a guard assigned; and every list certificate, in rationals).
//
// The scenes are short on purpose: two polytopes a few thousandths apart, run until just after they touch. A cube has 1 032
// guards (a ball 128) and a facet list holds hundreds of its planes; every plane of one
// body swaps with every plane of the other as they pass (Lemma 10's events, none of which
// changes a K*), about two million swaps per unit of relative travel for two cubes of
// half side 0.5. The member-list variant runs the long polytope scenes
// (polytope_random_test.cpp, polytope_degenerate_test.cpp).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "collision_world_support.hpp"
#include "polytope_scenes.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

constexpr const char* kLists = "guards-cones-lists";
constexpr double kBox = 10;
constexpr int kAuditEvery = 1000;

const auto kCube = ConvexPolytope::cube(0.5);
const auto kOctahedron = ConvexPolytope::octahedron(0.5);

std::vector<Contact> pair_contacts_of(const std::vector<Contact>& c) {
  std::vector<Contact> pairs;
  for (const Contact& x : c)
    if (!x.with_wall) pairs.push_back(x);
  return pairs;
}

// Two cubes of one orientation moving along (1, 1, 0) or (1, 1, 1) towards each other
// meet edge on edge or vertex on vertex, at gap / 2 exactly (the gap is a power of two);
// along x, face on face.
std::vector<Sphere> aligned_cubes(int axes, double gap) {
  const Vec<3> d{1, axes >= 2 ? 1.0 : 0.0, axes >= 3 ? 1.0 : 0.0};
  Vec<3> xa, xb, va, vb;
  for (int k = 0; k < 3; ++k) {
    xa[k] = 5 - d[k] * (0.5 + gap / 2);
    xb[k] = 5 + d[k] * (0.5 + gap / 2);
    va[k] = d[k];
    vb[k] = -d[k];
  }
  return {polytope_body(kCube, xa, va, 1), polytope_body(kCube, xb, vb, 1)};
}

TEST(GuardsConesListsPolytopes, AlignedCubesFaceEdgeAndVertexFirst) {
  const double gap = 1.0 / 512;
  const char* what[] = {"face on face", "edge on edge", "vertex on vertex"};
  for (int axes = 1; axes <= 3; ++axes) {
    const auto contacts = audited_polytope_twins(aligned_cubes(axes, gap), 5 * gap / 8, kBox, kAuditEvery,
                                                 what[axes - 1], kLists);
    const auto pairs = pair_contacts_of(contacts);
    ASSERT_EQ(pairs.size(), 1u) << what[axes - 1];
    EXPECT_TRUE(same_contact(pairs[0], pair_contact(gap / 2, 0, 1))) << describe(pairs[0]);
  }
}

// An octahedron's vertex meets a cube's face head on at t = 1/1024, and a second pair
// touches at time 0 (an octahedron's vertex on a cube's face, approaching).
TEST(GuardsConesListsPolytopes, VertexOnFaceAndContactAtTimeZero) {
  const std::vector<Sphere> head_on = {polytope_body(kCube, {4.5, 5, 5}, {1, 0, 0}, 1),
                                       polytope_body(kOctahedron, {5.5 + 1.0 / 512, 5.125, 4.875}, {-1, 0, 0}, 1)};
  const auto a = pair_contacts_of(audited_polytope_twins(head_on, 5.0 / 4096, kBox, kAuditEvery, "head on", kLists));
  ASSERT_EQ(a.size(), 1u);
  EXPECT_TRUE(same_contact(a[0], pair_contact(1.0 / 1024, 0, 1))) << describe(a[0]);

  const std::vector<Sphere> touching = {polytope_body(kCube, {5, 5, 5}, {0, 0, 0}, 1),
                                        polytope_body(kOctahedron, {5, 5, 6}, {0, 0.25, -1}, 1)};
  const auto b = pair_contacts_of(audited_polytope_twins(touching, 1.0 / 1024, kBox, kAuditEvery, "time zero", kLists));
  ASSERT_GE(b.size(), 1u);
  EXPECT_TRUE(same_contact(b[0], pair_contact(0, 0, 1))) << describe(b[0]);
}

// A cube or an octahedron approaching a cube along a random axis, laterally offset so
// that the faces overlap (a face, or the octahedron's vertex, meets the cube's face), a
// gap below 1/256 and a sideways jitter: a contact at about gap / 2.
TEST(GuardsConesListsPolytopes, RandomApproachesAlongAnAxis) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int round = 0; round < 2; ++round) {
    const bool octahedron = rng() % 2 == 1;
    const int axis = static_cast<int>(rng() % 3);
    const double sign = rng() % 2 == 1 ? 1 : -1;
    const double gap = (0.1 + 0.9 * u(rng)) / 256;
    Vec<3> xa{5, 5, 5}, xb{5, 5, 5}, va{}, vb{};
    xb[axis] += sign * (1 + gap);  // face to face (cube) or face to vertex (octahedron): 0.5 + 0.5
    va[axis] = sign;
    vb[axis] = -sign;
    for (int k = 0; k < 3; ++k)
      if (k != axis) {
        xb[k] += 0.3 * (2 * u(rng) - 1);
        vb[k] = 0.2 * (2 * u(rng) - 1);
      }
    const std::vector<Sphere> bodies = {polytope_body(kCube, xa, va, 1),
                                        polytope_body(octahedron ? kOctahedron : kCube, xb, vb, 1)};
    const std::string what = std::string(octahedron ? "octahedron" : "cube") + " along axis " + std::to_string(axis) +
                             ", gap " + std::to_string(gap);
    const auto pairs = pair_contacts_of(audited_polytope_twins(bodies, 0.6 * gap, kBox, kAuditEvery, what, kLists));
    EXPECT_EQ(pairs.size(), 1u) << what;
  }
}

}  // namespace
}  // namespace kds::testing
