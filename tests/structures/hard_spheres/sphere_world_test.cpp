// Sphere worlds by name (structures/sphere_worlds.hpp): "hard-spheres" and the collision
// world over all-pairs, its brute-force twin, through the one SphereWorld interface the
// programs use. On a random lattice scene (seed printed, KDS_TEST_SEED to replay) and a
// degenerate one (a Newton's cradle: simultaneous contacts, touching at time 0) both give
// the same contacts, states and energies, stopping at the same run_until targets; progress
// observers hear of every event, so that an event budget stops both right after event
// N + 1; the names are listed; what hard-spheres cannot do is refused with an
// InvalidInput naming the setting; both audit after every event when asked to.
#include "structures/sphere_worlds.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/tvb_grid/lattice_scene.hpp"
#include "kds/errors.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/broad_phase_registry.hpp"
#include "structures/collision/collision_world_model.hpp"
#include "structures/hard_spheres/hard_sphere_world_model.hpp"
#include "test_seed.hpp"

namespace {

using kds::Contact;
using kds::Sphere;

kds::SphereWorldOptions no_audit() {
  kds::SphereWorldOptions o;
  o.audit = false;
  return o;
}

Sphere ball(kds::Vec<3> x, kds::Vec<3> v) {
  Sphere s;
  s.position = x;
  s.velocity = v;
  s.radius = 1;
  s.mass = 1;
  return s;
}

/// Runs both structures to the same stops and compares everything the interface reports.
void expect_same_run(const std::vector<Sphere>& spheres, const kds::Box3& box, const std::vector<double>& stops) {
  kds::CollisionWorldSettings settings;
  settings.box = box;
  const auto reference = kds::make_sphere_world("all-pairs", settings, spheres, no_audit());
  const auto fast = kds::make_sphere_world("hard-spheres", settings, spheres, no_audit());
  EXPECT_EQ(reference->structure(), "all-pairs");
  EXPECT_EQ(fast->structure(), "hard-spheres");
  ASSERT_EQ(fast->size(), spheres.size());
  for (double t : stops) {
    SCOPED_TRACE("t = " + std::to_string(t));
    reference->run_until(t);
    fast->run_until(t);
    EXPECT_EQ(fast->now(), t);
    const std::vector<Contact>& a = reference->contacts();
    const std::vector<Contact>& b = fast->contacts();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(a[k].time, b[k].time) << "contact " << k;
      EXPECT_EQ(a[k].a, b[k].a) << "contact " << k;
      EXPECT_EQ(a[k].with_wall, b[k].with_wall) << "contact " << k;
      if (!a[k].with_wall) EXPECT_EQ(a[k].b, b[k].b) << "contact " << k;
    }
    EXPECT_EQ(reference->sphere_contacts(), fast->sphere_contacts());
    EXPECT_EQ(reference->wall_contacts(), fast->wall_contacts());
    for (kds::SphereId i = 0; i < spheres.size(); ++i) {
      EXPECT_EQ(reference->state(i, t).position, fast->state(i, t).position) << "sphere " << i;
      EXPECT_EQ(reference->state(i, t).velocity, fast->state(i, t).velocity) << "sphere " << i;
    }
    EXPECT_EQ(reference->kinetic_energy(t), fast->kinetic_energy(t));
  }
  EXPECT_GT(fast->sphere_contacts(), 0u);
}

TEST(SphereWorlds, HardSpheresAnswersAsAllPairsOnARandomScene) {
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(64, 0.3, seed);
  expect_same_run(scene.spheres, scene.box, {0.5, 1.25, 1.25, 3});
}

TEST(SphereWorlds, HardSpheresAnswersAsAllPairsOnANewtonsCradle) {
  // Five touching spheres on a line, the first moving into them at t = 0: simultaneous
  // contacts at one instant, then walls.
  std::vector<Sphere> spheres{ball({3, 5, 5}, {2, 0, 0})};
  for (int k = 1; k < 5; ++k) spheres.push_back(ball({3.0 + 2 * k, 5, 5}, {0, 0, 0}));
  expect_same_run(spheres, kds::Box3{{0, 0, 0}, {20, 10, 10}}, {0, 1, 10});
}

TEST(SphereWorlds, ProgressObserversHearOfTheRun) {
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(27, 0.3, 7);
  kds::CollisionWorldSettings settings;
  settings.box = scene.box;
  for (const char* name : {"all-pairs", "hard-spheres"}) {
    SCOPED_TRACE(name);
    const auto world = kds::make_sphere_world(name, settings, scene.spheres, no_audit());
    double last_time = 0;
    std::uint64_t last_events = 0, calls = 0, contacts = 0;
    world->on_progress([&](double t, std::uint64_t events) {
      EXPECT_GE(t, last_time);
      EXPECT_GE(events, last_events);
      last_time = t;
      last_events = events;
      ++calls;
    });
    world->on_contact([&](const Contact&) { ++contacts; });
    world->run_until(2);
    EXPECT_GT(calls, 0u);
    EXPECT_EQ(contacts, world->contacts().size());
    EXPECT_LE(last_events, world->events());
    EXPECT_GE(world->events(), world->contacts().size());
    std::ostringstream events, statistics;
    world->write_events(events);
    world->write_statistics(statistics);
    EXPECT_NE(events.str().find("Events by type:"), std::string::npos);
    EXPECT_NE(events.str().find("total             " + std::to_string(world->events())), std::string::npos);
    EXPECT_NE(statistics.str().find("Exact fallbacks: "), std::string::npos);
  }
}

TEST(SphereWorlds, NamesEveryBroadPhaseAndHardSpheres) {
  const std::vector<std::string> names = kds::sphere_world_names();
  for (const std::string& n : kds::broad_phase_names())
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  EXPECT_NE(std::find(names.begin(), names.end(), "hard-spheres"), names.end());
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_NE(kds::sphere_world_list().find("hard-spheres"), std::string::npos);
}

/// The InvalidInput's message, or "" if none was thrown.
std::string refusal(const std::string& name, const kds::CollisionWorldSettings& settings,
                    const std::vector<Sphere>& spheres, const kds::SphereWorldOptions& options = no_audit()) {
  try {
    kds::make_sphere_world(name, settings, spheres, options);
  } catch (const kds::InvalidInput& e) {
    return e.what();
  }
  return "";
}

TEST(SphereWorlds, RefusesWhatItCannotDoNamingTheSetting) {
  kds::CollisionWorldSettings settings;
  settings.box = kds::Box3{{0, 0, 0}, {10, 10, 10}};
  const std::vector<Sphere> spheres{ball({2, 2, 2}, {1, 0, 0}), ball({6, 2, 2}, {-1, 0, 0})};
  EXPECT_NE(refusal("kd-tree", settings, spheres).find("unknown structure 'kd-tree' (known: all-pairs"), std::string::npos);

  kds::SphereWorldOptions floating = no_audit();
  floating.exactness = kds::Exactness::floating;
  EXPECT_EQ(refusal("all-pairs", settings, spheres, floating), "");
  EXPECT_NE(refusal("hard-spheres", settings, spheres, floating).find("hard-spheres: no floating-point-only mode"),
            std::string::npos);

  kds::CollisionWorldSettings gravity = settings;
  gravity.gravity = {0, 0, -9.81};
  EXPECT_EQ(refusal("all-pairs", gravity, spheres), "");
  EXPECT_NE(refusal("hard-spheres", gravity, spheres).find("hard-spheres: gravity must be 0"), std::string::npos);

  std::vector<Sphere> unknown = spheres;
  unknown[1].max_acceleration = 2;
  EXPECT_NE(refusal("hard-spheres", settings, unknown).find("sphere 1: has an unknown trajectory (max_acceleration > 0)"),
            std::string::npos);

  // Bad input: the same words from both.
  std::vector<Sphere> overlapping = spheres;
  overlapping[1].position = {3, 2, 2};
  const std::string reference = refusal("all-pairs", settings, overlapping);
  EXPECT_NE(reference, "");
  EXPECT_EQ(refusal("hard-spheres", settings, overlapping), reference);
}

TEST(SphereWorlds, OnlyTheSimulatorDrivenWorldHasASimulatorAndACollisionWorld) {
  kds::CollisionWorldSettings settings;
  settings.box = kds::Box3{{0, 0, 0}, {10, 10, 10}};
  const std::vector<Sphere> spheres{ball({2, 2, 2}, {1, 0, 0})};
  const auto reference = kds::make_sphere_world("tvb-grid", settings, spheres, no_audit());
  EXPECT_NE(reference->simulator(), nullptr);
  ASSERT_NE(reference->collision_world(), nullptr);
  EXPECT_EQ(reference->collision_world()->settings().broad_phase, "tvb-grid");
  const auto fast = kds::make_sphere_world("hard-spheres", settings, spheres, no_audit());
  EXPECT_EQ(fast->simulator(), nullptr);
  EXPECT_EQ(fast->collision_world(), nullptr);
}

TEST(SphereWorlds, HardSpheresAuditsAfterEveryEventAsTheCollisionWorldDoes) {
  // Audits after every event (skipped where no double lies before the next) and at the
  // end of every run_until, for both; hard-spheres also after the setup.
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(27, 0.3, 11);
  kds::CollisionWorldSettings settings;
  settings.box = scene.box;
  kds::SphereWorldOptions audited;
  audited.audit = true;
  const std::vector<double> stops{0.5, 1.0, 2.0};
  kds::HardSphereWorldModel world(settings, scene.spheres, audited);
  for (double t : stops) world.run_until(t);
  EXPECT_GT(world.events(), 50u);
  EXPECT_EQ(world.audits() + world.audits_skipped(), 1 + world.events() + stops.size());
  EXPECT_GT(world.audits(), world.events() / 2);
  std::ostringstream out;
  world.write_statistics(out);
  EXPECT_NE(out.str().find("Audits: " + std::to_string(world.audits()) + " passed, " +
                           std::to_string(world.audits_skipped()) + " skipped"),
            std::string::npos)
      << out.str();

  kds::CollisionWorldModel reference(settings, scene.spheres, audited);
  for (double t : stops) reference.run_until(t);
  const kds::Statistics& s = reference.simulator()->statistics();
  EXPECT_EQ(s.audits + s.audits_skipped, reference.events() + stops.size());
}

TEST(SphereWorlds, AnEventBudgetStopsAtTheSameEventInBothWorlds) {
  // Progress observers hear of every event, numbered 1, 2, 3, ... (hard-spheres: contact
  // events and cell crossings): a budget of N events that throws once more than N were
  // processed stops the run right after event N + 1, at its time, as kds_spheres
  // --max-events does.
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(64, 0.3, seed);
  kds::CollisionWorldSettings settings;
  settings.box = scene.box;
  struct Budget {};
  for (const char* name : {"all-pairs", "hard-spheres"}) {
    SCOPED_TRACE(name);
    std::vector<double> times;  // of event k + 1
    std::vector<std::size_t> contacts_before;  // contacts logged by then
    {
      const auto world = kds::make_sphere_world(name, settings, scene.spheres, no_audit());
      world->on_progress([&](double t, std::uint64_t events) {
        ASSERT_EQ(events, times.size() + 1);
        times.push_back(t);
        contacts_before.push_back(world->contacts().size());
      });
      world->run_until(2);
      ASSERT_EQ(times.size(), world->events());
    }
    ASSERT_GT(times.size(), 200u);
    for (std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{7}, std::uint64_t{times.size() / 2}}) {
      SCOPED_TRACE("budget " + std::to_string(budget));
      const auto world = kds::make_sphere_world(name, settings, scene.spheres, no_audit());
      double stopped_at = -1;
      world->on_progress([&](double t, std::uint64_t events) {
        if (events > budget) {
          stopped_at = t;
          throw Budget{};
        }
      });
      EXPECT_THROW(world->run_until(2), Budget);
      EXPECT_EQ(world->events(), budget + 1);
      EXPECT_EQ(stopped_at, times[budget]);
      EXPECT_EQ(world->contacts().size(), contacts_before[budget]);
    }
  }
}

}  // namespace
