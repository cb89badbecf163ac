// Guards and cones with centre lists ("guards-cones-lists") on degenerate scenes built on
// purpose, audited every few events and against all-pairs: simultaneous contacts,
// contacts at time 0, small balls grazing a large one; and what it refuses. Centres on
// facets and guards on box sides: lists_facet_test.cpp. The scenes follow those of the
// member-list variant (degenerate_twin_test.cpp, grazing_test.cpp), shorter.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision_world_support.hpp"
#include "guards_scenes.hpp"
#include "lists_scenes.hpp"
#include "structures/guards_cones/guards_cones_lists.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

// Two pairs meeting and a sphere hitting a wall, all at t = 0.125 exactly (the scene of
// the member-list variant runs to t = 4.5: too many facet-list swaps for a unit test), and
// five pairs touching at time 0 (to t = 0.1).
TEST(GuardsConesListsDegenerate, SimultaneousContacts) {
  const auto c = lists_twins({ball({20, 50, 50}, {1, 0, 0}), ball({22.25, 50, 50}, {-1, 0, 0}),
                              ball({20, 20, 50}, {1, 0, 0}), ball({22.25, 20, 50}, {-1, 0, 0}),
                              ball({98.875, 80, 50}, {1, 0, 0})},
                             0.25);
  ASSERT_EQ(c.size(), 3u);
  for (const Contact& k : c) EXPECT_EQ(k.time, 0.125);
}

TEST(GuardsConesListsDegenerate, ContactsAtTimeZero) {
  const auto c = lists_twins(touching_at_start_scene(), 0.1);
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c[0].time, 0.0);
}

// A ball of radius 0.05 passing a ball of radius 20 (tangent, shallow), and a ring of
// small balls grazing it from random directions at t = 1.
TEST(GuardsConesListsDegenerate, SmallBallsGrazingALargeOne) {
  const Sphere big = ball({50, 50, 50}, {0, 0, 0}, 20, 1000);
  lists_twins({big, ball({49, 70.05, 50}, {1, 0, 0}, 0.05)}, 2);
  const auto shallow = lists_twins({big, ball({49, 70.04, 50}, {1, 0, 0}, 0.05)}, 2);
  ASSERT_FALSE(shallow.empty());
  EXPECT_NEAR(shallow[0].time, 1 - std::sqrt(20.05 * 20.05 - 20.04 * 20.04), 1e-9);
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const std::vector<Sphere> ring = grazing_ring(big, rng, 5);
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto c = lists_twins(ring, 1.25);
  std::size_t with_big = 0;
  for (const Contact& k : c) with_big += !k.with_wall && k.a == 0;
  EXPECT_GE(with_big, 1u);  // the shallow passes (the tangent ones never approach)
}

TEST(GuardsConesListsInput, UnknownTrajectoriesAreRefusedNamingTheSphere) {
  struct NoProbe final : TrajectoryProbe {
    SphereState state(SphereId, double) override { return {}; }
    void set_velocity(SphereId, double, const Vec<3>&) override {}
  };
  std::vector<Sphere> s{ball({5, 5, 5}, {1, 0, 0}), ball({10, 5, 5}, {0, 0, 0}), ball({15, 5, 5}, {0, 1, 0})};
  s[1].max_acceleration = 2;
  auto st = world_settings(cube(20), kLists);
  NoProbe probe;
  st.probe = &probe;
  Simulator sim;
  EXPECT_TRUE(message_has(invalid_input_message([&] { CollisionWorld world(sim, st, s); }),
                          {"sphere 1", "unknown trajectory", "guards-cones-lists"}));
}

}  // namespace
}  // namespace kds::testing
