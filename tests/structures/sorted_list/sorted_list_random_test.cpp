// The kinetic sorted list against exact sorting on random polynomial motions of degree 1
// to 3: with the simulator's audit for moderate n, and by explicit sampling between events
// for n = 10^4. Linear motions also check that every swap was needed (swaps = inversions).
#include <gtest/gtest.h>

#include <random>

#include "sorted_list_support.hpp"
#include "test_seed.hpp"

namespace {

using namespace kds::testing;

TEST(SortedListRandom, MatchesExactSortWithAudit) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int n : {2, 3, 5, 10, 40, 120}) {
    for (int degree = 1; degree <= 3; ++degree) {
      SCOPED_TRACE(::testing::Message() << "n = " << n << ", degree " << degree);
      kds::Simulator sim({.audit = true});
      kds::SortedList list(sim);
      std::vector<kds::testing::Swap> swaps;
      record_swaps(list, sim, swaps);
      for (int i = 0; i < n; ++i) insert_point(sim, list, random_motion(rng, degree));
      ASSERT_TRUE(sorted_at(sim, list, 0x1p-40));
      const std::vector<kds::EntryId> initial = kds::testing::order_of(list);
      const double horizon = 3.0;
      // Explicit sampling between consecutive events, on top of the audit.
      while (true) {
        const kds::Root next = sim.next_event_time();
        if (next.is_infinite() || kds::compare(next, horizon) > 0) break;
        ASSERT_TRUE(sim.step());
        if (const auto t = sim.time_between_events(horizon)) ASSERT_TRUE(sorted_at(sim, list, *t));
      }
      sim.run_until(horizon);
      ASSERT_TRUE(sorted_at(sim, list, horizon));
      EXPECT_EQ(list.swaps(), swaps.size());
      EXPECT_EQ(sim.statistics().events_of("order"), list.swaps());
      EXPECT_EQ(sim.statistics().external_events, list.swaps());
      EXPECT_EQ(sim.certificate_count(), static_cast<std::size_t>(n - 1));
      if (degree == 1) {
        // Two lines cross at most once: every swap undoes one inversion.
        EXPECT_EQ(list.swaps(), inversions(initial, kds::testing::order_of(list)));
      }
      EXPECT_GE(sim.statistics().audits, list.swaps());
    }
  }
}

TEST(SortedListRandom, TenThousandPointsSampledBetweenEvents) {
  std::mt19937_64 rng(kds::testing::test_seed());
  const int n = 10000;
  kds::Simulator sim;
  kds::SortedList list(sim);
  for (int i = 0; i < n; ++i) insert_point(sim, list, random_motion(rng, 1 + i % 3));
  ASSERT_TRUE(sorted_at(sim, list, 0x1p-40));
  // About 5e4 events: the horizon is short because n^2 pairs may cross.
  const double horizon = 2e-3;
  std::uint64_t steps = 0;
  int samples = 0;
  while (true) {
    const kds::Root next = sim.next_event_time();
    if (next.is_infinite() || kds::compare(next, horizon) > 0) break;
    ASSERT_TRUE(sim.step());
    if (++steps % 2500 == 0) {
      if (const auto t = sim.time_between_events(horizon)) {
        ASSERT_TRUE(sorted_at(sim, list, *t)) << "after " << steps << " events";
        ++samples;
      }
    }
  }
  sim.run_until(horizon);
  ASSERT_TRUE(sorted_at(sim, list, horizon));
  EXPECT_GT(steps, 10000u) << "the test should exercise many events";
  EXPECT_GE(samples, 4);
  const kds::Statistics& s = sim.statistics();
  EXPECT_EQ(s.events, steps);
  // The filter decides almost everything on random input.
  EXPECT_LT(s.solver.failure_exact * 100, s.solver.failure_computations) << s;
  EXPECT_LT(s.solver.comparisons_exact * 100, s.solver.comparisons + 1) << s;
  RecordProperty("events", std::to_string(steps));
}

}  // namespace
