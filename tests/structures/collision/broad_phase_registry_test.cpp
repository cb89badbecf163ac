// Broad phases by name: the shipped ones are listed, an unknown name is refused naming
// the known ones, and a user's broad phase registered at run time is used by a world like
// the shipped ones (here a copy of all-pairs that counts what the world asks of it).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "collision_world_support.hpp"
#include "structures/collision/all_pairs.hpp"
#include "structures/collision/broad_phase_registry.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

TEST(BroadPhaseRegistry, ListsTheShippedBroadPhases) {
  const auto names = broad_phase_names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const char* shipped : {"all-pairs", "tvb-grid", "box-overlap", "box-overlap-2d", "guards-cones", "guards-cones-lists"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), shipped), names.end()) << shipped;
    EXPECT_STREQ(make_broad_phase(shipped)->name(), shipped);
  }
}

TEST(BroadPhaseRegistry, AnUnknownNameIsRefusedNamingTheKnownOnes) {
  EXPECT_TRUE(message_has(invalid_input_message([] { make_broad_phase("grid"); }),
                          {"unknown broad phase 'grid'", "all-pairs", "tvb-grid"}));
  // Through a world's settings, before anything is built.
  auto settings = world_settings(cube(10), "octree");
  Simulator sim;
  EXPECT_TRUE(message_has(invalid_input_message([&] { CollisionWorld world(sim, settings, {}); }),
                          {"unknown broad phase 'octree'", "all-pairs"}));
  EXPECT_EQ(sim.bodies().size(), 0u);
}

/// All pairs, counting the calls of the world.
class CountingAllPairs final : public BroadPhase {
 public:
  static inline int bounds_reset = 0, candidate_queries = 0;
  const char* name() const override { return "counting-all-pairs"; }
  void start(CollisionWorld& world) override { inner_.start(world); }
  void bound_will_reset(SphereId id) override { inner_.bound_will_reset(id); }
  void bound_was_reset(SphereId id) override {
    ++bounds_reset;
    inner_.bound_was_reset(id);
  }
  void candidates(SphereId id, std::vector<SphereId>& out) override {
    ++candidate_queries;
    inner_.candidates(id, out);
  }
  bool may_reach_wall(SphereId id, Wall w) const override { return inner_.may_reach_wall(id, w); }
  void audit(const AuditContext& ctx) const override { inner_.audit(ctx); }

 private:
  AllPairs inner_;
};

TEST(BroadPhaseRegistry, AUsersBroadPhaseRunsLikeTheShippedOnes) {
  register_broad_phase("counting-all-pairs", [] { return std::make_unique<CountingAllPairs>(); });
  EXPECT_TRUE(message_has(invalid_input_message([] {
                            register_broad_phase("counting-all-pairs", [] { return std::make_unique<AllPairs>(); });
                          }),
                          {"'counting-all-pairs' is taken"}));
  std::mt19937_64 rng(test_seed());
  const auto spheres = random_scene(rng, SceneSpec{30, 20, 0.5, 1.5, 8});
  SimulatorSettings audited;
  audited.audit = true;
  const TwinResult r = run_twins(spheres, world_settings(cube(20), "tvb-grid"), 3, audited, "counting-all-pairs");
  EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
  EXPECT_GT(r.tested.size(), 20u);
  // Every contact resets one or two bounds, and each reset asks for candidates.
  EXPECT_GE(CountingAllPairs::bounds_reset, static_cast<int>(r.tested.size()));
  EXPECT_GE(CountingAllPairs::candidate_queries, CountingAllPairs::bounds_reset);
}

}  // namespace
}  // namespace kds::testing
