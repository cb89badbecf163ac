// The kinetic sorted list on degenerate input built on purpose: many points crossing at
// one time and place (at a double time and at a non-double one), touching without crossing,
// events at time 0, identical motions, and insert / erase / motion changes of the bodies
// while running; plus bad input, each error message naming the entry or body and the
// problem, and the list passing its audit afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include "kds/errors.hpp"
#include "sorted_list_support.hpp"
#include "test_seed.hpp"

namespace {

using namespace kds::testing;
using kds::Motion;


TEST(SortedListDegenerate, ManyPointsMeetAtOneTimeAndPlace) {
  // x_i(t) = i (1 - k t): all meet at t = 1/k, x = 0, and come out in reverse order.
  for (double k : {1.0, 3.0}) {
    for (kds::QueueKind queue : {kds::QueueKind::heap, kds::QueueKind::reference}) {
      SCOPED_TRACE(::testing::Message() << "k = " << k);
      const int n = 25;
      kds::Simulator sim({.queue = queue, .audit = true});
      kds::SortedList list(sim);
      std::vector<kds::EntryId> ids;
      for (int i = 0; i < n; ++i) ids.push_back(insert_point(sim, list, Motion<1>::linear(0.0, {double(i)}, {-k * i})));
      EXPECT_EQ(kds::testing::order_of(list), ids);
      sim.run_until(1.0);
      EXPECT_EQ(list.swaps(), static_cast<std::uint64_t>(n * (n - 1) / 2));
      std::vector<kds::EntryId> reversed(ids.rbegin(), ids.rend());
      EXPECT_EQ(kds::testing::order_of(list), reversed);
      const kds::Statistics& s = sim.statistics();
      // All at one exact time (1/3 is not a double: equality must be recognised exactly).
      EXPECT_EQ(s.events_at_equal_times, s.events - 1) << s;
      ASSERT_TRUE(sorted_at(sim, list, 1.0));  // after the meeting point
      EXPECT_TRUE(std::isinf(sim.next_event_time().lo())) << "no more crossings";
    }
  }
}

TEST(SortedListDegenerate, TouchingWithoutCrossing) {
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::vector<kds::testing::Swap> swaps;
  record_swaps(list, sim, swaps);
  const auto ground = insert_point(sim, list, Motion<1>::constant({0.0}));
  const auto touch_at_1 = insert_point(sim, list, cubic(0.0, 1.0, -2.0, 1.0, 0.0));      // (t - 1)^2
  const auto touch_at_third = insert_point(sim, list, cubic(0.0, 1.0, -6.0, 9.0, 0.0));  // (3t - 1)^2
  const auto cross_twice = insert_point(sim, list, cubic(0.0, 1.0 - 0x1p-40, -2.0, 1.0, 0.0));  // (t-1)^2 - 2^-40
  sim.run_until(3.0);
  // Only the last one dips below the ground (twice: down and up again); the others touch it.
  std::vector<kds::EntryId> crossed_ground;
  for (const kds::testing::Swap& s : swaps) {
    if (s.left == ground) crossed_ground.push_back(s.right);
    if (s.right == ground) crossed_ground.push_back(s.left);
  }
  EXPECT_EQ(crossed_ground, (std::vector<kds::EntryId>{cross_twice, cross_twice}));
  ASSERT_EQ(swaps.size() >= 2, true);
  EXPECT_EQ(list.rank(ground), 0u);
  EXPECT_TRUE(sorted_at(sim, list, 3.0));
  (void)touch_at_1;
  (void)touch_at_third;
  // A point touching another from above at a non-double time, both moving.
  kds::Simulator sim2({.audit = true});
  kds::SortedList list2(sim2);
  insert_point(sim2, list2, Motion<1>::linear(0.0, {0.0}, {1.0}));
  insert_point(sim2, list2, cubic(0.0, 1.0, -5.0, 9.0, 0.0));  // t + (3t - 1)^2
  sim2.run_until(2.0);
  EXPECT_EQ(list2.swaps(), 0u);
}

TEST(SortedListDegenerate, PointsCoincidingAtTimeZero) {
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  const auto up = insert_point(sim, list, Motion<1>::linear(0.0, {0.0}, {1.0}));
  const auto down = insert_point(sim, list, Motion<1>::linear(0.0, {0.0}, {-1.0}));
  const auto still = insert_point(sim, list, Motion<1>::constant({0.0}));
  const auto flat_then_up = insert_point(sim, list, cubic(0.0, 0.0, 0.0, 1.0, 0.0));  // t^2: after "still", before "up"
  EXPECT_EQ(kds::testing::order_of(list), (std::vector<kds::EntryId>{down, still, flat_then_up, up}));
  sim.run_until(0.5);
  EXPECT_EQ(list.swaps(), 0u);
  sim.run_until(1.5);  // t^2 overtakes t at t = 1
  EXPECT_EQ(list.swaps(), 1u);
  EXPECT_EQ(kds::testing::order_of(list), (std::vector<kds::EntryId>{down, still, up, flat_then_up}));
}

TEST(SortedListDegenerate, EventsAtTimeZero) {
  // A motion change at t = 0 puts a point on the wrong side of two others: it fails at once.
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::vector<kds::testing::Swap> swaps;
  record_swaps(list, sim, swaps);
  const auto a = insert_point(sim, list, Motion<1>::constant({0.0}));
  const auto b = insert_point(sim, list, Motion<1>::constant({1.0}));
  const auto c = insert_point(sim, list, Motion<1>::constant({2.0}));
  const kds::BodyId body_a = body_of(list, a);
  sim.bodies().set_motion(body_a, Motion<1>::constant({5.0}));
  EXPECT_EQ(kds::compare(sim.next_event_time(), 0.0), 0) << "the list's certificate on a was not rescheduled";
  ASSERT_TRUE(sim.step());
  ASSERT_TRUE(sim.step());
  EXPECT_FALSE(sim.step());
  EXPECT_EQ(kds::testing::order_of(list), (std::vector<kds::EntryId>{b, c, a}));
  ASSERT_EQ(swaps.size(), 2u);
  EXPECT_EQ(swaps[0].time, 0.0);
  EXPECT_EQ(swaps[1].time, 0.0);
  EXPECT_EQ(kds::compare(sim.now(), 0.0), 0);
  // The point comes back through the others later, and meets c exactly at x = 2, t = 1.
  sim.bodies().set_motion(body_a, Motion<1>::linear(0.0, {5.0}, {-3.0}));
  sim.run_until(1.0);
  EXPECT_EQ(kds::testing::order_of(list), (std::vector<kds::EntryId>{b, a, c}));
  sim.run_until(2.0);
  EXPECT_EQ(kds::testing::order_of(list), (std::vector<kds::EntryId>{a, b, c}));
}

TEST(SortedListDegenerate, IdenticalMotions) {
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::vector<kds::EntryId> twins;
  for (int i = 0; i < 5; ++i) twins.push_back(insert_point(sim, list, Motion<1>::linear(0.0, {1.0}, {0.5})));
  // Same motions about other start times: still identical functions of time.
  twins.push_back(insert_point(sim, list, Motion<1>::linear(2.0, {2.0}, {0.5})));
  const auto runner = insert_point(sim, list, Motion<1>::linear(0.0, {0.0}, {2.0}));  // overtakes them at t = 2/3
  sim.run_until(5.0);
  // The runner passes each twin once; twins never swap among themselves.
  EXPECT_EQ(list.swaps(), twins.size());
  EXPECT_EQ(list.order().back(), runner);
  EXPECT_TRUE(sorted_at(sim, list, 5.0));
  // Insertion puts a new twin after the existing ones.
  const auto late = insert_point(sim, list, Motion<1>::linear(0.0, {1.0}, {0.5}));
  EXPECT_EQ(list.rank(late), twins.size());
  sim.run_until(6.0);
  EXPECT_EQ(list.swaps(), twins.size());
}

TEST(SortedListDegenerate, InsertEraseAndSetMotionWhileRunning) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int round = 0; round < 6; ++round) {
    kds::Simulator sim({.audit = true});
    kds::SortedList list(sim);
    std::vector<kds::EntryId> live;
    for (int i = 0; i < 20; ++i) live.push_back(insert_point(sim, list, random_motion(rng, 1 + i % 3)));
    double t = 0;
    for (int op = 0; op < 120; ++op) {
      t += std::uniform_real_distribution<double>(0.0, 0.05)(rng);
      sim.run_until(t);
      if (const auto sample = sim.time_between_events(t + 1.0))
        ASSERT_TRUE(sorted_at(sim, list, *sample)) << "round " << round << ", op " << op;
      const int what = std::uniform_int_distribution<int>(0, 3)(rng);
      if (what == 0 || live.size() < 3) {
        live.push_back(insert_point(sim, list, random_motion(rng, 1 + op % 3, t)));
      } else if (what == 1) {
        std::size_t i = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
        erase_point(sim, list, live[i]);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        std::size_t i = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
        const kds::BodyId body = body_of(list, live[i]);
        // A new motion from now, continuing from the current position (or jumping, now and then).
        auto m = random_motion(rng, 1 + op % 3, t);
        if (what == 2) {
          auto c = m.coefficients(0);
          c[0] = sim.bodies().motion(body).coordinate<kds::Rational>(0, t)[0].get_d();
          m = Motion<1>::polynomial(t, {c});
        }
        // The body is in exactly the list's certificates with its neighbours, and the
        // motion change reschedules exactly those.
        const std::size_t rank = list.rank(live[i]);
        const std::size_t neighbours = (rank > 0) + (rank + 1 < list.size());
        std::size_t held = 0;
        for (const kds::BodyLink& l : sim.bodies().certificates_of(body)) {
          const auto* c = dynamic_cast<const kds::SortedList::Certificate*>(l.owner());
          ASSERT_NE(c, nullptr);
          EXPECT_TRUE(c->lower() == live[i] || c->upper() == live[i]);
          ++held;
        }
        EXPECT_EQ(held, neighbours);
        const auto rescheduled = sim.statistics().certificates_rescheduled;
        sim.bodies().set_motion(body, m);
        EXPECT_EQ(sim.statistics().certificates_rescheduled, rescheduled + neighbours);
        EXPECT_EQ(sim.bodies().motion(body).start(), t);
      }
      // A step right after a change may be at exactly now (a jump fails at once).
      while (kds::compare(sim.next_event_time(), sim.now()) == 0) sim.step();
    }
    EXPECT_EQ(list.size(), live.size());
    EXPECT_EQ(sim.bodies().size(), live.size());
    EXPECT_EQ(sim.certificate_count(), live.size() - 1);
  }
}

TEST(SortedListDegenerate, SetMotionAtAnAlgebraicTime) {
  // Stop at a swap at t = 1/3 (not a double), then change a motion: the clock rounds up to
  // a double, and the motion may start there but not before.
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  const auto a = insert_point(sim, list, Motion<1>::linear(0.0, {0.0}, {3.0}));
  const auto b = insert_point(sim, list, Motion<1>::constant({1.0}));
  const kds::BodyId body_a = body_of(list, a);
  ASSERT_TRUE(sim.step());
  EXPECT_FALSE(sim.now().is_point());
  const double rounded = sim.round_clock();
  EXPECT_GE(rounded, 1.0 / 3.0);
  EXPECT_EQ(kds::compare(sim.now(), rounded), 0);
  EXPECT_THROW(sim.bodies().set_motion(body_a, Motion<1>::linear(std::nextafter(rounded, 0.0), {1.0}, {-3.0})),
               kds::InvalidInput);
  sim.bodies().set_motion(body_a, Motion<1>::linear(rounded, {1.0}, {-3.0}));  // turns back now
  EXPECT_EQ(kds::testing::order_of(list), (std::vector<kds::EntryId>{b, a}));
  sim.run_until(1.0);
  EXPECT_EQ(kds::testing::order_of(list), (std::vector<kds::EntryId>{a, b}));
  EXPECT_EQ(list.swaps(), 2u);
}

TEST(SortedListDegenerate, MotionChangeOfABodyInTwoKeys) {
  // One body in two keys of the same list (its x and its x + 1): a motion change
  // reschedules the certificates of both entries, and the list stays sorted.
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  const kds::BodyId mover = sim.bodies().insert(Motion<1>::constant({0.0}));
  const kds::BodyId wall = sim.bodies().insert(Motion<1>::constant({3.0}));
  const auto x = list.insert(kds::Key::coordinate(mover));
  const auto x_plus_1 = list.insert(kds::Key::coordinate(mover, 0, 1.0));
  const auto w = list.insert(kds::Key::coordinate(wall));
  EXPECT_EQ(sim.bodies().holders(mover), 2u);
  EXPECT_EQ(kds::testing::order_of(list), (std::vector<kds::EntryId>{x, x_plus_1, w}));
  sim.run_until(1.0);
  sim.bodies().set_motion(mover, Motion<1>::linear(1.0, {0.0}, {1.0}));  // x + 1 reaches 3 at t = 3, x at t = 4
  sim.run_until(3.5);
  EXPECT_EQ(kds::testing::order_of(list), (std::vector<kds::EntryId>{x, w, x_plus_1}));
  sim.run_until(5.0);
  EXPECT_EQ(kds::testing::order_of(list), (std::vector<kds::EntryId>{w, x, x_plus_1}));
  EXPECT_EQ(list.swaps(), 2u);
  EXPECT_TRUE(sorted_at(sim, list, 5.0));
}

// A regression test: after a swap at a time that is not a double, the clock's exact value
// is computed lazily from the failed certificate's function. Erasing one of its entries,
// or erasing it and inserting a new key in the same entry, must not change that function
// (Order keeps copies of its keys), or round_clock() would read an erased key or round
// below the event time.
TEST(SortedListDegenerate, EraseAtAnAlgebraicEventTimeKeepsTheClock) {
  for (bool reinsert : {true, false}) {
    SCOPED_TRACE(reinsert ? "erase and insert" : "erase");
    kds::Simulator sim;
    kds::SortedList list(sim);
    insert_point(sim, list, Motion<1>::constant({0.0}));
    const auto parabola = insert_point(sim, list, cubic(0.0, -2.0, 0.0, 1.0, 0.0));  // t^2 - 2
    ASSERT_TRUE(sim.step());  // the swap at sqrt(2)
    ASSERT_FALSE(sim.now().is_point());
    erase_point(sim, list, parabola);
    if (reinsert) EXPECT_EQ(insert_point(sim, list, Motion<1>::linear(0.0, {5.0}, {-1.0})), parabola);
    const double rounded = sim.round_clock();
    EXPECT_GE(kds::Rational(rounded) * kds::Rational(rounded), kds::Rational(2))
        << "the clock went back before sqrt(2): " << rounded;
  }
}

TEST(SortedListDegenerate, DestroyingTheListAtAnEventPinsTheClock) {
  // The clock is the root of one of the list's certificates (sqrt 2, no double): its
  // source reads the list's keys, which go with the list. The clock must not read them
  // after (first_failure reads an unpinned clock's source: Function::same_or_negated).
  kds::Simulator sim;
  const kds::BodyId a = sim.bodies().insert(Motion<1>::constant({0.0}));
  const kds::BodyId b = sim.bodies().insert(cubic(0.0, -2.0, 0.0, 1.0, 0.0));  // t^2 - 2
  auto list = std::make_unique<kds::SortedList>(sim);
  list->insert(kds::Key::coordinate(a));
  list->insert(kds::Key::coordinate(b));
  ASSERT_TRUE(sim.step());  // the swap at sqrt(2)
  ASSERT_FALSE(sim.now().is_point());
  EXPECT_FALSE(sim.now().pinned());
  list.reset();
  EXPECT_TRUE(sim.now().pinned());
  EXPECT_TRUE(sim.now().has_exact());
  const double rounded = sim.round_clock();
  EXPECT_GE(kds::Rational(rounded) * kds::Rational(rounded), kds::Rational(2));
}

TEST(SortedListDegenerate, SwapsSayWhetherTheKeysAreEqualNow) {
  // A crossing at a double time and one at sqrt 2 (the failed certificates' own roots):
  // the keys are equal now. A body that jumps across two others: its swaps come at once,
  // from certificates found out of order, its key far from the others'.
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::vector<bool> equal_now;
  list.on_swap().subscribe([&](kds::EntryId, kds::EntryId) { equal_now.push_back(list.swap_keys_equal_now()); });
  insert_point(sim, list, Motion<1>::linear(0.0, {0.0}, {1.0}));  // meets the next at t = 1
  insert_point(sim, list, Motion<1>::constant({1.0}));
  insert_point(sim, list, cubic(0.0, -2.0 + 5.0, 0.0, 1.0, 0.0));  // t^2 + 3: passes 5 at sqrt 2
  insert_point(sim, list, Motion<1>::constant({5.0}));
  const auto jumper = insert_point(sim, list, Motion<1>::constant({10.0}));
  ASSERT_TRUE(sim.step());
  ASSERT_TRUE(sim.step());
  EXPECT_FALSE(sim.now().is_point()) << "the second swap is at sqrt 2";
  EXPECT_EQ(equal_now, (std::vector<bool>{true, true}));
  const double t = sim.round_clock();
  sim.bodies().set_motion(body_of(list, jumper), Motion<1>::linear(t, {4.5}, {0.0}));  // below 5 and t^2 + 3
  while (kds::compare(sim.next_event_time(), sim.now()) == 0) sim.step();
  EXPECT_EQ(equal_now, (std::vector<bool>{true, true, false, false}));
  EXPECT_TRUE(sorted_at(sim, list, t));
  // Points x_i = i (1 - 3t) all meet at t = 1/3: the first swap fails at its own root; a
  // pair made adjacent at that instant has another multiple of 1 - 3t (not the clock's
  // function up to sign), so its time comes from the exact path and the list does not
  // claim its keys equal, though they are: false means "not known".
  kds::Simulator sim2({.audit = true});
  kds::SortedList list2(sim2);
  std::vector<bool> meeting;
  list2.on_swap().subscribe([&](kds::EntryId, kds::EntryId) { meeting.push_back(list2.swap_keys_equal_now()); });
  for (int i = 0; i < 5; ++i) insert_point(sim2, list2, Motion<1>::linear(0.0, {double(i)}, {-3.0 * i}));
  sim2.run_until(1.0);
  ASSERT_EQ(meeting.size(), 10u);
  EXPECT_TRUE(meeting[0]);
  EXPECT_GT(std::count(meeting.begin(), meeting.end(), false), 0);
  EXPECT_FALSE(list2.swap_keys_equal_now()) << "outside on_swap";
}

// ---------------------------------------------------------------- bad input

TEST(SortedListBadInput, ErrorsNameTheEntryOrBodyAndTheProblem) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  const auto a = insert_point(sim, list, Motion<1>::constant({0.0}));
  const auto b = insert_point(sim, list, Motion<1>::linear(0.0, {1.0}, {1.0}));
  const kds::BodyId body_b = body_of(list, b);
  // Motions are validated by the bodies, which name the body and the coefficient.
  expect_invalid([&] { insert_point(sim, list, cubic(0.0, 0.0, nan, 0.0, 0.0)); },
                 {"Bodies::insert: new body: motion coefficient x[t^1] is NaN"});
  expect_invalid([&] { insert_point(sim, list, cubic(0.0, 0.0, 0.0, 0.0, -inf)); }, {"x[t^3] is -infinity"});
  expect_invalid([&] { insert_point(sim, list, cubic(inf, 0.0, 0.0, 0.0, 0.0)); }, {"start time is +infinity"});
  EXPECT_EQ(list.size(), 2u) << "a rejected point must not be added";
  EXPECT_EQ(sim.bodies().size(), 2u);
  expect_invalid([&] { sim.bodies().set_motion(body_b, cubic(1.0, inf, 0.0, 0.0, 0.0)); },
                 {"Bodies::set_motion: body " + std::to_string(body_b.index), "coefficient x[t^0] is +infinity"});
  sim.run_until(1.0);
  expect_invalid([&] { sim.bodies().set_motion(body_b, Motion<1>::linear(0.5, {0.0}, {1.0})); },
                 {"Bodies::set_motion: body " + std::to_string(body_b.index), "motion replaced at t = 0.5",
                  "before the current time 1"});
  EXPECT_EQ(sim.bodies().motion(body_b).start(), 0.0) << "a rejected motion must not be kept";
  expect_invalid([&] { list.erase(42); }, {"SortedList::erase: entry 42 is not in the list"});
  expect_invalid([&] { list.key(42); }, {"SortedList::key: entry 42 is not in the list"});
  list.erase(a);
  expect_invalid([&] { list.erase(a); }, {"SortedList::erase: entry " + std::to_string(a) + " is not in the list"});
  expect_invalid([&] { list.rank(a); }, {"entry " + std::to_string(a)});
  expect_invalid([&] { sim.run_until(0.5); }, {"run_until", "before the current time"});
  EXPECT_TRUE(sim.audit());
  EXPECT_NO_THROW(sim.run_until(2.0));
  EXPECT_TRUE(sorted_at(sim, list, 2.0));
}

/// The list's state that bad input must leave alone.
struct Snapshot {
  std::vector<kds::EntryId> order;
  std::size_t certificates;
  std::size_t bodies;
  bool operator==(const Snapshot&) const = default;
};
Snapshot snapshot(const kds::Simulator& sim, const kds::SortedList& list) {
  return {kds::testing::order_of(list), sim.certificate_count(), sim.bodies().size()};
}

TEST(SortedListBadInput, KeysNamingBodiesThatCannotBeUsed) {
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::vector<kds::EntryId> entries;
  for (double x : {0.0, 1.0, 2.0}) entries.push_back(insert_point(sim, list, Motion<1>::linear(0.0, {x}, {-x})));
  sim.run_until(0.25);
  // A stale body: erased, its index then reused by a new body.
  const kds::BodyId erased = sim.bodies().insert(Motion<1>::constant({5.0}));
  sim.bodies().erase(erased);
  sim.run_until(0.5);  // indices are reused once the clock moves on
  const kds::BodyId reused = sim.bodies().insert(Motion<1>::constant({6.0}));
  ASSERT_EQ(reused.index, erased.index);
  // A body of another simulator.
  kds::Simulator other;
  const kds::BodyId foreign = other.bodies().insert(Motion<1>::constant({0.5}));
  const Snapshot before = snapshot(sim, list);

  const std::string stale = "SortedList::insert: body " + std::to_string(erased.index) + " was erased (a stale id)";
  expect_invalid([&] { list.insert(kds::Key::coordinate(erased)); }, {stale});
  expect_invalid([&] { list.insert(kds::Key::difference(kds::Key::coordinate(reused), kds::Key::coordinate(erased))); },
                 {stale});
  expect_invalid([&] { list.insert(kds::Key::squared_distance(erased, reused)); }, {stale});
  EXPECT_EQ(sim.bodies().holders(reused), 0u) << "a rejected key must not hold its other bodies";
  expect_invalid([&] { list.insert(kds::Key::coordinate(foreign)); },
                 {"SortedList::insert: body " + std::to_string(foreign.index) + " belongs to another simulator"});
  EXPECT_EQ(other.bodies().holders(foreign), 0u);
  // No body at all, and a 1D body's y.
  expect_invalid([&] { list.insert(kds::Key::coordinate(kds::BodyId::none())); }, {"SortedList::insert: no body given"});
  expect_invalid([&] { list.insert(kds::Key::coordinate(reused, 1)); },
                 {"SortedList::insert: body " + std::to_string(reused.index) + " has dimension 1, no axis 1"});
  EXPECT_TRUE(snapshot(sim, list) == before) << "a rejected key changed the list";
  EXPECT_TRUE(sim.audit());

  // Erasing a body the list holds: refused, naming it, and nothing changes.
  const kds::BodyId held = body_of(list, entries[1]);
  expect_invalid([&] { sim.bodies().erase(held); },
                 {"Bodies::erase: body " + std::to_string(held.index) + " is still held by 1 structure"});
  EXPECT_TRUE(sim.bodies().contains(held));
  EXPECT_TRUE(snapshot(sim, list) == before);
  EXPECT_TRUE(sim.audit());
  // Once the list lets it go, it may be erased, and the list goes on.
  list.erase(entries[1]);
  EXPECT_EQ(sim.bodies().holders(held), 0u);
  EXPECT_NO_THROW(sim.bodies().erase(held));
  EXPECT_NO_THROW(sim.run_until(3.0));
  EXPECT_TRUE(sorted_at(sim, list, 3.0));
  EXPECT_EQ(list.swaps(), 1u);  // x = 0 and x = 2 - 2t cross at t = 1
}

}  // namespace
