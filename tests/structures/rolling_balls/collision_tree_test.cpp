// The static parts of the rolling-ball tree: the collision tree's halves, the node that
// separates two balls, threshold boxes (exactly around their disks), and the planar
// response (planar momentum and energy kept, velocities horizontal).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "structures/rolling_balls/collision_tree.hpp"
#include "structures/rolling_balls/planar_response.hpp"
#include "structures/rolling_balls/threshold_box.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

TEST(CollisionTree, HalvesAreTheSmallerAndLargerBallsAndEveryPairHasOneNode) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (int n : {0, 1, 2, 3, 5, 8, 13, 64, 100}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<double> radii(n);
    for (double& r : radii) r = 1 + static_cast<double>(rng() % 5);  // many equal radii
    const CollisionTree tree(radii);
    ASSERT_EQ(tree.nodes().size(), n >= 2 ? static_cast<std::size_t>(n - 1) : 0u);
    for (std::uint32_t r = 0; r + 1 < tree.size(); ++r) {
      const double a = radii[tree.ball(r)], b = radii[tree.ball(r + 1)];
      EXPECT_TRUE(a < b || (a == b && tree.ball(r) < tree.ball(r + 1))) << "ranks sorted by (radius, id)";
    }
    for (const CollisionTree::Node& v : tree.nodes()) {
      EXPECT_EQ(v.mid - v.lo, (v.hi - v.lo) / 2) << "B_S holds floor(n/2) balls";
      EXPECT_EQ(v.r_min, radii[tree.ball(v.mid)]);
      for (std::uint32_t r = v.lo; r < v.mid; ++r) EXPECT_LE(radii[tree.ball(r)], v.r_min);
    }
    // Every pair is separated at exactly one node, the one separating_node names.
    for (SphereId a = 0; a < static_cast<SphereId>(n); ++a)
      for (SphereId b = a + 1; b < static_cast<SphereId>(n); ++b) {
        int count = 0;
        CollisionTree::NodeId found = 0;
        for (CollisionTree::NodeId v = 0; v < tree.nodes().size(); ++v)
          if ((tree.small_at(v, a) && tree.large_at(v, b)) || (tree.small_at(v, b) && tree.large_at(v, a))) {
            ++count;
            found = v;
          }
        ASSERT_EQ(count, 1) << "balls " << a << ", " << b;
        EXPECT_EQ(tree.separating_node(a, b), found);
      }
    if (n >= 2) EXPECT_EQ(tree.height(), static_cast<int>(std::ceil(std::log2(n))));
  }
}

TEST(ThresholdBox, ContainsItsDiskStrictlyAndIsTight) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-3, 3);
  for (int k = 0; k < 2000; ++k) {
    const double r_min = std::pow(10.0, u(rng));
    const double r = k % 3 == 0 ? r_min : r_min * std::pow(10.0, std::fabs(u(rng)));
    const double h = threshold_half_width(r, r_min);
    EXPECT_GT(Rational(h) * Rational(h), Rational(4) * Rational(r) * Rational(r_min)) << r << " " << r_min;
    EXPECT_LT(h, threshold_disk_radius(r, r_min) * (1 + 1e-8));
  }
  // Equal radii: the disk radius 2 r is a double, and the box is still strictly larger.
  EXPECT_GT(threshold_half_width(1, 1), 2.0);
}

TEST(PlanarResponse, KeepsVelocitiesHorizontalAndPlanarMomentumAndEnergy) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int k = 0; k < 500; ++k) {
    const double ra = std::pow(10.0, 2 * u(rng)), rb = std::pow(10.0, 2 * u(rng));
    const double angle = 3.14159 * u(rng), d = 2 * std::sqrt(ra * rb);
    const Vec<3> xa{0, 0, ra}, xb{d * std::cos(angle), d * std::sin(angle), rb};
    const Vec<3> va{5 * u(rng), 5 * u(rng), 0}, vb{5 * u(rng), 5 * u(rng), 0};
    const double ma = 1 + std::fabs(u(rng)), mb = 1 + 3 * std::fabs(u(rng));
    const auto [ua, ub] = planar_collision_response(xa, va, ma, xb, vb, mb);
    EXPECT_EQ(ua[2], 0.0);
    EXPECT_EQ(ub[2], 0.0);
    for (int a = 0; a < 2; ++a) EXPECT_NEAR(ma * ua[a] + mb * ub[a], ma * va[a] + mb * vb[a], 1e-12 * 10 * (ma + mb));
    const auto energy = [](const Vec<3>& v, double m) { return 0.5 * m * (v[0] * v[0] + v[1] * v[1]); };
    EXPECT_NEAR(energy(ua, ma) + energy(ub, mb), energy(va, ma) + energy(vb, mb), 1e-10 * (1 + energy(va, ma) + energy(vb, mb)));
    // Not approaching afterwards, along the 3D line of centres either.
    double after = 0;
    for (int a = 0; a < 3; ++a) after += (ua[a] - ub[a]) * (xb[a] - xa[a]);
    EXPECT_LE(after, 1e-9 * d * 20);
  }
}

}  // namespace
}  // namespace kds::testing
