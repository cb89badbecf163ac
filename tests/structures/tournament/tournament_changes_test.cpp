// The kinetic tournament under inserts, erases, motion changes of its bodies and new keys
// while it runs; its callback contract; and its errors on bad input, after each of which
// it still passes its audit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <iterator>
#include <limits>
#include <memory>

#include "brute_force_winner.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

Motion<1> line(double t0, double x0, double v) { return Motion<1>::linear(t0, {x0}, {v}); }

std::size_t certificates_on(const Simulator& sim, BodyId b) {
  const auto& l = sim.bodies().certificates_of(b);
  return static_cast<std::size_t>(std::distance(l.begin(), l.end()));
}

TEST(TournamentChanges, RandomInsertEraseSetMotionWhileRunning) {
  const std::uint64_t seed = test_seed();
  for (Extremum extremum : {Extremum::largest, Extremum::smallest}) {
    SCOPED_TRACE("KDS_TEST_SEED=" + std::to_string(seed) +
                 (extremum == Extremum::largest ? ", largest" : ", smallest"));
    std::mt19937_64 rng(seed);
    Simulator sim({.audit = true});
    Tournament t(sim, extremum);
    std::vector<EntryId> points;
    std::uint64_t changes = 0;
    t.on_winner_change().subscribe([&](EntryId previous, EntryId current) {
      EXPECT_NE(previous, current);
      EXPECT_EQ(current, t.winner());
      ++changes;
    });
    std::uniform_int_distribution<int> operation(0, 3);
    double now = 0;
    for (int round = 0; round < 60; ++round) {
      const int op = points.size() < 3 ? 0 : operation(rng);
      if (op == 0 || op == 3) {
        // A new point, its motion written about the current time.
        Motion<1> m = (op == 0 ? random_motion : random_integer_motion)(rng);
        auto c = m.coefficients(0);
        points.push_back(insert_point(sim, t, Motion<1>::polynomial(now, {c})));
      } else if (op == 1) {
        std::uniform_int_distribution<std::size_t> pick(0, points.size() - 1);
        const std::size_t i = pick(rng);
        const BodyId b = body_of(t, points[i]);
        t.erase(points[i]);
        EXPECT_EQ(certificates_on(sim, b), 0u) << "an erased entry keeps certificates";
        sim.bodies().erase(b);
        points.erase(points.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        std::uniform_int_distribution<std::size_t> pick(0, points.size() - 1);
        const BodyId b = body_of(t, points[pick(rng)]);
        // Jump to the current winner's position (a tie at once) or keep going from here.
        const BodyId from = std::uniform_int_distribution<int>(0, 1)(rng) == 0 ? body_of(t, t.winner()) : b;
        const double x = sim.bodies().motion(from).position(now)[0];
        // The motion change reschedules exactly the tournament's certificates on the body.
        const std::size_t held = certificates_on(sim, b);
        EXPECT_LE(held, static_cast<std::size_t>(t.height()));
        const auto rescheduled = sim.statistics().certificates_rescheduled;
        sim.bodies().set_motion(b, line(now, x, std::uniform_real_distribution<double>(-2, 2)(rng)));
        EXPECT_EQ(sim.statistics().certificates_rescheduled, rescheduled + held);
      }
      // A new motion may break certificates: they fail at once, at the current time.
      sim.run_until(now);
      expect_winner_at(sim, t, points, now);
      now += 0.25;
      run_checked(sim, t, points, now);
      if (HasFailure()) return;
    }
    EXPECT_EQ(sim.certificate_count(), points.size() - 1);
    EXPECT_EQ(sim.bodies().size(), points.size());
    EXPECT_GE(changes, t.leader_changes());
  }
}

TEST(TournamentChanges, EraseDownToEmptyAndRefill) {
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<EntryId> points;
  for (int i = 0; i < 9; ++i) points.push_back(insert_point(sim, t, line(0.0, i, -i)));
  run_checked(sim, t, points, 2.0);
  std::vector<std::pair<EntryId, EntryId>> changes;
  t.on_winner_change().subscribe([&](EntryId a, EntryId b) { changes.emplace_back(a, b); });
  while (!points.empty()) {
    const BodyId b = body_of(t, points.back());
    t.erase(points.back());
    sim.bodies().erase(b);
    points.pop_back();
    expect_winner_at(sim, t, points, 2.0);
    EXPECT_EQ(sim.certificate_count(), points.empty() ? 0 : points.size() - 1);
  }
  EXPECT_EQ(t.winner(), no_entry);
  ASSERT_FALSE(changes.empty());
  EXPECT_EQ(changes.back().second, no_entry);
  EXPECT_EQ(sim.bodies().size(), 0u);
  points.push_back(insert_point(sim, t, line(2.0, 1.0, 1.0)));
  points.push_back(insert_point(sim, t, line(2.0, 2.0, 0.0)));
  run_checked(sim, t, points, 4.0);
  EXPECT_EQ(t.winner(), points[0]);
}

TEST(TournamentChanges, SetMotionAfterAnEventAtAnIrrationalTime) {
  // x0 = t^2 - 2 crosses 0 at sqrt(2): the motion change happens at a rounded double.
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<EntryId> points{insert_point(sim, t, Motion<1>::constant({0.0})),
                              insert_point(sim, t, Motion<1>::polynomial(0.0, {{{-2.0, 0.0, 1.0, 0.0}}}))};
  EntryId leader_then = no_entry;
  t.on_winner_change().subscribe([&](EntryId, EntryId current) {
    leader_then = current;
    // Callbacks may change motions, also of the tournament's own bodies.
    sim.bodies().set_motion(body_of(t, points[0]), line(sim.round_clock(), 0.0, 10.0));
  });
  sim.step();
  EXPECT_EQ(leader_then, points[1]);
  run_checked(sim, t, points, 3.0);
  EXPECT_EQ(t.winner(), points[0]);
}

/// A random motion of degree 1 or 2 from t = 0 that keeps the points within a few units
/// of each other over [0, 10], so that keys built from them cross often.
Motion<1> crowded_motion(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const bool accelerated = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
  return Motion<1>::polynomial(0.0, {{{2 * unit(rng), unit(rng), accelerated ? 0.1 * unit(rng) : 0.0, 0.0}}});
}

/// A user's key: the product of two bodies' coordinates, written once over the number type.
struct Product final : KeyOf<Product> {
  Product(BodyId a, BodyId b) : a(a), b(b) {}
  BodyList bodies() const override { return {a, b}; }
  template <class NT>
  Polynomial<NT> function(const Bodies& bodies, double origin) const {
    return bodies.coordinate<NT>(a, 0, origin) * bodies.coordinate<NT>(b, 0, origin);
  }
  BodyId a, b;
};

/// A random key over `bodies`: a coordinate plus an offset, a gap, a squared distance or a
/// product (two bodies may be the same one: a zero gap, a square).
Key random_key(std::mt19937_64& rng, const std::vector<BodyId>& bodies) {
  std::uniform_int_distribution<std::size_t> pick(0, bodies.size() - 1);
  const BodyId a = bodies[pick(rng)], b = bodies[pick(rng)];
  switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
    case 0:
      return Key::coordinate(a, 0, 0.5 * std::uniform_int_distribution<int>(-1, 1)(rng));
    case 1:
      return Key::difference(Key::coordinate(a), Key::coordinate(b));
    case 2:
      return Key::squared_distance(a, b);
    default:
      return Key::custom(std::make_shared<Product>(a, b));
  }
}

TEST(TournamentChanges, SetKeyAtRandomEventTimes) {
  // Keys replaced at event times (algebraic ones included) and between them, checked
  // against brute force strictly between every two events without moving the clock.
  const std::uint64_t seed = test_seed();
  std::size_t replaced_at_events = 0, replaced_at_algebraic_times = 0, total_events = 0;
  for (Extremum extremum : {Extremum::largest, Extremum::smallest}) {
    for (std::uint64_t round = 0; round < 6; ++round) {
      SCOPED_TRACE("KDS_TEST_SEED=" + std::to_string(seed) + ", round " + std::to_string(round) +
                   (extremum == Extremum::largest ? ", largest" : ", smallest"));
      std::mt19937_64 rng(seed + round);
      Simulator sim({.audit = true});
      Tournament t(sim, extremum);
      std::vector<BodyId> bodies;
      for (int i = 0; i < 8; ++i)
        bodies.push_back(sim.bodies().insert(round % 2 == 0 ? crowded_motion(rng) : random_integer_motion(rng)));
      std::vector<EntryId> entries;
      for (int i = 0; i < 16; ++i) entries.push_back(t.insert(random_key(rng, bodies)));
      std::uint64_t changes = 0;
      t.on_winner_change().subscribe([&](EntryId previous, EntryId current) {
        EXPECT_NE(previous, current);
        EXPECT_EQ(current, t.winner());
        ++changes;
      });
      std::uniform_real_distribution<double> coin(0.0, 1.0);
      auto replace_one = [&] {
        const EntryId e = entries[std::uniform_int_distribution<std::size_t>(0, entries.size() - 1)(rng)];
        const Key key = random_key(rng, bodies);
        t.set_key(e, key);
        const BodyList now_bodies = t.key(e).bodies(), expected = key.bodies();
        EXPECT_TRUE(std::equal(now_bodies.begin(), now_bodies.end(), expected.begin(), expected.end()));
      };
      const double until = 10.0;
      for (;;) {
        if (const auto mid = sim.time_between_events(until)) {
          expect_winner_at(sim, t, entries, *mid);
          if (HasFailure()) return;
          if (coin(rng) < 0.1) {  // now and then at a double time between events
            sim.run_until(*mid);
            replace_one();
            continue;
          }
        }
        const Root next = sim.next_event_time();
        if (next.is_infinite() || compare(next, until) > 0) break;
        ASSERT_TRUE(sim.step());
        ++total_events;
        if (coin(rng) < 0.4) {
          replaced_at_algebraic_times += !sim.now().is_point();
          replace_one();
          ++replaced_at_events;
        }
      }
      sim.run_until(until);
      expect_winner_at(sim, t, entries, until);
      EXPECT_EQ(sim.certificate_count(), entries.size() - 1);
      EXPECT_GE(changes, t.leader_changes());
      // Every body is held once per entry whose key names it: set_key released the old bodies.
      for (BodyId b : bodies) {
        std::uint32_t naming = 0;
        for (EntryId e : entries) {
          const BodyList l = t.key(e).bodies();
          naming += std::find(l.begin(), l.end(), b) != l.end();
        }
        EXPECT_EQ(sim.bodies().holders(b), naming) << "body " << b;
      }
    }
  }
  RecordProperty("events", std::to_string(total_events));
  RecordProperty("replaced_at_events", std::to_string(replaced_at_events));
  std::cout << "[ events   ] " << total_events << ", keys replaced at " << replaced_at_events << " of them ("
            << replaced_at_algebraic_times << " at times that are not doubles)\n";
  EXPECT_GE(replaced_at_events, 10u) << "too few keys replaced at events to test set_key";
  EXPECT_GE(replaced_at_algebraic_times, 5u);
}

TEST(TournamentChanges, ChangingTheTournamentFromItsOwnCallbackThrows) {
  // Lines tangent to t^2 at t = c: x(t) = 2 c t - c^2. The one tangent nearest to t leads,
  // so the lead passes from c to c + 1 at t = c + 1/2: nine changes of leader in [0, 10].
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<EntryId> points;
  for (int c : {3, 7, 0, 9, 5, 1, 8, 2, 6, 4}) points.push_back(insert_point(sim, t, line(0.0, -c * c, 2 * c)));
  const BodyId spare = sim.bodies().insert(Motion<1>::constant({0.0}));
  const std::string refused = "called from one of this tournament's own callbacks";
  std::size_t calls = 0, audited = 0, once = 0;
  t.on_winner_change().subscribe([&](EntryId, EntryId current) {
    ++calls;
    const std::size_t certificates = sim.certificate_count();
    EXPECT_EQ(invalid_input_message([&] { t.insert(Key::coordinate(spare)); }), "Tournament::insert: " + refused);
    EXPECT_EQ(invalid_input_message([&] { t.erase(current); }), "Tournament::erase: " + refused);
    EXPECT_EQ(invalid_input_message([&] { t.set_key(current, Key::coordinate(spare)); }),
              "Tournament::set_key: " + refused);
    EXPECT_EQ(t.winner(), current);
    EXPECT_TRUE(t.contains(current));
    EXPECT_NE(body_of(t, current), spare);
    EXPECT_EQ(sim.bodies().holders(spare), 0u);
    EXPECT_EQ(sim.certificate_count(), certificates);
    bool ran = false;
    EXPECT_NO_THROW(ran = sim.audit());
    audited += ran;
  });
  // Unsubscribing itself inside its first call: it never runs again.
  SubscriptionId self = 0;
  self = t.on_winner_change().subscribe([&](EntryId, EntryId) {
    ++once;
    t.on_winner_change().unsubscribe(self);
  });
  run_checked(sim, t, points, 10.0);
  ASSERT_EQ(t.leader_changes(), 9u);
  // An insert that takes the lead tells the callbacks too.
  points.push_back(insert_point(sim, t, line(10.0, 100.0, 0.0)));
  EXPECT_EQ(t.winner(), points.back());
  EXPECT_EQ(calls, t.leader_changes() + 1);
  EXPECT_EQ(once, 1u);
  EXPECT_GT(audited, 0u);
  EXPECT_TRUE(sim.audit());
}

// A regression test (found by SetKeyAtRandomEventTimes): after an event at a time that is
// not a double, the clock's exact value is computed lazily from the failed certificate's
// function. Replacing or erasing a key must not change that function (Order keeps copies
// of its keys), or round_clock() would round below the event time or read an erased key.
TEST(TournamentChanges, KeyChangeAtAnAlgebraicEventTimeKeepsTheClock) {
  for (bool erase : {false, true}) {
    SCOPED_TRACE(erase ? "erase" : "set_key");
    Simulator sim;
    Tournament t(sim);
    insert_point(sim, t, Motion<1>::constant({0.0}));
    const EntryId parabola = insert_point(sim, t, Motion<1>::polynomial(0.0, {{{-2.0, 0.0, 1.0, 0.0}}}));  // t^2 - 2
    const BodyId other = sim.bodies().insert(line(0.0, 5.0, -1.0));
    ASSERT_TRUE(sim.step());  // the parabola takes the lead at sqrt(2)
    ASSERT_FALSE(sim.now().is_point());
    if (erase) t.erase(parabola);
    else t.set_key(parabola, Key::coordinate(other));
    const double rounded = sim.round_clock();
    EXPECT_GE(Rational(rounded) * Rational(rounded), Rational(2)) << "the clock went back before sqrt(2): " << rounded;
  }
}

/// A user's key on three bodies: one too many.
struct Sum3 final : KeyOf<Sum3> {
  Sum3(BodyId x, BodyId y, BodyId z) : x(x), y(y), z(z) {}
  BodyList bodies() const override { return {x, y, z}; }
  template <class NT>
  Polynomial<NT> function(const Bodies& bs, double origin) const {
    return bs.coordinate<NT>(x, 0, origin) + bs.coordinate<NT>(y, 0, origin) + bs.coordinate<NT>(z, 0, origin);
  }
  BodyId x, y, z;
};

TEST(TournamentChanges, BadInputNamesTheEntryOrBodyAndTheProblem) {
  Simulator sim({.audit = true});
  Tournament t(sim);
  const EntryId a = insert_point(sim, t, line(0.0, 0.0, 1.0));
  const EntryId b = insert_point(sim, t, line(0.0, 1.0, 0.0));
  const BodyId body_a = body_of(t, a), body_b = body_of(t, b);
  const std::string a7 = std::to_string(a + 7), ia = std::to_string(body_a.index);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Motions are validated by the bodies, which name the body and the coefficient.
  EXPECT_EQ(invalid_input_message([&] { insert_point(sim, t, line(0.0, nan, 1.0)); }),
            "Bodies::insert: new body: motion coefficient x[t^0] is NaN");
  EXPECT_EQ(invalid_input_message([&] { t.erase(a + 7); }), "Tournament::erase: entry " + a7 + " is not in the tournament");
  EXPECT_EQ(invalid_input_message([&] { t.set_key(a + 7, Key::coordinate(body_a)); }),
            "Tournament::set_key: entry " + a7 + " is not in the tournament");
  EXPECT_EQ(invalid_input_message([&] { (void)t.key(a + 7); }), "Tournament::key: entry " + a7 + " is not in the tournament");
  EXPECT_EQ(invalid_input_message([&] { sim.bodies().set_motion(body_a, line(0.0, 0.0, std::numeric_limits<double>::infinity())); }),
            "Bodies::set_motion: body " + ia + ": motion coefficient x[t^1] is +infinity");
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(sim.bodies().size(), 2u);
  sim.run_until(2.0);
  EXPECT_EQ(t.winner(), a);  // a passed b at t = 1
  EXPECT_NE(invalid_input_message([&] { sim.bodies().set_motion(body_a, line(0.5, 0.0, 0.0)); })
                .find("Bodies::set_motion: body " + ia + ": motion replaced at t = 0.5, before"),
            std::string::npos);
  EXPECT_EQ(sim.bodies().motion(body_a).start(), 0.0) << "a rejected motion must not be kept";

  // Keys naming bodies that cannot be used: nothing changes, and the audit passes.
  const BodyId erased = sim.bodies().insert(Motion<1>::constant({5.0}));
  sim.bodies().erase(erased);
  sim.run_until(sim.now().hi() + 0.125);  // indices are reused once the clock moves on
  const BodyId reused = sim.bodies().insert(Motion<1>::constant({6.0}));
  ASSERT_EQ(reused.index, erased.index);
  Simulator other;
  const BodyId foreign = other.bodies().insert(Motion<1>::constant({0.5}));
  const std::string ie = std::to_string(erased.index), ir = std::to_string(reused.index);
  EXPECT_EQ(invalid_input_message([&] { t.insert(Key::coordinate(erased)); }),
            "Tournament::insert: body " + ie + " was erased (a stale id)");
  EXPECT_EQ(invalid_input_message([&] { t.set_key(b, Key::squared_distance(reused, erased)); }),
            "Tournament::set_key: body " + ie + " was erased (a stale id)");
  EXPECT_EQ(invalid_input_message([&] { t.insert(Key::coordinate(foreign)); }),
            "Tournament::insert: body " + std::to_string(foreign.index) + " belongs to another simulator");
  EXPECT_EQ(invalid_input_message([&] { t.set_key(a, Key::coordinate(foreign)); }),
            "Tournament::set_key: body " + std::to_string(foreign.index) + " belongs to another simulator");
  EXPECT_EQ(invalid_input_message([&] { t.insert(Key::coordinate(reused, 1)); }),
            "Tournament::insert: body " + ir + " has dimension 1, no axis 1");
  EXPECT_EQ(invalid_input_message([&] { t.set_key(a, Key::coordinate(body_b, 2)); }),
            "Tournament::set_key: body " + std::to_string(body_b.index) + " has dimension 1, no axis 2");
  EXPECT_EQ(invalid_input_message([&] { t.insert(Key::custom(nullptr)); }), "Key::custom: no key source given");
  EXPECT_EQ(invalid_input_message([&] { t.insert(Key::custom(std::make_shared<Sum3>(body_a, body_b, reused))); }),
            "Tournament::insert: a key depends on at most two bodies");
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.winner(), a);
  EXPECT_EQ(body_of(t, a), body_a) << "a rejected key must not replace the old one";
  EXPECT_EQ(body_of(t, b), body_b);
  EXPECT_EQ(sim.bodies().holders(reused), 0u);
  EXPECT_EQ(other.bodies().holders(foreign), 0u);
  EXPECT_EQ(sim.certificate_count(), 1u);
  EXPECT_TRUE(sim.audit());

  // Erasing a body the tournament holds: refused, naming it.
  EXPECT_EQ(invalid_input_message([&] { sim.bodies().erase(body_b); }),
            "Bodies::erase: body " + std::to_string(body_b.index) +
                " is still held by 1 structure(s); remove it from them first");
  EXPECT_TRUE(sim.bodies().contains(body_b));
  EXPECT_TRUE(t.contains(b));
  EXPECT_TRUE(sim.audit());

  t.erase(a);
  EXPECT_EQ(invalid_input_message([&] { t.erase(a); }), "Tournament::erase: entry " + std::to_string(a) +
                                                            " is not in the tournament");
  EXPECT_EQ(t.size(), 1u);
  EXPECT_NO_THROW(sim.bodies().erase(body_a));
  EXPECT_NO_THROW(sim.run_until(3.0));
  EXPECT_EQ(t.winner(), b);
}

}  // namespace
}  // namespace kds::testing
