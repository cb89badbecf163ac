// The kinetic tournament against a brute-force maximum on random motions of degree 1-3.
#include <gtest/gtest.h>

#include <bit>

#include "brute_force_max.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

struct RandomCase {
  const char* name;
  Motion<1> (*motion)(std::mt19937_64&);
  std::size_t points;
  friend void PrintTo(const RandomCase& c, std::ostream* os) { *os << c.name << ", " << c.points << " points"; }
};

class TournamentRandom : public ::testing::TestWithParam<RandomCase> {};

TEST_P(TournamentRandom, MatchesBruteForceBetweenEvents) {
  const RandomCase& param = GetParam();
  const std::uint64_t seed = test_seed();
  std::size_t total_events = 0;
  std::uint64_t total_changes = 0;
  for (std::uint64_t round = 0; round < 6; ++round) {
    SCOPED_TRACE("KDS_TEST_SEED=" + std::to_string(seed) + ", round " + std::to_string(round));
    std::mt19937_64 rng(seed + round);
    Simulator sim({.audit = true});
    Tournament t(sim);
    std::vector<ObjectId> points;
    for (std::size_t i = 0; i < param.points + round; ++i) points.push_back(t.insert(param.motion(rng)));
    std::uint64_t changes = 0;
    t.on_maximum_change([&](ObjectId previous, ObjectId current) {
      EXPECT_NE(previous, current);
      EXPECT_EQ(current, t.max());
      ++changes;
    });
    const std::size_t events = run_checked(sim, t, points, 20.0);
    if (HasFailure()) return;
    total_events += events;
    total_changes += t.leader_changes();
    EXPECT_EQ(changes, t.leader_changes());
    EXPECT_EQ(sim.statistics().external_events, t.leader_changes());
    EXPECT_EQ(sim.certificate_count(), points.size() - 1);
    EXPECT_EQ(t.height(), static_cast<int>(std::bit_width(points.size() - 1)));  // balanced
  }
  RecordProperty("events", std::to_string(total_events));
  if (param.points > 20) {
    EXPECT_GT(total_events, 0u);
    EXPECT_GT(total_changes, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Motions, TournamentRandom,
                         ::testing::Values(RandomCase{"real_coefficients", random_motion, 40},
                                           RandomCase{"integer_coefficients", random_integer_motion, 40},
                                           RandomCase{"few_points", random_motion, 2}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace kds::testing
