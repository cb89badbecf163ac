// Exact against floating mode, determinism, and the heap queue against the reference queue
// on sorted-list runs.
#include <gtest/gtest.h>

#include <random>

#include "sorted_list_support.hpp"
#include "test_seed.hpp"

namespace {

using namespace kds::testing;
using kds::Motion;

struct ListRun {
  std::vector<kds::testing::Swap> swaps;
  std::vector<kds::EntryId> final_order;
  kds::Statistics stats;
};

/// Runs a sorted list on the given motions to the horizon.
ListRun run_list(const std::vector<Motion<1>>& motions, double horizon, kds::SimulatorSettings settings) {
  kds::Simulator sim(settings);
  kds::SortedList list(sim);
  ListRun r;
  record_swaps(list, sim, r.swaps);
  for (const auto& m : motions) insert_point(sim, list, m);
  sim.run_until(horizon);
  r.final_order.assign(list.order().begin(), list.order().end());
  r.stats = sim.statistics();
  return r;
}

std::vector<Motion<1>> random_motions(std::mt19937_64& rng, int n, bool with_meeting_point) {
  std::vector<Motion<1>> motions;
  for (int i = 0; i < n; ++i) motions.push_back(random_motion(rng, 1 + i % 3));
  if (with_meeting_point)  // a bundle that meets at t = 1/3, x = 0.5, plus identical twins
    for (int i = 0; i < 8; ++i) {
      motions.push_back(Motion<1>::linear(0.0, {0.5 + i * 0.01}, {-0.03 * i}));
      motions.push_back(Motion<1>::linear(0.0, {0.25}, {0.25}));
    }
  return motions;
}

TEST(SortedListExactness, FloatingAndExactAgreeOnGenericInput) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int round = 0; round < 8; ++round) {
    auto motions = random_motions(rng, 60, false);
    ListRun exact = run_list(motions, 2.0, {.exactness = kds::Exactness::filtered});
    ListRun floating = run_list(motions, 2.0, {.exactness = kds::Exactness::floating});
    ASSERT_GT(exact.swaps.size(), 50u);
    ASSERT_EQ(exact.swaps.size(), floating.swaps.size()) << "round " << round;
    for (std::size_t i = 0; i < exact.swaps.size(); ++i) {
      ASSERT_EQ(exact.swaps[i], floating.swaps[i]) << "round " << round << ", swap " << i;
      ASSERT_NEAR(exact.swaps[i].time, floating.swaps[i].time, 1e-9);
    }
    EXPECT_EQ(exact.final_order, floating.final_order);
    EXPECT_EQ(floating.stats.solver.failure_exact, 0u) << "floating mode must never take the exact path";
  }
}

TEST(SortedListExactness, DeterministicAndQueueIndependent) {
  for (bool degenerate : {false, true}) {
    std::mt19937_64 rng(kds::testing::test_seed() + degenerate);
    auto motions = random_motions(rng, 80, degenerate);
    ListRun first = run_list(motions, 1.5, {});
    ListRun again = run_list(motions, 1.5, {});
    ListRun reference = run_list(motions, 1.5, {.queue = kds::QueueKind::reference});
    ASSERT_GT(first.swaps.size(), 100u);
    EXPECT_EQ(hash_swaps(first.swaps), hash_swaps(again.swaps));
    EXPECT_EQ(hash_swaps(first.swaps), hash_swaps(reference.swaps)) << "heap and reference queues differ";
    ASSERT_EQ(first.swaps.size(), reference.swaps.size());
    for (std::size_t i = 0; i < first.swaps.size(); ++i) ASSERT_EQ(first.swaps[i], reference.swaps[i]) << "swap " << i;
    EXPECT_EQ(first.final_order, reference.final_order);
    if (degenerate) EXPECT_GE(first.stats.events_at_equal_times, 8u * 7u / 2u - 1u);
  }
}

/// Two points whose relative velocity is tiny, one moving from t = 0 and the other from
/// t0 = 1e8: in doubles, re-basing the first to the second's start (or both to the
/// simulation's clock) rounds the gap by about 1e-8, and the tiny relative velocity turns
/// that into about 1e-2 of crossing time.
struct FarStart {
  Motion<1> a, b;
  kds::Rational crossing;  // exact
};
FarStart far_start(int k) {
  const double t0 = 1e8;
  const double va = 0.7 + k / 7.0, vb = va + 1e-6 * (1 + k / 3.0);
  const double delta = 0.37;  // b starts about delta ahead: b - a grows after t0 and crosses before it
  const double a0 = -(va * t0);  // a near 0 at t0 (rounded: the exact motion is what is stored)
  FarStart f{Motion<1>::linear(0.0, {a0}, {va}), Motion<1>::linear(t0, {delta}, {vb}), 0};
  // a0 + va t = delta + vb (t - t0)
  f.crossing = (kds::Rational(delta) - kds::Rational(vb) * kds::Rational(t0) - kds::Rational(a0)) /
               (kds::Rational(va) - kds::Rational(vb));
  return f;
}

TEST(SortedListExactness, ExactModeOrdersRightWhereFloatingDoesNot) {
  int floating_wrong = 0;
  for (int k = 0; k < 10; ++k) {
    FarStart f = far_start(k);
    SCOPED_TRACE(::testing::Message() << "k = " << k << ", crossing at " << f.crossing.get_d());
    ASSERT_GT(f.crossing, 0);
    // Where does floating mode put the swap?
    kds::Simulator probe({.exactness = kds::Exactness::floating});
    kds::SortedList probe_list(probe);
    insert_point(probe, probe_list, f.a);
    insert_point(probe, probe_list, f.b);
    const kds::Root floating_time = probe.next_event_time();
    ASSERT_FALSE(floating_time.is_infinite());
    const double tf = floating_time.approx(), tc = f.crossing.get_d();
    // A sample time strictly between the floating and the exact crossing, if there is one.
    const double sample = 0.5 * (tf + tc);
    const kds::Rational rs(sample);
    if (rs == f.crossing || sample == tf || (rs > f.crossing) == (sample > tf)) continue;
    RecordProperty("k" + std::to_string(k), std::to_string(tf - tc));
    for (kds::Exactness mode : {kds::Exactness::filtered, kds::Exactness::floating}) {
      kds::Simulator sim({.exactness = mode});
      kds::SortedList list(sim);
      insert_point(sim, list, f.a);
      insert_point(sim, list, f.b);
      ASSERT_TRUE(sorted_at(sim, list, 1.0));
      sim.run_until(sample);
      if (mode == kds::Exactness::filtered) {
        EXPECT_TRUE(sorted_at(sim, list, sample)) << "exact mode ordered wrong";
        EXPECT_EQ(list.swaps(), kds::Rational(sample) > f.crossing ? 1u : 0u);
      } else {
        EXPECT_FALSE(sorted_at(sim, list, sample)) << "floating mode was expected to be wrong here";
        ++floating_wrong;
      }
    }
  }
  EXPECT_GE(floating_wrong, 5) << "floating mode was expected to misplace most of these crossings";
  RecordProperty("floating_wrong", std::to_string(floating_wrong));
}

}  // namespace

// Two sorted lists over the same points (as the rolling tree lists a ball in every node
// above it): each crossing is an event of both lists at once, a tie the queue must order.
// The two failure times are roots of one linear function, which compare() tells from the
// keys' stored lines without exact arithmetic; both lists swap exactly as one list alone.
TEST(SortedListExactness, TheSamePairInTwoListsTiesWithoutExactArithmetic) {
  std::mt19937_64 rng(kds::testing::test_seed());
  std::uniform_real_distribution<double> x(-10, 10), v(-1, 1);
  std::vector<Motion<1>> motions;
  for (int i = 0; i < 80; ++i) motions.push_back(Motion<1>::linear(0.0, {x(rng)}, {v(rng)}));
  const ListRun alone = run_list(motions, 20.0, {});
  ASSERT_GT(alone.swaps.size(), 100u);

  kds::Simulator sim;
  kds::SortedList first(sim), second(sim);
  std::vector<kds::testing::Swap> swaps_first, swaps_second;
  record_swaps(first, sim, swaps_first);
  record_swaps(second, sim, swaps_second);
  for (const auto& m : motions) {
    const kds::BodyId b = sim.bodies().insert(m);
    first.insert(kds::Key::coordinate(b));
    second.insert(kds::Key::coordinate(b));
  }
  sim.run_until(20.0);
  EXPECT_EQ(swaps_first, alone.swaps);
  EXPECT_EQ(swaps_second, alone.swaps);
  EXPECT_TRUE(sorted_at(sim, first, 20.0));
  EXPECT_TRUE(sorted_at(sim, second, 20.0));
  const kds::SolverCounters& s = sim.statistics().solver;
  EXPECT_GE(s.comparisons_same_line, alone.swaps.size()) << "each crossing ties once at least";
  EXPECT_EQ(s.comparisons_exact, alone.stats.solver.comparisons_exact) << "no exact comparison for the ties";
}
