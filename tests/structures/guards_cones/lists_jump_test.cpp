// Guards and cones with centre lists ("guards-cones-lists") when a body's motion changes
// by a jump (a flight-plan update): its entries are erased from the box and facet lists
// and reinserted where they now belong, and what the jump changes is recomputed. Against
// all-pairs (the same jumps, the same contacts in order), with the structure's audit
// after every event and the simulator's audit (every certificate) every few events.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <random>

#include "collision_world_support.hpp"
#include "guards_scenes.hpp"
#include "lists_scenes.hpp"
#include "structures/guards_cones/guards_cones_lists.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

/// A flight-plan update: sphere `id` restarts at time `t` from `p` with velocity `v`.
struct Jump {
  double t;
  SphereId id;
  Vec<3> p, v;
};

/// Runs w to t_end with the jumps applied at their times. Audited (audit = true): the
/// broad phase's audit after each of the first `close` events after the start and after
/// each jump (where a jump's repair shows) and every `every` events otherwise, the
/// simulator's (every certificate) after each jump and at the end. The facet lists make
/// hundreds of thousands of swaps per time unit, too many to audit every one.
std::uint64_t run_with_jumps(WorldRun& w, const std::vector<Jump>& jumps, double t_end, bool audit,
                             std::uint64_t close = 200, std::uint64_t every = 1000) {
  std::uint64_t events = 0, since = 0, audits = 0;
  auto until = [&](double t) {
    while (compare(w.sim->next_event_time(), t) <= 0) {
      w.sim->step();
      ++events;
      if (audit && (++since <= close || events % every == 0)) {
        const auto when = w.sim->time_between_events(t);
        if (when) {
          ++audits;
          EXPECT_NO_THROW(w.world->broad_phase().audit(AuditContext{*when})) << "after event " << events;
        }
      }
      if (events > 3'000'000) {
        ADD_FAILURE() << "event cap reached";
        return;
      }
    }
    w.sim->run_until(t);
  };
  for (const Jump& j : jumps) {
    until(j.t);
    const auto start = std::chrono::steady_clock::now();
    w.sim->bodies().set_motion(w.world->body(j.id), Motion<3>::linear(j.t, j.p, j.v));
    if (audit)
      std::cout << "[ jump     ] sphere " << j.id << " at t = " << j.t << ": motion change and repair "
                << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() * 1e3 << " ms\n";
    since = 0;
    if (audit) {
      EXPECT_NO_THROW(w.sim->audit()) << "after the jump at t = " << j.t;
    }
  }
  until(t_end);
  if (audit) {
    EXPECT_NO_THROW(w.sim->audit()) << "at the end";
    EXPECT_GT(audits, close) << "the broad phase's audit ran";
  }
  return events;
}

/// guards-cones-lists (audited) and all-pairs with the same jumps: the same contacts, in
/// order. Returns the lists variant's contacts.
std::vector<Contact> jump_twins(const std::vector<Sphere>& spheres, const CollisionWorldSettings& settings,
                                const std::vector<Jump>& jumps, double t_end, const char* what) {
  auto s = settings;
  s.broad_phase = kLists;
  WorldRun w(spheres, s);
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t events = 0;
  EXPECT_NO_THROW(events = run_with_jumps(w, jumps, t_end, true));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  s.broad_phase = "all-pairs";
  WorldRun a(spheres, s);
  EXPECT_NO_THROW(run_with_jumps(a, jumps, t_end, false));
  EXPECT_TRUE(same_contacts(w.contacts(), a.contacts()));
  const auto& gl = dynamic_cast<const GuardsConesLists&>(w.world->broad_phase());
  EXPECT_EQ(gl.jumps(), jumps.size()) << "every jump erased and reinserted its body";
  std::cout << "[ jump     ] " << what << ": " << spheres.size() << " spheres, " << jumps.size() << " jumps, "
            << events << " events, " << w.contacts().size() << " contacts, " << gl.jump_entries()
            << " entries reinserted, " << seconds << " s audited\n";
  return w.contacts();
}

bool free_at(const WorldRun& w, SphereId id, const Vec<3>& p, double t, double clearance) {
  for (SphereId j = 0; j < w.world->size(); ++j) {
    if (j == id) continue;
    const Vec<3> q = w.world->state(j, t).position;
    if (std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) <= w.world->sphere(id).radius + w.world->sphere(j).radius + clearance)
      return false;
  }
  return true;
}

/// Where `id` may jump to at time t so as to hit sphere `target` soon: `gap` away from
/// it along a random direction, moving straight at it with `speed` (relative to the
/// target's own motion); nullopt if that spot is taken or outside the box.
std::optional<Jump> jump_into(const WorldRun& w, SphereId id, SphereId target, double t, double gap, double speed,
                              std::mt19937_64& rng, double box) {
  std::normal_distribution<double> nd(0, 1);
  Vec<3> u{nd(rng), nd(rng), nd(rng)};
  const double l = std::hypot(u[0], u[1], u[2]);
  const SphereState s = w.world->state(target, t);
  const double d = w.world->sphere(id).radius + w.world->sphere(target).radius + gap;
  Vec<3> p, v;
  for (int k = 0; k < 3; ++k) {
    u[k] /= l;
    p[k] = s.position[k] + d * u[k];
    v[k] = s.velocity[k] - speed * u[k];
    if (p[k] < w.world->sphere(id).radius + 0.1 || p[k] > box - w.world->sphere(id).radius - 0.1) return std::nullopt;
  }
  if (!free_at(w, id, p, t, 0.05)) return std::nullopt;
  return Jump{t, id, p, v};
}

// The jump of the member variant's flight-plan test (grazing_test.cpp): sphere 0 of a
// random scene of 8 restarts far away (at least 6 of the box's 20 from where it was) at
// t = 0.02; and, at t = 0.04, sphere 1 restarts right next to another sphere, moving into
// it (a contact 0.01 later). Run to t = 0.055.
TEST(GuardsConesListsFlightPlan, JumpsAcrossTheSceneMatchAllPairs) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const SceneSpec spec{8, 20, 0.3, 2, 4, 1, 1};
  const auto spheres = random_scene(rng, spec);
  auto settings = world_settings(cube(spec.box), kLists);
  settings.contact_tolerance = kGuardsTolerance;
  WorldRun probe(spheres, settings);
  std::vector<Jump> jumps;
  probe.run_until(0.02);
  const Vec<3> at = probe.world->state(0, 0.02).position;
  for (double x = 3; x < 17 && jumps.empty(); x += 0.5)
    for (double y = 3; y < 17 && jumps.empty(); y += 0.5) {
      const Vec<3> p{x, y, 10};
      if (std::hypot(p[0] - at[0], p[1] - at[1]) >= 6 && free_at(probe, 0, p, 0.02, 0.5))
        jumps.push_back(Jump{0.02, 0, p, {1, -1, 0}});
    }
  ASSERT_EQ(jumps.size(), 1u) << "no free spot found for the jump";
  probe.sim->bodies().set_motion(probe.world->body(0), Motion<3>::linear(0.02, jumps[0].p, jumps[0].v));
  probe.run_until(0.04);
  for (int attempt = 0; attempt < 100 && jumps.size() == 1; ++attempt)
    if (auto j = jump_into(probe, 1, 2 + attempt % 6, 0.04, 0.05, 5, rng, spec.box)) jumps.push_back(*j);
  ASSERT_EQ(jumps.size(), 2u) << "no free spot found next to a sphere";
  const auto c = jump_twins(spheres, settings, jumps, 0.055, "8 spheres");
  bool hit = false;
  for (const Contact& k : c) hit = hit || (!k.with_wall && (k.a == 1 || k.b == 1) && k.time > 0.04);
  EXPECT_TRUE(hit) << "sphere 1 hits the sphere it jumped next to";
}

// A crowded scene (12 balls, radii 0.5 to 1.5, in a box of 13): at t = 0 and t = 0.01
// the ball farthest from the centre jumps to the mirror image of its place (or the first
// free spot on the way), moving inwards; at t = 0.02 a ball jumps next to another and
// into it (a contact at t = 0.03). Run to t = 0.033.
TEST(GuardsConesListsFlightPlan, JumpsAcrossACrowdedScene) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const double box = 13, mid = box / 2;
  const SceneSpec spec{12, box, 0.5, 1.5, 2, 1, 1};
  const auto spheres = random_scene(rng, spec);
  auto settings = world_settings(cube(spec.box), kLists);
  settings.contact_tolerance = kGuardsTolerance;
  WorldRun probe(spheres, settings);
  std::vector<Jump> jumps;
  std::uniform_real_distribution<double> u(0, 1);
  for (double t : {0.0, 0.01}) {
    probe.run_until(t);
    SphereId id = 0;
    double far = -1;
    for (SphereId j = 0; j < probe.world->size(); ++j) {
      const Vec<3> q = probe.world->state(j, t).position;
      const double d = std::hypot(q[0] - mid, q[1] - mid, q[2] - mid);
      if (d > far) far = d, id = j;
    }
    const Vec<3> q = probe.world->state(id, t).position;
    bool placed = false;
    for (double s = 1; s > 0 && !placed; s -= 0.05) {
      const Vec<3> p{mid - s * (q[0] - mid), mid - s * (q[1] - mid), mid - s * (q[2] - mid)};
      const double r = probe.world->sphere(id).radius;
      bool inside = true;
      for (int k = 0; k < 3; ++k) inside = inside && p[k] > r + 0.1 && p[k] < box - r - 0.1;
      if (!inside || !free_at(probe, id, p, t, 0.2)) continue;
      const Vec<3> v{(mid - p[0]) * (0.5 + u(rng)), (mid - p[1]) * (0.5 + u(rng)), (mid - p[2]) * (0.5 + u(rng))};
      jumps.push_back(Jump{t, id, p, v});
      probe.sim->bodies().set_motion(probe.world->body(id), Motion<3>::linear(t, p, v));
      placed = true;
    }
    ASSERT_TRUE(placed) << "no free spot for the jump at t = " << t;
  }
  probe.run_until(0.02);
  const std::size_t before = jumps.size();
  for (int attempt = 0; attempt < 200 && jumps.size() == before; ++attempt)
    if (auto j = jump_into(probe, attempt % 12, (attempt / 12 + attempt + 1) % 12, 0.02, 0.05, 5, rng, box))
      jumps.push_back(*j);
  ASSERT_EQ(jumps.size(), before + 1) << "no free spot found next to a sphere";
  const auto c = jump_twins(spheres, settings, jumps, 0.033, "12 spheres, crowded");
  EXPECT_GT(c.size(), 0u) << "the ball jumping into another should collide";
}

}  // namespace
}  // namespace kds::testing
