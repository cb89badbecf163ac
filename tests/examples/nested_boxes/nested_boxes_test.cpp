// The nested-boxes scene (examples/common/nested_boxes.hpp): what the benchmark and the
// docs claim of it, checked on generated scenes. The claims are about positions at the
// start, so they are checked exactly, in rationals (every double is one).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "collision_world_support.hpp"
#include "examples/common/nested_boxes.hpp"
#include "kds/number_types.hpp"
#include "structures/box_overlap/box_overlap.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

using examples::NestedBoxes;
using examples::NestedBoxesSpec;

NestedBoxes scene(std::size_t n, std::uint64_t seed) {
  NestedBoxesSpec spec;
  spec.n = n;
  return examples::nested_boxes(spec, seed);
}

Rational squared_distance(const Vec<3>& a, const Vec<3>& b) {
  Rational d2 = 0;
  for (int k = 0; k < 3; ++k) {
    const Rational d = Rational(a[k]) - Rational(b[k]);
    d2 += d * d;
  }
  return d2;
}

double sigma(const NestedBoxes& f) {
  double lo = f.spheres[0].radius, hi = lo;
  for (const Sphere& s : f.spheres) {
    lo = std::min(lo, s.radius);
    hi = std::max(hi, s.radius);
  }
  return hi / lo;
}

TEST(NestedBoxes, BodiesAreDisjointAndTheCommonPointIsInEveryChainBoxButNoBall) {
  const std::uint64_t seed = test_seed();
  for (std::size_t n : {5, 16, 33, 64, 128}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const NestedBoxes f = scene(n, seed);
    ASSERT_EQ(f.spheres.size(), n);
    EXPECT_EQ(f.chain, std::max<std::size_t>(4, static_cast<std::size_t>(std::lround(0.25 * static_cast<double>(n)))));
    for (std::size_t i = 0; i < n; ++i) {
      const Sphere& a = f.spheres[i];
      for (int k = 0; k < 3; ++k) {  // inside the world
        EXPECT_GT(a.position[k] - a.radius, f.box.lo[k]) << "sphere " << i;
        EXPECT_LT(a.position[k] + a.radius, f.box.hi[k]) << "sphere " << i;
      }
      for (std::size_t j = i + 1; j < n; ++j) {
        const Sphere& b = f.spheres[j];
        const Rational reach = Rational(a.radius) + Rational(b.radius);
        EXPECT_GT(squared_distance(a.position, b.position), reach * reach) << "spheres " << i << " and " << j;
      }
    }
    for (std::size_t i = 0; i < f.chain; ++i) {
      const Sphere& c = f.spheres[i];
      for (int k = 0; k < 3; ++k)
        EXPECT_LT(abs(Rational(c.position[k]) - Rational(f.centre[k])), Rational(c.radius)) << "chain ball " << i;
      EXPECT_GT(squared_distance(c.position, f.centre), Rational(c.radius) * Rational(c.radius)) << "chain ball " << i;
      if (i > 0) EXPECT_GE(c.radius, f.spheres[i - 1].radius) << "chain balls smallest first";
    }
  }
}

// The small bodies lie in the cube about p, which lies inside the boxes of every chain
// ball from the second half-level on (spheres 4, 5, ...).
TEST(NestedBoxes, SmallBodiesLieInTheBoxesOfTheChainFromTheSecondHalfLevel) {
  const std::uint64_t seed = test_seed();
  for (std::size_t n : {16, 64, 128}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const NestedBoxes f = scene(n, seed);
    for (std::size_t i = f.chain; i < n; ++i) {
      const Sphere& s = f.spheres[i];
      for (int k = 0; k < 3; ++k)
        EXPECT_LE(std::abs(s.position[k] - f.centre[k]) + s.radius, f.cube_half_side) << "small body " << i;
      for (std::size_t c = 4; c < f.chain; ++c) EXPECT_TRUE(examples::boxes_overlap(s, f.spheres[c])) << i << ", " << c;
    }
  }
}

// The claim of the benchmark: the overlapping box pairs grow as n^2 (about 0.2 n^2).
// Linear growth (fixed sigma) would double them from n to 2n; n^2 quadruples them (the
// threshold 3 leaves room for n = 16, whose small cube has its least size).
TEST(NestedBoxes, OverlappingBoxPairsGrowAsNSquared) {
  const std::uint64_t seed = test_seed();
  std::size_t previous = 0;
  for (std::size_t n : {16, 32, 64, 128}) {
    const NestedBoxes f = scene(n, seed);
    const std::size_t pairs = examples::box_overlap_pairs(f.spheres);
    const auto dn = static_cast<double>(n);
    std::cout << "[ pairs    ] n = " << n << ": " << pairs << " overlapping box pairs, sigma " << sigma(f) << "\n";
    EXPECT_GE(static_cast<double>(pairs), 0.15 * dn * dn) << "n = " << n;
    if (previous > 0) EXPECT_GE(static_cast<double>(pairs), 3 * static_cast<double>(previous)) << "n = " << n;
    previous = pairs;
    // Every two chain boxes overlap (they share p).
    for (std::size_t i = 0; i < f.chain; ++i)
      for (std::size_t j = i + 1; j < f.chain; ++j) EXPECT_TRUE(examples::boxes_overlap(f.spheres[i], f.spheres[j]));
  }
}

TEST(NestedBoxes, SigmaGrowsWithNToThreeOrdersOfMagnitude) {
  const std::uint64_t seed = test_seed();
  double previous = 0;
  for (std::size_t n : {16, 32, 64, 96}) {
    const double s = sigma(scene(n, seed));
    EXPECT_GT(s, previous) << "n = " << n;
    previous = s;
  }
  EXPECT_GE(previous, 1000) << "at n = 96";
}

// Kinetic box overlap, started on the scene, holds the pairs counted by brute force (with
// its boxes, grown by the contact tolerance).
TEST(NestedBoxes, BoxOverlapHoldsThePairsOfTheScene) {
  const NestedBoxes f = scene(64, test_seed());
  WorldRun run(f.spheres, world_settings(f.box, "box-overlap"));
  const auto& bo = dynamic_cast<const BoxOverlap&>(run.world->broad_phase());
  std::size_t pairs = 0;
  for (SphereId i = 0; i < f.spheres.size(); ++i)
    for (SphereId j = i + 1; j < f.spheres.size(); ++j) {
      bool overlap = true;
      for (int k = 0; k < 3; ++k)
        overlap = overlap && std::abs(f.spheres[i].position[k] - f.spheres[j].position[k]) <= bo.half_width(i) + bo.half_width(j);
      pairs += overlap ? 1 : 0;
    }
  EXPECT_EQ(bo.overlaps().size(), pairs);
  EXPECT_EQ(pairs, examples::box_overlap_pairs(f.spheres));
}

// Both structures of the benchmark find every contact of the scene, in order, bit for
// bit with all-pairs, while sigma is 67 (chain balls 67 times the smallest body).
TEST(NestedBoxes, BoxOverlapAndGuardsConesReproduceAllPairs) {
  const std::uint64_t seed = test_seed();
  const NestedBoxes f = scene(24, seed);
  for (const char* bp : {"box-overlap", "guards-cones"}) {
    SCOPED_TRACE(bp);
    const TwinResult r = run_twins(f.spheres, world_settings(f.box, bp), 4, {}, bp);
    EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
    std::size_t pairs = 0;
    for (const Contact& c : r.tested) pairs += c.with_wall ? 0 : 1;
    std::cout << "[ contacts ] " << bp << ": " << pairs << " sphere contacts\n";
    EXPECT_GE(pairs, 4u) << "the scene should collide";
  }
}

TEST(NestedBoxes, BadSpecsAreRefusedWithTheReason) {
  NestedBoxesSpec spec;
  spec.n = 4;
  EXPECT_THROW(examples::nested_boxes(spec, 1), std::invalid_argument);
  spec.n = 96;
  spec.chain_fraction = 0;
  EXPECT_THROW(examples::nested_boxes(spec, 1), std::invalid_argument);
  spec.chain_fraction = 0.25;
  spec.n = 400;  // 100 chain balls: radii beyond 1e6 times the smallest
  try {
    examples::nested_boxes(spec, 1);
    FAIL() << "n = 400 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beyond 1e6"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kds::testing
