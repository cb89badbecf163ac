// The rolling tree (both layouts of its sorted lists) against its brute-force twin,
// all-pairs, on random scenes of balls rolling on the floor: the same contacts, at the
// same times to the last bit, in the same order. Small scenes are audited after every
// event (the sorted lists, the box memberships against exact positions, the world).
#include <gtest/gtest.h>

#include <random>

#include "rolling_support.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

struct RandomCase {
  const char* name;
  RollingSpec spec;
  double restitution;
  Vec<3> gravity;  ///< in the plane (a tilted table)
  double t_end;
};

class RollingTwins : public ::testing::TestWithParam<RandomCase> {};

TEST_P(RollingTwins, TreeReproducesAllPairsExactly) {
  const RandomCase& c = GetParam();
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (int scene = 0; scene < 2; ++scene) {
    const auto balls = random_rolling_scene(rng, c.spec);
    for (const std::string& layout : rolling_layouts()) {
      SCOPED_TRACE(layout + ", scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
      const TwinResult r = run_rolling_twins(balls, table(c.spec.side), layout, c.t_end, {}, c.restitution, c.gravity);
      EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
      EXPECT_GT(pair_contacts(r.tested), 5u) << "the scene should collide";
      std::cout << "[ scene    ] " << c.name << " " << layout << " #" << scene << ": " << r.tested.size()
                << " contacts (" << pair_contacts(r.tested) << " pairs)\n";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Scenes, RollingTwins,
    ::testing::Values(RandomCase{"n30_equal", {30, 30, 1, 1, 10, 1, 1}, 1.0, {0, 0, 0}, 8},
                      RandomCase{"n80_spread10", {80, 60, 0.5, 5, 10, 1, 4}, 1.0, {0, 0, 0}, 3},
                      // radii over three orders of magnitude
                      RandomCase{"n120_spread1000", {120, 200, 0.02, 20, 15, 1, 1}, 1.0, {0, 0, 0}, 4},
                      RandomCase{"n60_inelastic", {60, 40, 0.3, 3, 10, 1, 5}, 0.7, {0, 0, 0}, 3},
                      RandomCase{"n40_tilted_table", {40, 40, 0.3, 3, 8, 1, 2}, 1.0, {3, -2, 0}, 2}),
    [](const ::testing::TestParamInfo<RandomCase>& i) { return std::string(i.param.name); });

TEST(RollingAudit, SmallRandomScenesPassEveryAudit) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  SimulatorSettings audited;
  audited.audit = true;
  for (int scene = 0; scene < 3; ++scene) {
    const RollingSpec spec{10, 12, scene % 2 == 0 ? 0.3 : 0.05, scene % 2 == 0 ? 1.5 : 3, 6, 1, 3};
    const auto balls = random_rolling_scene(rng, spec);
    for (const std::string& layout : rolling_layouts()) {
      SCOPED_TRACE(layout + ", scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
      TwinResult r;
      ASSERT_NO_THROW(r = run_rolling_twins(balls, table(spec.side), layout, 2.5, audited));
      EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
      EXPECT_GT(pair_contacts(r.tested), 0u);
    }
  }
}

// The memberships change while the scene runs (points enter and leave boxes), and the
// certificates the broad phase hands the world are far fewer than all pairs.
TEST(RollingTree, MembershipsChangeAndStaySmall) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const RollingSpec spec{120, 100, 0.2, 2, 10, 1, 1};
  const auto balls = random_rolling_scene(rng, spec);
  for (const std::string& layout : rolling_layouts()) {
    SCOPED_TRACE(layout);
    RollingRun run(balls, world_settings(table(spec.side), layout));
    ASSERT_TRUE(run.run_until(1.5));
    const RollingTree& tree = run.tree();
    EXPECT_GT(tree.membership_changes(), 50u);
    EXPECT_GT(tree.swaps(), tree.membership_changes());
    EXPECT_LT(tree.memberships(), 120u * 119 / 2 / 10) << "a small fraction of all pairs";
    std::cout << "[ counts   ] " << layout << ": " << tree.sorted_lists() << " lists, " << tree.list_entries()
              << " entries, " << tree.memberships() << " memberships, " << tree.swaps() << " swaps, "
              << tree.membership_changes() << " membership changes, " << run.world->sphere_contacts()
              << " ball contacts\n";
  }
}

}  // namespace
}  // namespace kds::testing
