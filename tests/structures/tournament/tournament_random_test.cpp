// The kinetic tournament against a brute-force largest or smallest key on random motions
// of degree 1-3.
#include <gtest/gtest.h>

#include <bit>

#include "brute_force_winner.hpp"
#include "structures/sorted_list/sorted_list.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

struct RandomCase {
  const char* name;
  Motion<1> (*motion)(std::mt19937_64&);
  std::size_t points;
  Extremum extremum;
  friend void PrintTo(const RandomCase& c, std::ostream* os) {
    *os << c.name << ", " << c.points << " points, " << (c.extremum == Extremum::largest ? "largest" : "smallest");
  }
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
    Tournament t(sim, param.extremum);
    EXPECT_EQ(t.extremum(), param.extremum);
    std::vector<EntryId> points;
    for (std::size_t i = 0; i < param.points + round; ++i) points.push_back(insert_point(sim, t, param.motion(rng)));
    std::uint64_t changes = 0;
    t.on_winner_change().subscribe([&](EntryId previous, EntryId current) {
      EXPECT_NE(previous, current);
      EXPECT_EQ(current, t.winner());
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

INSTANTIATE_TEST_SUITE_P(
    Motions, TournamentRandom,
    ::testing::Values(RandomCase{"real_coefficients", random_motion, 40, Extremum::largest},
                      RandomCase{"integer_coefficients", random_integer_motion, 40,
                                 Extremum::largest},
                      RandomCase{"few_points", random_motion, 2, Extremum::largest},
                      RandomCase{"real_coefficients_smallest", random_motion, 40, Extremum::smallest},
                      RandomCase{"integer_coefficients_smallest", random_integer_motion, 40, Extremum::smallest},
                      RandomCase{"few_points_smallest", random_motion, 2, Extremum::smallest}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(TournamentSharedBodies, SmallestLargestAndASortedList) {
  // Two tournaments and a sorted list on the same bodies: the smallest winner's key is the
  // list's first, the largest winner's the list's last; each checked against brute force.
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  Simulator sim({.audit = true});
  Tournament low(sim, Extremum::smallest), high(sim, Extremum::largest);
  SortedList list(sim);
  std::vector<EntryId> low_entries, high_entries;
  for (int i = 0; i < 30; ++i) {
    // Two runners cross the whole field (|x| < 500 until t = 10), so that both extremes
    // change hands at least once; the others have small integer coefficients.
    const BodyId b = sim.bodies().insert(i == 0   ? Motion<1>::linear(0.0, {-1000.0}, {200.0})
                                         : i == 1 ? Motion<1>::linear(0.0, {1000.0}, {-200.0})
                                                  : random_integer_motion(rng));
    low_entries.push_back(low.insert(Key::coordinate(b)));
    high_entries.push_back(high.insert(Key::coordinate(b)));
    list.insert(Key::coordinate(b));
    EXPECT_EQ(sim.bodies().holders(b), 3u);
  }
  std::size_t checks = 0;
  for (;;) {
    if (const auto mid = sim.time_between_events(10.0)) {
      expect_winner_at(sim, low, low_entries, *mid);
      expect_winner_at(sim, high, high_entries, *mid);
      EXPECT_EQ(key_at(sim, low, low.winner(), *mid), key_at(sim, list.key(list.order().front()), *mid));
      EXPECT_EQ(key_at(sim, high, high.winner(), *mid), key_at(sim, list.key(list.order().back()), *mid));
      ++checks;
      if (HasFailure()) return;
    }
    const Root next = sim.next_event_time();
    if (next.is_infinite() || compare(next, 10.0) > 0) break;
    sim.step();
  }
  EXPECT_GT(low.leader_changes(), 0u);
  EXPECT_GT(high.leader_changes(), 0u);
  EXPECT_GT(list.swaps(), 0u);
  EXPECT_EQ(sim.statistics().external_events, low.leader_changes() + high.leader_changes() + list.swaps());
  EXPECT_GT(checks, 10u);
}

}  // namespace
}  // namespace kds::testing
