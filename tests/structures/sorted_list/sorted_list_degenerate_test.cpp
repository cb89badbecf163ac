// The kinetic sorted list on degenerate input built on purpose: many points crossing at
// one time and place (at a double time and at a non-double one), touching without crossing,
// events at time 0, identical motions, and insert / erase / set_motion while running;
// plus bad input, each error message naming the point and the problem.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "kds/errors.hpp"
#include "sorted_list_support.hpp"
#include "test_seed.hpp"

namespace {

using namespace kds::testing;
using kds::Motion;

::testing::AssertionResult contains(const std::string& text, const std::string& fragment) {
  if (text.find(fragment) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << fragment << "\"";
}

Motion<1> cubic(double t0, double c0, double c1, double c2, double c3) {
  return Motion<1>::polynomial(t0, {{{c0, c1, c2, c3}}});
}

TEST(SortedListDegenerate, ManyPointsMeetAtOneTimeAndPlace) {
  // x_i(t) = i (1 - k t): all meet at t = 1/k, x = 0, and come out in reverse order.
  for (double k : {1.0, 3.0}) {
    for (kds::QueueKind queue : {kds::QueueKind::heap, kds::QueueKind::reference}) {
      SCOPED_TRACE(::testing::Message() << "k = " << k);
      const int n = 25;
      kds::Simulator sim({.queue = queue, .audit = true});
      kds::SortedList list(sim);
      std::vector<kds::ObjectId> ids;
      for (int i = 0; i < n; ++i) ids.push_back(list.insert(Motion<1>::linear(0.0, {double(i)}, {-k * i})));
      EXPECT_EQ(list.order(), ids);
      sim.run_until(1.0);
      EXPECT_EQ(list.swaps(), static_cast<std::uint64_t>(n * (n - 1) / 2));
      std::vector<kds::ObjectId> reversed(ids.rbegin(), ids.rend());
      EXPECT_EQ(list.order(), reversed);
      const kds::Statistics& s = sim.statistics();
      // All at one exact time (1/3 is not a double: equality must be recognised exactly).
      EXPECT_EQ(s.events_at_equal_times, s.events - 1) << s;
      ASSERT_TRUE(sorted_at(list, 1.0));  // after the meeting point
      EXPECT_TRUE(std::isinf(sim.next_event_time().lo())) << "no more crossings";
    }
  }
}

TEST(SortedListDegenerate, TouchingWithoutCrossing) {
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::vector<kds::testing::Swap> swaps;
  record_swaps(list, sim, swaps);
  const auto ground = list.insert(Motion<1>::constant({0.0}));
  const auto touch_at_1 = list.insert(cubic(0.0, 1.0, -2.0, 1.0, 0.0));      // (t - 1)^2
  const auto touch_at_third = list.insert(cubic(0.0, 1.0, -6.0, 9.0, 0.0));  // (3t - 1)^2
  const auto cross_twice = list.insert(cubic(0.0, 1.0 - 0x1p-40, -2.0, 1.0, 0.0));  // (t-1)^2 - 2^-40
  sim.run_until(3.0);
  // Only the last one dips below the ground (twice: down and up again); the others touch it.
  std::vector<kds::ObjectId> crossed_ground;
  for (const kds::testing::Swap& s : swaps) {
    if (s.left == ground) crossed_ground.push_back(s.right);
    if (s.right == ground) crossed_ground.push_back(s.left);
  }
  EXPECT_EQ(crossed_ground, (std::vector<kds::ObjectId>{cross_twice, cross_twice}));
  ASSERT_EQ(swaps.size() >= 2, true);
  EXPECT_EQ(list.rank(ground), 0u);
  EXPECT_TRUE(sorted_at(list, 3.0));
  (void)touch_at_1;
  (void)touch_at_third;
  // A point touching another from above at a non-double time, both moving.
  kds::Simulator sim2({.audit = true});
  kds::SortedList list2(sim2);
  list2.insert(Motion<1>::linear(0.0, {0.0}, {1.0}));
  list2.insert(cubic(0.0, 1.0, -5.0, 9.0, 0.0));  // t + (3t - 1)^2
  sim2.run_until(2.0);
  EXPECT_EQ(list2.swaps(), 0u);
}

TEST(SortedListDegenerate, PointsCoincidingAtTimeZero) {
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  const auto up = list.insert(Motion<1>::linear(0.0, {0.0}, {1.0}));
  const auto down = list.insert(Motion<1>::linear(0.0, {0.0}, {-1.0}));
  const auto still = list.insert(Motion<1>::constant({0.0}));
  const auto flat_then_up = list.insert(cubic(0.0, 0.0, 0.0, 1.0, 0.0));  // t^2: after "still", before "up"
  EXPECT_EQ(list.order(), (std::vector<kds::ObjectId>{down, still, flat_then_up, up}));
  sim.run_until(0.5);
  EXPECT_EQ(list.swaps(), 0u);
  sim.run_until(1.5);  // t^2 overtakes t at t = 1
  EXPECT_EQ(list.swaps(), 1u);
  EXPECT_EQ(list.order(), (std::vector<kds::ObjectId>{down, still, up, flat_then_up}));
}

TEST(SortedListDegenerate, EventsAtTimeZero) {
  // A motion change at t = 0 puts a point on the wrong side of two others: it fails at once.
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::vector<kds::testing::Swap> swaps;
  record_swaps(list, sim, swaps);
  const auto a = list.insert(Motion<1>::constant({0.0}));
  const auto b = list.insert(Motion<1>::constant({1.0}));
  const auto c = list.insert(Motion<1>::constant({2.0}));
  list.set_motion(a, Motion<1>::constant({5.0}));
  ASSERT_TRUE(sim.step());
  ASSERT_TRUE(sim.step());
  EXPECT_FALSE(sim.step());
  EXPECT_EQ(list.order(), (std::vector<kds::ObjectId>{b, c, a}));
  ASSERT_EQ(swaps.size(), 2u);
  EXPECT_EQ(swaps[0].time, 0.0);
  EXPECT_EQ(swaps[1].time, 0.0);
  EXPECT_EQ(kds::compare(sim.now(), 0.0), 0);
  // The point comes back through the others later, and meets c exactly at x = 2, t = 1.
  list.set_motion(a, Motion<1>::linear(0.0, {5.0}, {-3.0}));
  sim.run_until(1.0);
  EXPECT_EQ(list.order(), (std::vector<kds::ObjectId>{b, a, c}));
  sim.run_until(2.0);
  EXPECT_EQ(list.order(), (std::vector<kds::ObjectId>{a, b, c}));
}

TEST(SortedListDegenerate, IdenticalMotions) {
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::vector<kds::ObjectId> twins;
  for (int i = 0; i < 5; ++i) twins.push_back(list.insert(Motion<1>::linear(0.0, {1.0}, {0.5})));
  // Same motions about other start times: still identical functions of time.
  twins.push_back(list.insert(Motion<1>::linear(2.0, {2.0}, {0.5})));
  const auto runner = list.insert(Motion<1>::linear(0.0, {0.0}, {2.0}));  // overtakes them at t = 2/3
  sim.run_until(5.0);
  // The runner passes each twin once; twins never swap among themselves.
  EXPECT_EQ(list.swaps(), twins.size());
  EXPECT_EQ(list.order().back(), runner);
  EXPECT_TRUE(sorted_at(list, 5.0));
  // Insertion puts a new twin after the existing ones.
  const auto late = list.insert(Motion<1>::linear(0.0, {1.0}, {0.5}));
  EXPECT_EQ(list.rank(late), twins.size());
  sim.run_until(6.0);
  EXPECT_EQ(list.swaps(), twins.size());
}

TEST(SortedListDegenerate, InsertEraseAndSetMotionWhileRunning) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int round = 0; round < 6; ++round) {
    kds::Simulator sim({.audit = true});
    kds::SortedList list(sim);
    std::vector<kds::ObjectId> live;
    for (int i = 0; i < 20; ++i) live.push_back(list.insert(random_motion(rng, 1 + i % 3)));
    double t = 0;
    for (int op = 0; op < 120; ++op) {
      t += std::uniform_real_distribution<double>(0.0, 0.05)(rng);
      sim.run_until(t);
      const double sample = time_between_events(sim, t + 1.0);
      if (sample == sample) ASSERT_TRUE(sorted_at(list, sample)) << "round " << round << ", op " << op;
      const int what = std::uniform_int_distribution<int>(0, 3)(rng);
      if (what == 0 || live.size() < 3) {
        live.push_back(list.insert(random_motion(rng, 1 + op % 3, t)));
      } else if (what == 1) {
        std::size_t i = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
        list.erase(live[i]);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        std::size_t i = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
        // A new motion from now, continuing from the current position (or jumping, now and then).
        auto m = random_motion(rng, 1 + op % 3, t);
        if (what == 2) {
          auto c = m.coefficients(0);
          c[0] = list.motion(live[i]).coordinate<kds::Rational>(0, t)[0].get_d();
          m = Motion<1>::polynomial(t, {c});
        }
        list.set_motion(live[i], m);
      }
      // A step right after a change may be at exactly now (a jump fails at once).
      while (kds::compare(sim.next_event_time(), sim.now()) == 0) sim.step();
    }
    EXPECT_EQ(list.size(), live.size());
    EXPECT_EQ(sim.object_count(), live.size());
    EXPECT_EQ(sim.certificate_count(), live.size() - 1);
  }
}

TEST(SortedListDegenerate, SetMotionAtAnAlgebraicTime) {
  // Stop at a swap at t = 1/3 (not a double), then change a motion: the clock rounds up to
  // a double, and the motion may start there but not before.
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  const auto a = list.insert(Motion<1>::linear(0.0, {0.0}, {3.0}));
  const auto b = list.insert(Motion<1>::constant({1.0}));
  ASSERT_TRUE(sim.step());
  EXPECT_FALSE(sim.now().is_point());
  const double rounded = sim.round_clock();
  EXPECT_GE(rounded, 1.0 / 3.0);
  EXPECT_EQ(kds::compare(sim.now(), rounded), 0);
  EXPECT_THROW(list.set_motion(a, Motion<1>::linear(std::nextafter(rounded, 0.0), {1.0}, {-3.0})), kds::InvalidInput);
  list.set_motion(a, Motion<1>::linear(rounded, {1.0}, {-3.0}));  // turns back now
  EXPECT_EQ(list.order(), (std::vector<kds::ObjectId>{b, a}));
  sim.run_until(1.0);
  EXPECT_EQ(list.order(), (std::vector<kds::ObjectId>{a, b}));
  EXPECT_EQ(list.swaps(), 2u);
}

// ---------------------------------------------------------------- bad input

template <class F>
void expect_invalid(F&& f, std::initializer_list<const char*> fragments) {
  try {
    f();
    ADD_FAILURE() << "no InvalidInput";
  } catch (const kds::InvalidInput& e) {
    for (const char* fragment : fragments) EXPECT_TRUE(contains(e.what(), fragment));
  }
}

TEST(SortedListBadInput, ErrorsNameThePointAndTheProblem) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  kds::Simulator sim;
  kds::SortedList list(sim);
  const auto a = list.insert(Motion<1>::constant({0.0}));
  const auto b = list.insert(Motion<1>::linear(0.0, {1.0}, {1.0}));
  // A Motion validates itself when built, so a bad one never reaches insert or set_motion:
  // the error comes from the factory, naming the coefficient.
  expect_invalid([&] { list.insert(cubic(0.0, 0.0, nan, 0.0, 0.0)); }, {"coefficient x[t^1] is NaN"});
  expect_invalid([&] { list.insert(cubic(0.0, 0.0, 0.0, 0.0, -inf)); }, {"x[t^3] is -infinity"});
  expect_invalid([&] { list.insert(cubic(inf, 0.0, 0.0, 0.0, 0.0)); }, {"start time is +infinity"});
  EXPECT_EQ(list.size(), 2u) << "a rejected point must not be added";
  EXPECT_EQ(sim.object_count(), 2u);
  expect_invalid([&] { list.set_motion(b, cubic(1.0, inf, 0.0, 0.0, 0.0)); }, {"coefficient x[t^0] is +infinity"});
  sim.run_until(1.0);
  expect_invalid([&] { list.set_motion(b, Motion<1>::linear(0.5, {0.0}, {1.0})); },
                 {"SortedList::set_motion", "point 1", "motion replaced at t = 0.5", "before the current time 1"});
  EXPECT_EQ(list.motion(b).start(), 0.0) << "a rejected motion must not be kept";
  expect_invalid([&] { list.erase(42); }, {"SortedList::erase", "point 42 is not in the list"});
  expect_invalid([&] { list.set_motion(42, Motion<1>::constant({0.0})); }, {"SortedList::set_motion", "point 42"});
  list.erase(a);
  expect_invalid([&] { list.erase(a); }, {"SortedList::erase", "point 0 is not in the list"});
  expect_invalid([&] { list.rank(a); }, {"point 0"});
  expect_invalid([&] { sim.run_until(0.5); }, {"run_until", "before the current time"});
  EXPECT_NO_THROW(sim.run_until(2.0));
  EXPECT_TRUE(sorted_at(list, 2.0));
}

}  // namespace
