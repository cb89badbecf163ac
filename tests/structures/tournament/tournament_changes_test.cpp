// The kinetic tournament under inserts, erases and motion changes while it runs, and its
// errors on bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "brute_force_max.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

Motion<1> line(double t0, double x0, double v) { return Motion<1>::linear(t0, {x0}, {v}); }

TEST(TournamentChanges, RandomInsertEraseSetMotionWhileRunning) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("KDS_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<ObjectId> points;
  std::uint64_t changes = 0;
  t.on_maximum_change([&](ObjectId previous, ObjectId current) {
    EXPECT_NE(previous, current);
    EXPECT_EQ(current, t.max());
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
      points.push_back(t.insert(Motion<1>::polynomial(now, {c})));
    } else if (op == 1) {
      std::uniform_int_distribution<std::size_t> pick(0, points.size() - 1);
      const std::size_t i = pick(rng);
      t.erase(points[i]);
      points.erase(points.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      std::uniform_int_distribution<std::size_t> pick(0, points.size() - 1);
      const ObjectId id = points[pick(rng)];
      // Jump to the current maximum's position (a tie at once) or keep going from here.
      const double x = std::uniform_int_distribution<int>(0, 1)(rng) == 0
                           ? t.motion(t.max()).position(now)[0]
                           : t.motion(id).position(now)[0];
      t.set_motion(id, line(now, x, std::uniform_real_distribution<double>(-2, 2)(rng)));
    }
    // A new motion may break certificates: they fail at once, at the current time.
    sim.run_until(now);
    expect_max_at(t, points, now);
    now += 0.25;
    run_checked(sim, t, points, now);
    if (HasFailure()) return;
  }
  EXPECT_EQ(sim.certificate_count(), points.size() - 1);
  EXPECT_GE(changes, t.leader_changes());
}

TEST(TournamentChanges, EraseDownToEmptyAndRefill) {
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<ObjectId> points;
  for (int i = 0; i < 9; ++i) points.push_back(t.insert(line(0.0, i, -i)));
  run_checked(sim, t, points, 2.0);
  std::vector<std::pair<ObjectId, ObjectId>> changes;
  t.on_maximum_change([&](ObjectId a, ObjectId b) { changes.emplace_back(a, b); });
  while (!points.empty()) {
    t.erase(points.back());
    points.pop_back();
    expect_max_at(t, points, 2.0);
    EXPECT_EQ(sim.certificate_count(), points.empty() ? 0 : points.size() - 1);
  }
  EXPECT_EQ(t.max(), no_object);
  ASSERT_FALSE(changes.empty());
  EXPECT_EQ(changes.back().second, no_object);
  EXPECT_EQ(sim.object_count(), 0u);
  points.push_back(t.insert(line(2.0, 1.0, 1.0)));
  points.push_back(t.insert(line(2.0, 2.0, 0.0)));
  run_checked(sim, t, points, 4.0);
  EXPECT_EQ(t.max(), points[0]);
}

TEST(TournamentChanges, SetMotionAfterAnEventAtAnIrrationalTime) {
  // x0 = t^2 - 2 crosses 0 at sqrt(2): the motion change happens at a rounded double.
  Simulator sim({.audit = true});
  Tournament t(sim);
  std::vector<ObjectId> points{t.insert(Motion<1>::constant({0.0})),
                               t.insert(Motion<1>::polynomial(0.0, {{{-2.0, 0.0, 1.0, 0.0}}}))};
  ObjectId leader_then = no_object;
  t.on_maximum_change([&](ObjectId, ObjectId current) {
    leader_then = current;
    t.set_motion(points[0], line(sim.round_clock(), 0.0, 10.0));
  });
  sim.step();
  EXPECT_EQ(leader_then, points[1]);
  run_checked(sim, t, points, 3.0);
  EXPECT_EQ(t.max(), points[0]);
}

TEST(TournamentChanges, BadInputNamesThePointAndTheProblem) {
  Simulator sim;
  Tournament t(sim);
  const ObjectId a = t.insert(line(0.0, 0.0, 1.0));
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("no InvalidInput");
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Motions are validated by the structure that receives them, which names the point.
  EXPECT_EQ(message([&] { t.insert(line(0.0, nan, 1.0)); }), "Tournament::insert: new point: motion coefficient x[t^0] is NaN");
  EXPECT_EQ(message([&] { t.erase(a + 7); }), "Tournament::erase: point " + std::to_string(a + 7) +
                                                    " is not in the tournament");
  EXPECT_EQ(message([&] { t.set_motion(a + 7, line(0.0, 0.0, 0.0)); }),
            "Tournament::set_motion: point " + std::to_string(a + 7) + " is not in the tournament");
  EXPECT_EQ(message([&] { t.set_motion(a, line(0.0, 0.0, std::numeric_limits<double>::infinity())); }),
            "Tournament::set_motion: point " + std::to_string(a) + ": motion coefficient x[t^1] is +infinity");
  EXPECT_EQ(t.size(), 1u);
  sim.run_until(1.0);
  EXPECT_NE(message([&] { t.set_motion(a, line(0.5, 0.0, 0.0)); }).find(
                "Tournament::set_motion: point " + std::to_string(a) + ": motion replaced at t = 0.5, before"),
            std::string::npos);
  EXPECT_EQ(message([&] { (void)t.motion(a + 7); }), "Tournament::motion: point " + std::to_string(a + 7) +
                                                         " is not in the tournament");
  t.erase(a);
  EXPECT_EQ(message([&] { t.erase(a); }), "Tournament::erase: point " + std::to_string(a) +
                                              " is not in the tournament");
  EXPECT_EQ(t.size(), 0u);
}

}  // namespace
}  // namespace kds::testing
