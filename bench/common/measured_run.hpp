#pragma once
/// \file
/// The timed loop of the benchmarks that measure a broad phase's quality over a run: step
/// the simulation until it has counted enough contacts, used its CPU budget or reached a
/// simulated time, sampling the structure's size as it goes. One loop, so that every
/// program stops and samples the same way and their numbers compare.

#include <cmath>
#include <cstdint>
#include <limits>

#include "bench/common/stopwatch.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"

namespace kds::bench {

/// When a measured run stops (the first limit reached).
struct RunLimits {
  double contacts = std::numeric_limits<double>::infinity();  ///< sphere contacts counted by the world
  double cpu_budget = std::numeric_limits<double>::infinity();  ///< CPU seconds, checked every 4096 events
  double until = std::numeric_limits<double>::infinity();  ///< simulated time (run to it exactly)
};

/// What the loop itself measured.
struct RunTiming {
  double cpu = 0;            ///< CPU seconds of the loop
  std::uint64_t events = 0;  ///< events processed in the loop
  std::uint64_t samples = 0;  ///< calls of `sample`
};

/// Steps `sim` until a limit of `limits` or the end of its events. `sample()` is called
/// before the first event and then every 256 events: often enough for averages over the
/// run, rarely enough to cost nothing measurable.
template <class Sample>
RunTiming run_measured(Simulator& sim, const CollisionWorld& world, const RunLimits& limits, Sample&& sample) {
  const std::uint64_t e0 = sim.statistics().events;
  const Stopwatch timed;
  RunTiming t;
  for (std::uint64_t k = 0;; ++k) {
    if (k % 256 == 0) {
      sample();
      ++t.samples;
      if (k % 4096 == 0 && timed.cpu() > limits.cpu_budget) break;
    }
    if (static_cast<double>(world.sphere_contacts()) >= limits.contacts) break;
    if (std::isfinite(limits.until) && compare(sim.next_event_time(), limits.until) > 0) {
      sim.run_until(limits.until);
      break;
    }
    if (!sim.step()) break;
  }
  t.cpu = timed.cpu();
  t.events = sim.statistics().events - e0;
  return t;
}

/// The same loop with nothing sampled.
inline RunTiming run_measured(Simulator& sim, const CollisionWorld& world, const RunLimits& limits) {
  return run_measured(sim, world, limits, [] {});
}

}  // namespace kds::bench
