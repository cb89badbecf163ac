#pragma once
/// \file
/// What the sphere examples print: progress while they run (on stderr, so that stdout
/// stays the result) and the closing table of events by type. Shared by
/// examples/paper_experiment and examples/circulating_particles so that both speak the
/// paper's vocabulary in the same words and order (section 3, Figure 6).

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"

namespace kds::examples {

/// The event kinds of the sphere world, in the order of the paper's Figure 6, with what
/// each one means for a reader who has not read the paper.
struct EventKind {
  const char* name;
  const char* meaning;
};
inline constexpr EventKind kSphereEventKinds[] = {
    {"entering", "a bound reaches a new grid cell"},
    {"leaving", "a bound leaves a grid cell"},
    {"resetting", "a bound grew to its cell side: probed and shrunk"},
    {"bound collision", "two bounds meet: both spheres probed"},
    {"wall", "a bound meets a face of the box"},
    {"collision", "two ballistic spheres meet (exact)"},
};

/// Runs the simulation to `until`, printing a progress line to stderr at every multiple
/// of `every` simulated seconds. Returns the wall time of the run in seconds.
inline double run_with_progress(Simulator& sim, const CollisionWorld& world, double until, double every) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const double t0 = sim.now_approx();
  for (int k = 1;; ++k) {
    const double t = std::min(until, t0 + k * every);
    sim.run_until(t);
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    std::fprintf(stderr, "  t = %6.2f s  events %10llu  contacts %8llu  wall %7.2f s\n", t,
                 static_cast<unsigned long long>(sim.statistics().events),
                 static_cast<unsigned long long>(world.sphere_contacts() + world.wall_contacts()), wall);
    if (t >= until) return wall;
  }
}

/// The closing table: events by type with their share, then the real contacts and probes.
inline void print_events_by_kind(Simulator& sim, const CollisionWorld& world) {
  const Statistics& s = sim.statistics();
  std::printf("Events by type:\n");
  for (const EventKind& k : kSphereEventKinds) {
    const std::uint64_t c = s.events_of(k.name);
    const double share = s.events ? 100.0 * static_cast<double>(c) / static_cast<double>(s.events) : 0.0;
    std::printf("  %-16s %10llu  %5.1f%%   %s\n", k.name, static_cast<unsigned long long>(c), share, k.meaning);
  }
  std::printf("  %-16s %10llu\n", "total", static_cast<unsigned long long>(s.events));
  std::printf("Real contacts:      %10llu sphere-sphere, %llu sphere-wall\n",
              static_cast<unsigned long long>(world.sphere_contacts()),
              static_cast<unsigned long long>(world.wall_contacts()));
  std::printf("Probes:             %10llu\n", static_cast<unsigned long long>(world.probes()));
  std::printf("Exact fallbacks:    %10llu of %llu failure times, %llu of %llu comparisons\n",
              static_cast<unsigned long long>(s.solver.failure_exact),
              static_cast<unsigned long long>(s.solver.failure_computations),
              static_cast<unsigned long long>(s.solver.comparisons_exact),
              static_cast<unsigned long long>(s.solver.comparisons));
  if (s.solver.failure_apart > 0)
    std::printf("Bounds apart:       %10llu failure times decided \"not before the reset\" without one (pairs, faces, walls)\n",
                static_cast<unsigned long long>(s.solver.failure_apart));
  if (s.failures_deferred > 0)
    std::printf("Deferred:           %10llu failure times queued at a time they cannot come before; "
                "%llu of them computed when it came\n",
                static_cast<unsigned long long>(s.failures_deferred), static_cast<unsigned long long>(s.deferred_computed));
}

}  // namespace kds::examples
