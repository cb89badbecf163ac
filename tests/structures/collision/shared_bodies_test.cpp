// One set of bodies, three structures: a sorted list of the spheres' x-extremes, a
// tournament of their heights, and a collision world, all over the same bodies of one
// simulator. Each is checked against brute force between events, and the world must find
// exactly the contacts it finds alone (the other structures watch; they change nothing).
// A motion change made from outside (a flight-plan update) reaches all three.
#include <gtest/gtest.h>

#include <random>

#include "collision_world_support.hpp"
#include "structures/sorted_list/sorted_list.hpp"
#include "structures/tournament/tournament.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

Rational exact_key(const Simulator& sim, const Key& k, const Rational& t) { return k.value<Rational>(sim.bodies(), 0.0)(t); }

::testing::AssertionResult list_sorted(const Simulator& sim, const SortedList& list, const Rational& t) {
  for (std::size_t i = 0; i + 1 < list.size(); ++i)
    if (exact_key(sim, list.key(list.order()[i]), t) > exact_key(sim, list.key(list.order()[i + 1]), t))
      return ::testing::AssertionFailure() << "ranks " << i << " and " << i + 1 << " out of order";
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult tournament_right(const Simulator& sim, const Tournament& t, const std::vector<EntryId>& entries,
                                            const Rational& time) {
  Rational best = exact_key(sim, t.key(entries[0]), time);
  for (EntryId e : entries) best = std::max(best, exact_key(sim, t.key(e), time));
  if (exact_key(sim, t.key(t.winner()), time) != best) return ::testing::AssertionFailure() << "the winner is not the highest";
  return ::testing::AssertionSuccess();
}

std::vector<Contact> world_alone(const std::vector<Sphere>& spheres, const std::string& broad_phase, double until) {
  WorldRun run(spheres, world_settings(cube(40), broad_phase));
  EXPECT_TRUE(run.run_until(until));
  return run.contacts();
}

TEST(SharedBodies, SortedListTournamentAndCollisionWorldOverOneSetOfBodies) {
  std::mt19937_64 rng(test_seed());
  SceneSpec spec;
  spec.n = 30;
  spec.box = 40;
  spec.r_min = 0.5;
  spec.r_max = 2;
  spec.speed = 5;
  const std::vector<Sphere> spheres = random_scene(rng, spec);
  const double until = 4.0;
  for (const char* broad_phase : {"tvb-grid", "all-pairs"}) {
    SCOPED_TRACE(broad_phase);
    Simulator sim({.audit = true});
    std::vector<BodyId> bodies;
    for (const Sphere& s : spheres) bodies.push_back(sim.bodies().insert(Motion<3>::linear(0.0, s.position, s.velocity)));
    SortedList extremes(sim);
    Tournament highest(sim);
    std::vector<EntryId> heights;
    for (std::size_t i = 0; i < spheres.size(); ++i) {
      extremes.insert(Key::coordinate(bodies[i], 0, -spheres[i].radius));
      extremes.insert(Key::coordinate(bodies[i], 0, +spheres[i].radius));
      heights.push_back(highest.insert(Key::coordinate(bodies[i], 2)));
    }
    CollisionWorld world(sim, world_settings(cube(40), broad_phase), spheres, bodies);
    std::uint64_t events = 0, checked = 0;
    while (compare(sim.next_event_time(), until) <= 0) {
      ASSERT_TRUE(sim.step());
      ++events;
      if (const auto t = sim.time_between_events(until)) {
        const Rational rt(*t);
        ASSERT_TRUE(list_sorted(sim, extremes, rt)) << "after event " << events;
        ASSERT_TRUE(tournament_right(sim, highest, heights, rt)) << "after event " << events;
        ++checked;
      }
    }
    sim.run_until(until);
    EXPECT_GT(world.sphere_contacts(), 5u);
    EXPECT_GT(extremes.swaps(), 20u);
    EXPECT_GT(checked, events / 2);
    // The other structures watched the same motions and changed nothing.
    EXPECT_TRUE(same_contacts(world.contacts(), world_alone(spheres, broad_phase, until)));
    EXPECT_TRUE(same_contacts(world.contacts(), world_alone(spheres, "all-pairs", until)));
  }
}

TEST(SharedBodies, AMotionChangeFromOutsideReachesEveryStructure) {
  Simulator sim({.audit = true});
  // Two spheres flying apart on x, a third at rest; the sorted list orders their centres.
  const std::vector<Sphere> spheres{ball({10, 20, 20}, {-1, 0, 0}), ball({30, 20, 20}, {1, 0, 0}), ball({20, 30, 20}, {0, 0, 0})};
  std::vector<BodyId> bodies;
  for (const Sphere& s : spheres) bodies.push_back(sim.bodies().insert(Motion<3>::linear(0.0, s.position, s.velocity)));
  SortedList xs(sim);
  for (BodyId b : bodies) xs.insert(Key::coordinate(b));
  CollisionWorld world(sim, world_settings(cube(40), "tvb-grid"), spheres, bodies);
  sim.run_until(1.0);
  EXPECT_EQ(world.sphere_contacts(), 0u);
  // A flight-plan update: sphere 0 turns towards sphere 2's column and speeds up, so that
  // it now crosses it on x and meets it.
  const double t = sim.round_clock();
  const Vec<3> p = sim.bodies().motion(bodies[0]).position(t);
  sim.bodies().set_motion(bodies[0], Motion<3>::linear(t, p, {11.0 / 3.0, 10.0 / 3.0, 0.0}));
  sim.run_until(6.0);
  ASSERT_GE(world.sphere_contacts(), 1u) << "the world heard of the new motion";
  EXPECT_EQ(world.contacts().front().a, 0u);
  EXPECT_EQ(world.contacts().front().b, 2u);
  // |p0 - p2| = 2 along the new straight line: (1 - s/3) sqrt(221) = 2, s after t = 1.
  EXPECT_NEAR(world.contacts().front().time, 1.0 + 3.0 * (1.0 - 2.0 / std::sqrt(221.0)), 1e-12);
  EXPECT_TRUE(list_sorted(sim, xs, Rational(6.0))) << "the list follows the new motions too";
  EXPECT_TRUE(sim.audit());
}

}  // namespace
}  // namespace kds::testing
