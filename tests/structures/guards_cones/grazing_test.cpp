// Guards and cones audited after every event and against all-pairs: small balls grazing a
// large one (tangent, shallow, from many directions), and a flight-plan jump.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision_world_support.hpp"
#include "guards_scenes.hpp"
#include "structures/guards_cones/guards_cones.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {


// A ball of radius 0.05 passes a ball of radius 20: exactly tangent to it at one instant
// (its path at distance 20.05 from the centre), just inside (a shallow collision), and a
// ring of small balls grazing it from many directions.
TEST(GuardsConesDegenerate, SmallBallsGrazingALargeOne) {
  const Sphere big = ball({50, 50, 50}, {0, 0, 0}, 20, 1000);
  const auto tangent = guards_twins({big, ball({20, 70.05, 50}, {1, 0, 0}, 0.05)}, 40);
  const auto shallow = guards_twins({big, ball({20, 70.04, 50}, {1, 0, 0}, 0.05)}, 40);
  ASSERT_FALSE(shallow.empty());
  EXPECT_FALSE(shallow[0].with_wall);
  EXPECT_NEAR(shallow[0].time, 30 - std::sqrt(20.05 * 20.05 - 20.04 * 20.04), 1e-9);
  (void)tangent;  // tangent, never approaching: whatever all-pairs declares, guards-cones agrees
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const std::vector<Sphere> ring = grazing_ring(big, rng, 8);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto c = guards_twins(ring, 1.5);
  std::size_t with_big = 0;
  for (const Contact& k : c) with_big += !k.with_wall && k.a == 0;
  EXPECT_GE(with_big, 2u);  // the shallow passes (the tangent ones never approach)
}

TEST(GuardsConesFlightPlan, AJumpIsRepairedAtOnce) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const SceneSpec spec{8, 20, 0.3, 2, 4, 1, 1};
  const auto spheres = random_scene(rng, spec);
  SimulatorSettings audited;
  audited.audit = true;
  WorldRun w(spheres, world_settings(cube(spec.box), "guards-cones"), audited);
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
      w.sim->bodies().set_motion(w.world->body(0), Motion<3>::linear(0.5, {x, y, 10}, {1, -1, 0}));
      ASSERT_NO_THROW(w.run_until(1.5));
      EXPECT_GT(dynamic_cast<const GuardsCones&>(w.world->broad_phase()).swaps(), 0u);
      EXPECT_GT(w.sim->statistics().audits, 10u);
      return;
    }
  FAIL() << "no free spot found for the jump (seed " << seed << ")";
}

}  // namespace
}  // namespace kds::testing
