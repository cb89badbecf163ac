// validate_spheres: exact "overlap" (touching allowed), every per-sphere problem named,
// and the hierarchical-grid pair search against an all-pairs exact check.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <random>

#include "kds/errors.hpp"
#include "kds/number_types.hpp"
#include "structures/collision/io/validate_spheres.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

Sphere ball(Vec<3> x, double r) {
  Sphere s;
  s.position = x;
  s.radius = r;
  return s;
}

std::string error_of(const std::vector<Sphere>& spheres, const Box3& box) {
  try {
    validate_spheres(spheres, box);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}

const Box3 kBox{{0, 0, 0}, {10, 10, 10}};

TEST(StrictOverlap, TouchingIsAllowedAnUlpCloserIsNot) {
  EXPECT_FALSE(strictly_overlapping({0, 0, 0}, 1, {2, 0, 0}, 1));
  EXPECT_TRUE(strictly_overlapping({0, 0, 0}, 1, {std::nextafter(2.0, 0.0), 0, 0}, 1));
  // 0.1 + 0.2 exceeds 0.3 in the doubles' exact values: these overlap, by ~3e-17.
  EXPECT_TRUE(strictly_overlapping({0, 0, 0}, 0.1, {0.3, 0, 0}, 0.2));
  // The doubles nearest 0.3 and 0.4 are at distance slightly above 0.5: apart.
  EXPECT_FALSE(strictly_overlapping({0, 0, 0}, 0.25, {0.3, 0.4, 0}, 0.25));
  EXPECT_TRUE(strictly_overlapping({0, 0, 0}, 0.25, {0.3, 0.4, 0}, std::nextafter(0.25, 1.0)));
}

TEST(InsideBox, TouchingAWallIsInside) {
  EXPECT_TRUE(inside_box({1, 5, 9}, 1, kBox));
  EXPECT_FALSE(inside_box({std::nextafter(1.0, 0.0), 5, 5}, 1, kBox));
  EXPECT_FALSE(inside_box({5, 5, std::nextafter(9.0, 10.0)}, 1, kBox));
}

TEST(InsideBox, AgreesWithExactArithmeticNearTheWallsAtEveryScale) {
  // x - r - lo and hi - r - x decided in doubles unless they round to zero: centres
  // a few ulps either side of touching, and random ones, from subnormal to 1e50 scales,
  // against rationals.
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("KDS_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  auto step = [](double x, int ulps) {
    for (; ulps > 0; --ulps) x = std::nextafter(x, HUGE_VAL);
    for (; ulps < 0; ++ulps) x = std::nextafter(x, -HUGE_VAL);
    return x;
  };
  int checked = 0, touching = 0;
  for (double scale : {0x1p-1070, 1e-310, 1e-300, 1e-200, 1e-20, 1.0, 1e20, 1e45}) {
    for (int round = 0; round < 300; ++round) {
      const double lo = (2 * unit() - 1) * scale, r = (0.5 + unit()) * scale;
      const double hi = lo + 8 * scale;
      const double start = round % 3 == 0 ? lo + (0.1 + 6 * unit()) * scale : lo + r;
      const double x = step(start, static_cast<int>(rng() % 7) - 3);
      if (!(r > 0) || !(hi > lo)) continue;
      const Rational X(x), R(r), L(lo), H(hi);
      const bool exact = X - R - L >= 0 && H - R - X >= 0;
      // The other axes hold the centre at 0 with room to spare.
      const Box3 box{{lo, -4 * scale, -4 * scale}, {hi, 4 * scale, 4 * scale}};
      ASSERT_EQ(inside_box({x, 0, 0}, r, box), exact) << "x " << x << ", r " << r << ", lo " << lo << ", hi " << hi;
      ++checked;
      touching += X - R - L == 0;
    }
  }
  EXPECT_GT(checked, 1000);
  std::cout << checked << " checked, " << touching << " touching exactly\n";
}

TEST(ValidateSpheres, PackedLatticeTouchingEverythingIsValid) {
  // Unit spheres on an integer lattice of spacing 2 filling the box exactly: every
  // neighbour and every wall is touched, nothing overlaps.
  std::vector<Sphere> s;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 5; ++k) s.push_back(ball({1.0 + 2 * i, 1.0 + 2 * j, 1.0 + 2 * k}, 1));
  EXPECT_EQ(error_of(s, kBox), "");
  s[62].position[1] = std::nextafter(s[62].position[1], 0.0);  // one ulp towards its neighbour 57 (y - 2)
  EXPECT_EQ(error_of(s, kBox).rfind("spheres 57 and 62 overlap", 0), 0u) << error_of(s, kBox);
}

TEST(ValidateSpheres, EachProblemNamesTheSphereAndField) {
  const std::vector<Sphere> good = {ball({2, 2, 2}, 1), ball({5, 5, 5}, 1), ball({8, 8, 8}, 1)};
  auto with = [&](auto change) {
    auto s = good;
    change(s[1]);
    return error_of(s, kBox);
  };
  EXPECT_EQ(with([](Sphere& s) { s.position[1] = NAN; }), "sphere 1, position.y: is NaN");
  EXPECT_EQ(with([](Sphere& s) { s.velocity[2] = -INFINITY; }), "sphere 1, velocity.z: is -infinity");
  EXPECT_EQ(with([](Sphere& s) { s.radius = 0; }), "sphere 1, radius: must be > 0, got 0");
  EXPECT_EQ(with([](Sphere& s) { s.radius = NAN; }), "sphere 1, radius: is NaN");
  EXPECT_EQ(with([](Sphere& s) { s.mass = -1; }), "sphere 1, mass: must be > 0, got -1");
  EXPECT_EQ(with([](Sphere& s) { s.max_acceleration = -0.5; }), "sphere 1, max_acceleration: must be >= 0, got -0.5");
  EXPECT_EQ(with([](Sphere& s) { s.position[0] = 0.5; }),
            "sphere 1, position: lies outside the box: x - radius = -0.5 < x0 = 0");
  EXPECT_EQ(with([](Sphere& s) { s.position = {7, 7, 7}; }).rfind("spheres 1 and 2 overlap: distance between centres", 0),
            0u);
  EXPECT_EQ(error_of(good, {{0, 0, 0}, {10, NAN, 10}}), "box corner y1 is NaN");
}

/// All pairs, exactly: the reference for the grid search.
bool any_overlap(const std::vector<Sphere>& s) {
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t j = i + 1; j < s.size(); ++j)
      if (strictly_overlapping(s[i].position, s[i].radius, s[j].position, s[j].radius)) return true;
  return false;
}

TEST(ValidateSpheres, GridSearchAgreesWithAllPairs) {
  const std::uint64_t seed = test_seed();
  // Radii: equal, the paper's [0.1, 10], and a few giants among dust.
  const std::vector<std::pair<double, double>> radius_ranges = {{1, 1}, {0.1, 10}, {0.01, 0.02}};
  int overlapping = 0, clean = 0;
  for (int round = 0; round < 60; ++round) {
    SCOPED_TRACE("KDS_TEST_SEED=" + std::to_string(seed) + ", round " + std::to_string(round));
    std::mt19937_64 rng(seed + round);
    const auto [rlo, rhi] = radius_ranges[round % radius_ranges.size()];
    std::uniform_real_distribution<double> radius(rlo, rhi);
    const Box3 box{{-100, -100, -100}, {100, 100, 100}};
    std::vector<Sphere> s;
    const int n = 50 + round * 5;
    for (int i = 0; i < n; ++i) {
      const double r = round % 3 == 2 && i % 17 == 0 ? 30.0 : radius(rng);
      std::uniform_real_distribution<double> at(-100 + r, 100 - r);
      s.push_back(ball({at(rng), at(rng), at(rng)}, r));
    }
    // Half of the rounds: move random spheres apart until no pair overlaps (brute force).
    if (round % 2 == 0) {
      for (std::size_t i = 0; i < s.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (strictly_overlapping(s[i].position, s[i].radius, s[j].position, s[j].radius)) {
            s.erase(s.begin() + static_cast<std::ptrdiff_t>(i--));
            break;
          }
    }
    const bool expected = any_overlap(s);
    const auto problem = find_sphere_problem(s, box);
    ASSERT_EQ(problem.has_value(), expected);
    if (problem) {
      ASSERT_TRUE(problem->other.has_value());
      const Sphere &a = s[problem->sphere], &b = s[*problem->other];
      EXPECT_TRUE(strictly_overlapping(a.position, a.radius, b.position, b.radius));
      EXPECT_LT(problem->sphere, *problem->other);
      ++overlapping;
    } else {
      ++clean;
    }
  }
  EXPECT_GT(overlapping, 5);
  EXPECT_GT(clean, 5);
}

TEST(ValidateSpheres, LargeSceneIsAccepted) {
  // 2e5 spheres on a jittered lattice (radii 0.05 to 1, spacing 2.1): no overlap. The time
  // is printed, not asserted: timed unit tests fail on a loaded machine, and speed
  // targets belong in bench/.
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> radius(0.05, 1), jitter(-0.05, 0.05);
  const int side = 59;  // 59^3 ~ 2.05e5
  const Box3 box{{0, 0, 0}, {2.1 * side, 2.1 * side, 2.1 * side}};
  std::vector<Sphere> s;
  for (int i = 0; i < side; ++i)
    for (int j = 0; j < side; ++j)
      for (int k = 0; k < side; ++k)
        s.push_back(ball({2.1 * i + 1.05 + jitter(rng), 2.1 * j + 1.05 + jitter(rng), 2.1 * k + 1.05 + jitter(rng)},
                         radius(rng)));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(error_of(s, box), "");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ timing   ] validate_spheres on " << s.size() << " spheres: " << seconds << " s\n";
}

}  // namespace
}  // namespace kds::testing
