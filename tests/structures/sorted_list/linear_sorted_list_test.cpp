// The linear sorted list (structures/sorted_list/linear_sorted_list.hpp) against two twins:
// an exact sort of the points at the check times (brute force, dyadic arithmetic), and the
// generic SortedList over the same motions in the simulator. On random scenes and on
// degenerate ones (integer positions and velocities: several points meeting at one instant,
// equal velocities, points together at time 0, check times at crossings), with audits after
// every swap; extreme coordinates; bad input. Random seeds are printed (KDS_TEST_SEED).
#include "structures/sorted_list/linear_sorted_list.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kds/dyadic.hpp"
#include "kds/errors.hpp"
#include "kds/key.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "linear_list_brute_force.hpp"
#include "structures/sorted_list/sorted_list.hpp"
#include "test_seed.hpp"

namespace {

using kds::Dyadic;
using kds::LinearPoint;
using kds::LinearSortedList;
using PointId = LinearSortedList::PointId;

using kds::testing::brute_order;
using kds::testing::final_order;
using kds::testing::inversions;
using kds::testing::order_of;

/// Runs the list to each check time (with an audit after every swap when `audit_steps`)
/// and compares it with the exact sort there and with the count of pairs that crossed.
void check_against_brute_force(const std::vector<LinearPoint>& p, const std::vector<double>& times, bool audit_steps,
                               double bin_width = 0) {
  LinearSortedList list(p, bin_width);
  list.audit();
  const std::vector<PointId> start = brute_order(p, 0);
  ASSERT_EQ(order_of(list), start) << "the order just after 0";
  if (audit_steps) list.on_swap().subscribe([&](PointId, PointId) { list.audit(); });
  for (const double t : times) {
    list.run_until(t);
    SCOPED_TRACE("t = " + std::to_string(t));
    list.audit();
    const std::vector<PointId> want = brute_order(p, t);
    ASSERT_EQ(order_of(list), want);
    for (std::size_t r = 0; r < want.size(); ++r) ASSERT_EQ(list.rank(want[r]), r);
    ASSERT_EQ(list.stats().swaps, inversions(start, want));
  }
}

std::vector<LinearPoint> random_points(std::mt19937_64& rng, std::size_t n) {
  std::uniform_real_distribution<double> x(0.0, static_cast<double>(n)), v(-1.0, 1.0);
  std::vector<LinearPoint> p(n);
  for (LinearPoint& q : p) q = {x(rng), v(rng)};
  return p;
}

/// Integer positions in [0, span) and velocities in [-k, k]: many points meet at one
/// instant, many share a velocity, some start together; crossings at small rationals.
std::vector<LinearPoint> integer_points(std::mt19937_64& rng, std::size_t n, int span, int k) {
  std::vector<LinearPoint> p(n);
  for (LinearPoint& q : p)
    q = {static_cast<double>(rng() % static_cast<unsigned>(span)),
         static_cast<double>(static_cast<int>(rng() % static_cast<unsigned>(2 * k + 1)) - k)};
  return p;
}

TEST(LinearSortedList, RandomScenesMatchTheExactSort) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  for (int scene = 0; scene < 40; ++scene) {
    const std::size_t n = 2 + rng() % 120;
    SCOPED_TRACE("scene " + std::to_string(scene) + ", n = " + std::to_string(n));
    const std::vector<LinearPoint> p = random_points(rng, n);
    std::vector<double> times{0.0};
    for (double t = 0.37; t < 40; t *= 1.7) times.push_back(t);
    // The calendar's own width, bins far narrower than the crossing intervals (every
    // interval straddles many bins), and one bin for everything.
    for (const double width : {0.0, 1e-17, 1e9}) {
      check_against_brute_force(p, times, scene < 10, width);
      if (HasFatalFailure()) return;
    }
  }
}

// From 2^15 points the list asks the memory for the next swap's records at each swap (a
// hint that must change nothing): a random and an integer scene of 40,000 points, audited
// at each check time.
TEST(LinearSortedList, LargeScenesMatchTheExactSort) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = 40000;
  SCOPED_TRACE("random points");
  check_against_brute_force(random_points(rng, n), {0.0, 0.5, 2.0, 4.5}, false);
  if (HasFatalFailure()) return;
  SCOPED_TRACE("integer points");
  check_against_brute_force(integer_points(rng, n, 20000, 3), {0.0, 0.5, 1.0, 3.0}, false);
}

TEST(LinearSortedList, DegenerateScenesMatchTheExactSort) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  std::uint64_t beyond_doubles = 0, simultaneous = 0;
  for (int scene = 0; scene < 60; ++scene) {
    const std::size_t n = 2 + rng() % 40;
    const int span = 1 + static_cast<int>(rng() % 12), k = 1 + static_cast<int>(rng() % 4);
    SCOPED_TRACE("scene " + std::to_string(scene) + ", n = " + std::to_string(n));
    const std::vector<LinearPoint> p = integer_points(rng, n, span, k);
    // Check times at crossings (multiples of 1/2, 1/3, 1/4 ...) and between them.
    std::vector<double> times{0.0};
    for (int q = 1; q <= 48; ++q) times.push_back(q / 4.0);
    times.push_back(0.1);
    std::sort(times.begin(), times.end());
    LinearSortedList list(p);
    std::vector<double> swap_times;
    list.on_swap().subscribe([&](PointId, PointId) {
      list.audit();
      swap_times.push_back(list.now());
    });
    const std::vector<PointId> start = brute_order(p, 0);
    ASSERT_EQ(order_of(list), start);
    for (const double t : times) {
      list.run_until(t);
      list.audit();
      ASSERT_EQ(order_of(list), brute_order(p, t)) << "t = " << t;
      ASSERT_EQ(list.stats().swaps, inversions(start, order_of(list))) << "t = " << t;
    }
    for (std::size_t i = 1; i < swap_times.size(); ++i) simultaneous += swap_times[i] == swap_times[i - 1];
    beyond_doubles += list.stats().comparisons_undecided;
  }
  // The scenes did what they are for: crossings at one instant, decided beyond doubles (the
  // exact ties by the tie test of exact products, without dyadic arithmetic).
  EXPECT_GT(simultaneous, 100u);
  EXPECT_GT(beyond_doubles, 100u);
}

TEST(LinearSortedList, StepsOneSwapAtATimeInTheOrderOfTheExactCrossings) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed + 1);
  for (int scene = 0; scene < 20; ++scene) {
    const std::vector<LinearPoint> p = scene % 2 ? random_points(rng, 50) : integer_points(rng, 30, 8, 3);
    LinearSortedList list(p);
    std::uint64_t steps = 0;
    // The audit after each step checks, exactly, that no queued crossing lies before the
    // swap just made: the swaps come in the order of their exact times.
    while (list.step()) {
      ++steps;
      list.audit();
      ASSERT_LT(steps, 100000u);
    }
    // Every pair that ever crosses has crossed: the order at the end of time is by
    // velocity, then by position at time 0, then by id.
    const std::vector<PointId> last = final_order(p);
    EXPECT_EQ(order_of(list), last) << "scene " << scene;
    EXPECT_EQ(steps, inversions(brute_order(p, 0), last));
  }
}

TEST(LinearSortedList, SwapsAsTheGenericSortedList) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed + 2);
  for (int scene = 0; scene < 16; ++scene) {
    const std::vector<LinearPoint> p = scene % 2 ? random_points(rng, 80) : integer_points(rng, 40, 10, 3);
    SCOPED_TRACE("scene " + std::to_string(scene));
    kds::Simulator sim;
    kds::SortedList generic(sim);
    std::vector<kds::EntryId> entry_of;
    for (const LinearPoint& q : p)
      entry_of.push_back(generic.insert(kds::Key::coordinate(sim.bodies().insert(kds::Motion<1>::linear(0.0, {q.x}, {q.v})))));
    std::vector<PointId> point_of_entry(p.size() * 2 + 8);
    for (PointId i = 0; i < p.size(); ++i) point_of_entry.at(entry_of[i]) = i;
    LinearSortedList list(p);
    for (const double t : {0.0, 0.25, 1.0, 1.5, 3.0, 7.0, 20.0}) {
      sim.run_until(t);
      list.run_until(t);
      std::vector<PointId> generic_order;
      for (const kds::EntryId e : generic.order()) generic_order.push_back(point_of_entry.at(e));
      ASSERT_EQ(order_of(list), generic_order) << "t = " << t;
      ASSERT_EQ(list.stats().swaps, generic.swaps()) << "t = " << t;
    }
  }
}

TEST(LinearSortedList, CallbacksSeeTheRepairedListAndMayNotRunIt) {
  const std::vector<LinearPoint> p{{0, 1}, {1, 0}, {3, -1}};
  LinearSortedList list(p);
  std::vector<std::pair<PointId, PointId>> swaps;
  list.on_swap().subscribe([&](PointId left, PointId right) {
    swaps.emplace_back(left, right);
    EXPECT_EQ(list.rank(left), list.rank(right) + 1) << "left is now just after right";
    list.audit();
    EXPECT_THROW(list.step(), kds::InvalidInput);
    EXPECT_THROW(list.run_until(100), kds::InvalidInput);
  });
  list.run_until(10);
  // 0 meets 1 at t = 1, 1 meets 2 at t = 2, then 0 meets 2 at t = 1.5? 0: x = t, 2: x = 3 - t
  // meet at 1.5, but 0 and 2 are adjacent only after 1 has left: the exact order of events
  // is (0, 1) at 1, (0, 2) at 1.5, (1, 2) at 2.
  ASSERT_EQ(swaps.size(), 3u);
  EXPECT_EQ(swaps[0], std::make_pair(PointId{0}, PointId{1}));
  EXPECT_EQ(swaps[1], std::make_pair(PointId{0}, PointId{2}));
  EXPECT_EQ(swaps[2], std::make_pair(PointId{1}, PointId{2}));
  EXPECT_EQ(order_of(list), (std::vector<PointId>{2, 1, 0}));
}

TEST(LinearSortedList, ThreePointsMeetingAtOneInstant) {
  // All three at x = 1 at t = 1; just after, the order is by velocity.
  const std::vector<LinearPoint> p{{0, 1}, {1, 0}, {2, -1}};
  LinearSortedList list(p);
  list.run_until(1);  // the instant itself: every crossing at t <= 1 is processed
  EXPECT_EQ(order_of(list), (std::vector<PointId>{2, 1, 0}));
  EXPECT_EQ(list.stats().swaps, 3u);
  list.audit();
}

TEST(LinearSortedList, PointsTogetherAtTimeZeroAreOrderedAsJustAfterIt) {
  const std::vector<LinearPoint> p{{0, 1}, {0, -1}, {0, 0}, {0, 0}};
  LinearSortedList list(p);
  EXPECT_EQ(order_of(list), (std::vector<PointId>{1, 2, 3, 0}));
  EXPECT_FALSE(list.step()) << "no pair ever crosses";
  EXPECT_EQ(list.stats().swaps, 0u);
  list.audit();
}

TEST(LinearSortedList, CrossingsOneUlpApartAndExtremeCoordinates) {
  const double big = 1e300, huge = std::numeric_limits<double>::max() / 2;
  // Two crossings at times that differ in the last bits: the double intervals overlap.
  const double a = 1.0, b = std::nextafter(1.0, 2.0);
  std::vector<LinearPoint> p{{0, a}, {1, 0}, {10, 0}, {11, -b}};
  check_against_brute_force(p, {0.5, 0.9999999999999, 1.0, 1.0000000000000002, 2, 10}, true);
  // Velocities one ulp apart: a crossing far away; coordinates near the largest double,
  // whose differences overflow; tiny and subnormal gaps.
  p = {{0, std::nextafter(1.0, 2.0)}, {1e-300, 1.0}, {5e-324, 1.0}, {big, 0}, {huge, -1}, {-huge, 1}, {-big, 0.5}};
  check_against_brute_force(p, {0.0, 1e-310, 1.0, 1e10, 1e16, 1e300}, true);
}

TEST(LinearSortedList, RunsUntilATargetWithinACrossingsIntervalExactly) {
  // The crossing is at exactly 1/3; the double fl(1/3) lies just below it, inside its interval.
  const std::vector<LinearPoint> p{{0, 3}, {1, 0}};
  LinearSortedList list(p);
  const double below = 1.0 / 3, above = std::nextafter(below, 1.0);
  ASSERT_LT(std::fma(below, 3, -1), 0) << "fl(1/3) < 1/3";
  list.run_until(below);
  EXPECT_EQ(list.stats().swaps, 0u) << "1/3 is after fl(1/3)";
  list.audit();
  list.run_until(above);
  EXPECT_EQ(list.stats().swaps, 1u);
  list.audit();
  // A crossing at a double: run_until that double takes it.
  LinearSortedList exact(std::vector<LinearPoint>{{0, 4}, {1, 0}});
  exact.run_until(0.25);
  EXPECT_EQ(exact.stats().swaps, 1u);
}

TEST(LinearSortedList, NowIsNeverBeforeTheLastSwapSoRunningUntilItIsRight) {
  // The crossing is at exactly 1/3 and fl(1/3) lies just below it. now() used to be the
  // middle of the crossing's interval, fl(1/3): run_until(now()) was then taken without an
  // exact check, and the list claimed the order after the swap at a time before it.
  const std::vector<LinearPoint> p{{0, 3}, {1, 0}};
  LinearSortedList list(p);
  ASSERT_TRUE(list.step());
  EXPECT_GE(std::fma(list.now(), 3, -1), 0) << "now() is at or after 1/3";
  EXPECT_LE(list.now(), std::nextafter(1.0 / 3, 1.0) + 1e-15) << "and near it";
  EXPECT_THROW(list.run_until(1.0 / 3), kds::InvalidInput) << "fl(1/3) is before the swap";
  list.run_until(list.now());
  list.audit();
  EXPECT_EQ(order_of(list), brute_order(p, list.now()));
}

TEST(LinearSortedList, CoordinatesWhoseDifferencesOverflow) {
  const double m = std::numeric_limits<double>::max();
  // x_r - x_l and v_l - v_r both overflow; the crossing is at exactly 1. The interval used
  // to be [0, +inf], and now() +inf after the swap.
  LinearSortedList list(std::vector<LinearPoint>{{-0.75 * m, 0.75 * m}, {0.75 * m, -0.75 * m}});
  ASSERT_TRUE(list.step());
  EXPECT_GE(list.now(), 1.0);
  EXPECT_LT(list.now(), 1.0 + 1e-14);
  list.audit();
  list.run_until(1.0);
  list.audit();
  // Only one of the two overflows: crossings at exactly 2 and 0.5.
  for (const auto& q : {std::vector<LinearPoint>{{-0.75 * m, 0.75 * m}, {0.75 * m, 0}},
                        std::vector<LinearPoint>{{0, 0.75 * m}, {0.75 * m * 0.5, -0.75 * m}}}) {
    LinearSortedList one(q);
    one.audit();
    ASSERT_TRUE(one.step());
    EXPECT_GE(one.now(), q[1].x == 0.75 * m ? 2.0 : 0.25);
    EXPECT_LT(one.now(), (q[1].x == 0.75 * m ? 2.0 : 0.25) * (1 + 1e-14));
    one.audit();
  }
}

TEST(LinearSortedList, CrossingsBeyondTheLargestDouble) {
  // 1e300 / 2^-1060: the quotient overflows. The audit used to take the interval's upper end
  // +inf as a dyadic number (undefined behaviour) and fail.
  const std::vector<LinearPoint> p{{0, 0x1p-1060}, {1e300, 0}};
  LinearSortedList list(p);
  list.audit();
  list.run_until(std::numeric_limits<double>::max());
  EXPECT_EQ(list.stats().swaps, 0u);
  list.audit();
  ASSERT_TRUE(list.step());
  EXPECT_EQ(list.now(), std::numeric_limits<double>::infinity()) << "no double is at or after the swap";
  list.audit();
  EXPECT_THROW(list.run_until(std::numeric_limits<double>::max()), kds::InvalidInput);
}

TEST(LinearSortedList, CrossingsInTheExactOrderWhereTheRoundedQuotientsDisagree) {
  // Slot 0 crosses at exactly 1/3, slot 2 a few 1e-18 before it; but slot 2's velocity
  // difference rounds (its right point's velocity is below half an ulp of the left's), so
  // its rounded quotient is the double after fl(1/3) while slot 0's is fl(1/3): the
  // intervals overlap, their lower ends in the wrong order. With bins narrower than an ulp
  // the two lower ends fall in different bins, slot 2's in the later one.
  const LinearPoint l{0, 0x1.7fffffffffcc3p+0}, r{0x1.ffffffffffbafp-2, -0x1.415f51835e190p-54};
  const std::vector<LinearPoint> p{{-10, 3}, {-9, 0}, l, r};
  ASSERT_GT(r.x / (l.v - r.v), 1.0 / 3) << "the scene is what it says";
  for (const double width : {0.0, 0x1p-60, 1e9}) {
    LinearSortedList list(p, width);
    std::vector<PointId> lefts;
    list.on_swap().subscribe([&](PointId left, PointId) {
      list.audit();  // no queued crossing before the one just made
      lefts.push_back(left);
    });
    list.run_until(0.34);
    EXPECT_EQ(lefts, (std::vector<PointId>{2, 0})) << "width " << width;
    EXPECT_GT(list.stats().comparisons_undecided, 0u);
  }
}

TEST(LinearSortedList, ManyPointsInOnePlaceWithFewVelocities) {
  // 200 points at 3 places with 5 velocities: large simultaneous groups.
  std::vector<LinearPoint> p;
  for (int i = 0; i < 200; ++i) p.push_back({static_cast<double>(i % 3), static_cast<double>(i % 5) - 2});
  check_against_brute_force(p, {0.1, 0.5, 1.0, 2.0, 3.0, 100.0}, false);
}

TEST(LinearSortedList, RejectsBadInputNamingIt) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  auto message = [](const std::vector<LinearPoint>& p) {
    try {
      LinearSortedList list(p);
    } catch (const kds::InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message({{0, 0}, {nan, 1}}), "LinearSortedList: point 1 has a position that is not finite");
  EXPECT_EQ(message({{0, inf}}), "LinearSortedList: point 0 has a velocity that is not finite");
  EXPECT_EQ(message({{-inf, 0}}), "LinearSortedList: point 0 has a position that is not finite");
  LinearSortedList list(std::vector<LinearPoint>{{0, 1}, {1, 0}});
  EXPECT_THROW(list.run_until(nan), kds::InvalidInput);
  // +inf has no exact comparison: it used to be taken, skip crossings beyond the doubles
  // and leave a clock that the audit could not read.
  EXPECT_THROW(list.run_until(inf), kds::InvalidInput);
  EXPECT_EQ(list.stats().swaps, 0u);
  list.run_until(5);
  EXPECT_THROW(list.run_until(4), kds::InvalidInput);
  EXPECT_THROW((void)list.rank(2), kds::InvalidInput);
  EXPECT_THROW(LinearSortedList(std::vector<LinearPoint>{{0, 1}}, -1.0), kds::InvalidInput);
  EXPECT_THROW(LinearSortedList(std::vector<LinearPoint>{{0, 1}}, nan), kds::InvalidInput);
  list.run_until(5);  // the same time again is fine
  LinearSortedList empty(std::vector<LinearPoint>{});
  EXPECT_FALSE(empty.step());
  empty.run_until(1);
  empty.audit();
}

}  // namespace
