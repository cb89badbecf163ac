// Guards and cones ("guards-cones") against its brute-force twin ("all-pairs") on random
// scenes, contact by contact and bit for bit (audit_test.cpp audits the structure itself).
#include <gtest/gtest.h>

#include <random>

#include "collision_world_support.hpp"
#include "structures/guards_cones/guards_cones.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

class RandomTwins : public ::testing::TestWithParam<TwinCase> {};

TEST_P(RandomTwins, GuardsConesReproducesAllPairsExactly) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  expect_twins_on_random_scenes(rng, seed, GetParam(), "guards-cones");
}

// Radii log-uniform: "sizes" spans a factor 20, "asteroids" a factor 100. Gravity and
// inelastic scenes: audit_test.cpp (two executables keep each CTest entry short).
INSTANTIATE_TEST_SUITE_P(
    Scenes, RandomTwins,
    ::testing::Values(TwinCase{"n16_equal_elastic", {16, 14, 1, 1, 8, 1, 1}, false, 1.0, 1.2},
                      TwinCase{"n30_sizes", {30, 30, 0.3, 6, 10, 0.5, 4}, false, 1.0, 0.8},
                      TwinCase{"n30_asteroids", {30, 30, 0.08, 8, 10, 0.5, 4}, false, 1.0, 1}),
    [](const ::testing::TestParamInfo<TwinCase>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace kds::testing
