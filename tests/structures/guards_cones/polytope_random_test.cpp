// Guards and cones over convex polytopes against all-pairs on random scenes, contact by
// contact and bit for bit, the structure audited (memberships, cones, closest objects, in
// exact rationals): cubes, octahedra and tetrahedra on collision courses, and sizes over
// two orders of magnitude. (polytope_degenerate_test.cpp: scenes built on purpose.)
#include <gtest/gtest.h>

#include <random>

#include "collision_world_support.hpp"
#include "polytope_scenes.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

// ---- random fields
//
// Each test asks for a few sphere-pair contacts, so that the twins compare more than
// walls. A random field can just miss (seed 3's mixed sizes: 7 of 8 small dice fell
// beside the large cube, 1 pair), so a field is drawn from the same stream until the
// all-pairs reference has the contacts asked for (reference_pair_contacts), at most 100
// draws; a first draw that has them is the field these tests always used.

TEST(GuardsConesPolytopes, RandomCubesAndOctahedra) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (int scene = 0; scene < 2; ++scene) {
    const std::string what = "cubes and octahedra, seed " + std::to_string(seed) + ", scene " + std::to_string(scene);
    const auto dice = regular_dice(1 + 0.5 * scene);
    std::vector<Sphere> bodies;
    for (int draw = 0; bodies.empty() || reference_pair_contacts(bodies, 0.3, 16) < 2; ++draw) {
      ASSERT_LT(draw, 100) << what << ": no field with 2 pair contacts";
      bodies = colliding_pairs(rng, {dice[0], dice[2]}, 3, 16, 4);
    }
    EXPECT_GE(sphere_pair_contacts(audited_polytope_twins(bodies, 0.3, 16, 200, what)), 2u) << what;
  }
}

TEST(GuardsConesPolytopes, RandomTetrahedraCubesAndOctahedra) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const std::string what = "tetrahedra among dice, seed " + std::to_string(seed);
  std::vector<Sphere> bodies;
  for (int draw = 0; bodies.empty() || reference_pair_contacts(bodies, 0.25, 16) < 1; ++draw) {
    ASSERT_LT(draw, 100) << what << ": no field with a pair contact";
    bodies = colliding_pairs(rng, regular_dice(1.2), 2, 16, 4);
  }
  EXPECT_GE(sphere_pair_contacts(audited_polytope_twins(bodies, 0.25, 16, 200, what)), 1u) << what;
}

// Two large dice (a cube of half side 20, an octahedron of circumradius 20) among small
// ones (circumradius 0.35 to 1.2): inner radii 100 times apart; sizes over two orders
// of magnitude, the small ones falling on the large ones' faces, edges and corners.
TEST(GuardsConesPolytopes, MixedSizesOverTwoOrdersOfMagnitude) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const std::string what = "mixed sizes, seed " + std::to_string(seed);
  const double top = 25 + 20;  // the large ones' top faces and vertex
  const std::vector<Sphere> large = {polytope_body(ConvexPolytope::cube(20), {22, 40, 25}, {0, 0, 0}, 1e4),
                                     polytope_body(ConvexPolytope::octahedron(20), {66, 40, 25}, {0, 0, 0}, 1e4)};
  std::vector<std::shared_ptr<const ConvexPolytope>> small = {ConvexPolytope::cube(0.2), ConvexPolytope::octahedron(0.5),
                                                              ConvexPolytope::cube(1.2 / std::sqrt(3.0)),
                                                              ConvexPolytope::octahedron(1.2)};
  std::vector<Sphere> bodies;
  for (int draw = 0; bodies.empty() || reference_pair_contacts(bodies, 0.5, 90) < 2; ++draw) {
    ASSERT_LT(draw, 100) << what << ": no field with 2 pair contacts";
    bodies = large;
    for (int i = 0; bodies.size() < 10 && i < 10000; ++i) {
      const auto& shape = small[bodies.size() % small.size()];
      const double r = shape->bounding_radius();
      // Just above the large ones, falling on them.
      const Vec<3> x{4 + 80 * u(rng), 22 + 36 * u(rng), top + r + 0.5 * u(rng)};
      bool free = true;  // the small ones lie above the large ones' top plane z = 45
      for (std::size_t j = 2; j < bodies.size(); ++j)
        free = free && norm3(sub(bodies[j].position, x)) > bodies[j].radius + r;
      if (free) bodies.push_back(polytope_body(shape, x, {u(rng) - 0.5, u(rng) - 0.5, -4 - 4 * u(rng)}, r * r * r));
    }
    ASSERT_EQ(bodies.size(), 10u);
  }
  EXPECT_GE(sphere_pair_contacts(audited_polytope_twins(bodies, 0.5, 90, 200, what)), 2u) << what;
}

}  // namespace
}  // namespace kds::testing
