// Keys: built-in keys evaluate exactly what they name, a user's key is written once over
// the number type, bad keys are refused by the structures with the body named, and a
// sorted list orders derived keys (extremes, squared distances, a user's key) of shared
// bodies as brute force does.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <string>

#include "kds/key.hpp"
#include "structures/sorted_list/sorted_list.hpp"
#include "test_seed.hpp"

namespace {

using kds::BodyId;
using kds::Key;
using kds::Motion;
using kds::Rational;

Rational at(const kds::Simulator& sim, const Key& k, double t) { return k.value<Rational>(sim.bodies(), 0.0)(Rational(t)); }

/// A user's key: the height a ball thrown up would reach, z + vz^2 / (2 g), scaled by 2g
/// (dyadic numbers, one of the four number types, have no division): 2 g z + vz^2.
struct ApexHeight : kds::KeyOf<ApexHeight> {
  ApexHeight(BodyId b, double g) : body(b), g(g) {}
  kds::BodyList bodies() const override { return {body}; }
  template <class NT>
  kds::Polynomial<NT> function(const kds::Bodies& bodies, double origin) const {
    const kds::Polynomial<NT> z = bodies.coordinate<NT>(body, 2, origin);
    const kds::Polynomial<NT> vz = z.derivative();
    return kds::Polynomial<NT>(NT(NT(2.0) * NT(g))) * z + vz * vz;
  }
  BodyId body;
  double g;
};

TEST(Keys, ValuesAreExact) {
  kds::Simulator sim;
  const BodyId a = sim.bodies().insert(Motion<3>::linear(0.0, {1, 2, 3}, {1, 0, -1}));
  const BodyId b = sim.bodies().insert(Motion<3>::accelerated(1.0, {0, 0, 0}, {0, 1, 0}, {2, 0, 0}));
  EXPECT_EQ(at(sim, Key::coordinate(a, 0, 0.25), 2.0), Rational(13, 4));   // 1 + 2 + 1/4
  EXPECT_EQ(at(sim, Key::coordinate(b, 1, -0.5), 3.0), Rational(3, 2));    // (3 - 1) - 1/2
  const Key gap = Key::difference(Key::coordinate(a, 0, 0.1), Key::coordinate(b, 0, 0.3));
  // (x_a + 0.1) - (x_b + 0.3) at t = 2: (3 + 0.1) - (1 + 0.3), the offsets kept exact as doubles.
  EXPECT_EQ(at(sim, gap, 2.0), Rational(3) + Rational(0.1) - Rational(1) - Rational(0.3));
  // |a - b|^2 at t = 1: (2, 2, 2) - (0, 0, 0).
  EXPECT_EQ(at(sim, Key::squared_distance(a, b), 1.0), Rational(12));
  EXPECT_EQ(gap.bodies().size(), 2u);
  EXPECT_EQ(Key::difference(Key::coordinate(a), Key::coordinate(a, 1)).bodies().size(), 1u) << "no repeats";
  const Key apex = Key::custom(std::make_shared<ApexHeight>(a, 4.0));
  EXPECT_EQ(at(sim, apex, 0.0), Rational(25));  // 2 * 4 * 3 + (-1)^2
  EXPECT_THROW(Key::difference(gap, Key::coordinate(a)), kds::InvalidInput);
  EXPECT_THROW(Key::custom(nullptr), kds::InvalidInput);
}

TEST(Keys, StructuresRefuseBadKeysAndStayIntact) {
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  const BodyId line = sim.bodies().insert(Motion<1>::linear(0.0, {0.0}, {1.0}));
  const BodyId gone = sim.bodies().insert(Motion<1>::constant({1.0}));
  list.insert(Key::coordinate(line));
  sim.bodies().erase(gone);
  kds::Simulator other;
  const BodyId foreign = other.bodies().insert(Motion<1>::constant({0.0}));
  auto message = [&](const Key& k) {
    try {
      list.insert(k);
    } catch (const kds::InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(message(Key::coordinate(gone)), "SortedList::insert: body 1 was erased (a stale id)");
  EXPECT_EQ(message(Key::coordinate(foreign)), "SortedList::insert: body 0 belongs to another simulator");
  EXPECT_EQ(message(Key::coordinate(line, 1)), "SortedList::insert: body 0 has dimension 1, no axis 1");
  EXPECT_EQ(message(Key::difference(Key::coordinate(line), Key::coordinate(gone))),
            "SortedList::insert: body 1 was erased (a stale id)");
  EXPECT_EQ(message(Key::coordinate(line, 0, std::numeric_limits<double>::infinity())),
            "SortedList::insert: a key's offset must be finite (got inf)");
  EXPECT_EQ(message(Key::coordinate(line, 0, std::numeric_limits<double>::quiet_NaN())),
            "SortedList::insert: a key's offset must be finite (got nan)");
  EXPECT_EQ(list.size(), 1u);
  EXPECT_EQ(sim.bodies().holders(line), 1u);
  EXPECT_THROW(sim.bodies().erase(line), kds::InvalidInput);
  EXPECT_TRUE(sim.audit());
}

TEST(Keys, SortedListOverDerivedKeysOfSharedBodies) {
  std::mt19937_64 rng(kds::testing::test_seed());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  kds::Simulator sim({.audit = true});
  std::vector<BodyId> balls;
  for (int i = 0; i < 12; ++i)
    balls.push_back(sim.bodies().insert(Motion<3>::linear(0.0, {5 * u(rng), 5 * u(rng), 5 * u(rng)}, {u(rng), u(rng), u(rng)})));
  // Three lists over the same bodies: interval extremes on x (radius 0.5), squared
  // distances to body 0, and the user's apex height.
  kds::SortedList extremes(sim), distances(sim), apex(sim);
  for (BodyId b : balls) {
    extremes.insert(Key::coordinate(b, 0, -0.5));
    extremes.insert(Key::coordinate(b, 0, +0.5));
    if (b != balls[0]) distances.insert(Key::squared_distance(balls[0], b));
    apex.insert(Key::custom(std::make_shared<ApexHeight>(b, 9.81)));
  }
  auto sorted = [&](const kds::SortedList& list, double t) {
    for (std::size_t i = 0; i + 1 < list.size(); ++i)
      if (at(sim, list.key(list.order()[i]), t) > at(sim, list.key(list.order()[i + 1]), t)) return false;
    return true;
  };
  for (int step = 1; step <= 8; ++step) {
    sim.run_until(0.5 * step);
    EXPECT_TRUE(sorted(extremes, sim.now_approx()) && sorted(distances, sim.now_approx()) && sorted(apex, sim.now_approx()));
    // Kick a body: every list over it is rescheduled from the one motion change.
    const BodyId b = balls[rng() % balls.size()];
    const double t = sim.round_clock();
    const auto p = sim.bodies().motion(b).position(t);
    sim.bodies().set_motion(b, Motion<3>::linear(t, p, {u(rng), u(rng), u(rng)}));
  }
  EXPECT_GT(extremes.swaps() + distances.swaps() + apex.swaps(), 10u);
  EXPECT_GE(sim.statistics().audits + sim.statistics().audits_skipped, sim.statistics().events);
}

}  // namespace
