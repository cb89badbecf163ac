// The frame-based baseline: exact contact times within a frame, gravity and walls, and
// the collision it misses at a large dt (a small fast sphere between two others).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision_world_support.hpp"
#include "kds/errors.hpp"
#include "structures/collision/baseline/frame_baseline.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

const Box3 kBox{{-100, -100, -100}, {100, 100, 100}};

TEST(FrameBaseline, HeadOnPairAtItsExactTime) {
  FrameBaselineSettings settings{kBox, 1.0 / 60};
  FrameBaseline b(settings, {ball({-10, 0, 0}, {5, 0, 0}, 1), ball({10, 0, 0}, {-5, 0, 0}, 1)});
  b.run_until(2.5);
  ASSERT_EQ(b.contacts().size(), 1u);
  EXPECT_NEAR(b.contacts()[0].time, 1.8, 1e-12);  // the gap 18 closes at 10 per second
  EXPECT_EQ(b.contacts()[0].a, 0u);
  EXPECT_EQ(b.contacts()[0].b, 1u);
  EXPECT_NEAR(b.state(0).velocity[0], -5, 1e-12);  // equal masses swap velocities
  EXPECT_NEAR(b.state(1).velocity[0], 5, 1e-12);
}

TEST(FrameBaseline, BouncesOffTheFloorUnderGravity) {
  FrameBaselineSettings settings{{{0, 0, 0}, {10, 10, 10}}, 0.01, {0, 0, -10}};
  FrameBaseline b(settings, {ball({5, 5, 6}, {0, 0, 0}, 1)});
  b.run_until(1.5);
  ASSERT_EQ(b.contacts().size(), 1u);
  EXPECT_TRUE(b.contacts()[0].with_wall);
  EXPECT_EQ(b.contacts()[0].wall, Wall::z_lo);
  EXPECT_NEAR(b.contacts()[0].time, 1.0, 1e-12);  // 6 - 5 t^2 = 1
  EXPECT_GT(b.state(0).velocity[2], 0);
}

TEST(FrameBaseline, MissesTheSecondCollisionOfAFrameAtLargeDt) {
  // A light fast sphere S between B (ahead) and C (behind). The exact sequence: S hits B
  // at t = 0.089, bounces back and hits C at about t = 0.267.
  const std::vector<Sphere> scene = {ball({0, 0, 0}, {100, 0, 0}, 0.1, 1e-3), ball({10, 0, 0}, {0, 0, 0}, 1),
                                     ball({-10, 0, 0}, {0, 0, 0}, 1)};
  const double back = 100 * (1 - 1e-3) / (1 + 1e-3);  // S's speed after the elastic impulse
  const double second = 0.089 + 17.8 / back;          // from x = 8.9 to -8.9

  FrameBaseline fine({kBox, 1.0 / 600}, scene);
  fine.run_until(0.5);
  ASSERT_GE(fine.contacts().size(), 2u);
  EXPECT_EQ(fine.contacts()[0].b, 1u);
  EXPECT_NEAR(fine.contacts()[0].time, 0.089, 1e-12);
  EXPECT_EQ(fine.contacts()[1].a, 0u);
  EXPECT_EQ(fine.contacts()[1].b, 2u);
  EXPECT_NEAR(fine.contacts()[1].time, second, 1e-9);

  FrameBaseline coarse({kBox, 1.0}, scene);
  coarse.run_until(1.0);
  ASSERT_EQ(coarse.contacts().size(), 1u);  // S tunnels through C within the first frame
  EXPECT_EQ(coarse.contacts()[0].b, 1u);
  EXPECT_LT(coarse.state(0).position[0], -11);  // beyond C, without a contact
}

TEST(FrameBaseline, KeepsEnergyInAnElasticGas) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Sphere> s;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 8; ++k)
        s.push_back(ball({-70.0 + 20 * i, -70.0 + 20 * j, -70.0 + 20 * k},
                         {60 * u(rng) - 30, 60 * u(rng) - 30, 60 * u(rng) - 30}, 1 + 5 * u(rng), 0.5 + u(rng)));
  auto energy = [&](const FrameBaseline& b) {
    double e = 0;
    for (SphereId i = 0; i < b.size(); ++i) {
      const Vec<3>& v = b.state(i).velocity;
      e += 0.5 * s[i].mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    return e;
  };
  FrameBaseline b({kBox, 1.0 / 60}, s);
  const double e0 = energy(b);
  b.run_until(5);
  EXPECT_GT(b.counters().sphere_contacts, 50u);
  EXPECT_GT(b.counters().wall_contacts, 50u);
  EXPECT_NEAR(energy(b) / e0, 1.0, 1e-12);
}

TEST(FrameBaseline, RejectsBadInput) {
  Sphere unknown = ball({0, 0, 0}, {0, 0, 0}, 1);
  unknown.max_acceleration = 10;
  EXPECT_THROW(FrameBaseline({kBox}, {unknown}), InvalidInput);
  EXPECT_THROW(FrameBaseline({kBox}, {ball({0, 0, 0}, {}, 1), ball({1, 0, 0}, {}, 1)}), InvalidInput);
  EXPECT_THROW(FrameBaseline({kBox, 0.0}, {}), InvalidInput);
}

}  // namespace
}  // namespace kds::testing
