#pragma once
/// \file
/// One timed run of a sphere world on a scene, as the benchmarks need it: random forces
/// within the bound for spheres with A > 0 (the paper's experiment), simulated in chunks
/// until a simulated time or a CPU budget is reached, whichever comes first, so that a
/// slow configuration reports its rate over the time it managed instead of stalling the
/// whole benchmark.

#include <cstdint>
#include <vector>

#include "kds/statistics.hpp"
#include "structures/collision/collision_world.hpp"

namespace kds::bench {

/// How long each random force lasts, as in examples/paper_experiment.
inline constexpr double kForceInterval = 0.1;

struct WorldRun {
  double simulated = 0;  ///< simulated seconds reached
  double cpu = 0, wall = 0;
  double cell_ratio = 0;  ///< the ratio in use (the cost model's choice when asked for 0)
  Statistics statistics;
  std::uint64_t sphere_contacts = 0, wall_contacts = 0, probes = 0;
  double cpu_per_simulated_second() const { return cpu / simulated; }
};

WorldRun run_world(const std::vector<Sphere>& spheres, const Box3& box, const std::string& broad_phase, double cell_ratio,
                   std::uint64_t seed, double seconds, double cpu_budget);

}  // namespace kds::bench
