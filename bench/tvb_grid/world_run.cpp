#include "bench/tvb_grid/world_run.hpp"

#include <algorithm>
#include <memory>

#include "bench/tvb_grid/measure.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"

namespace kds::bench {

WorldRun run_world(const std::vector<Sphere>& spheres, const Box3& box, const std::string& broad_phase, double cell_ratio,
                   std::uint64_t seed, double seconds, double cpu_budget) {
  std::unique_ptr<PiecewiseAccelerationProbe> probe;
  if (std::any_of(spheres.begin(), spheres.end(), [](const Sphere& s) { return s.max_acceleration > 0; }))
    probe = std::make_unique<PiecewiseAccelerationProbe>(spheres, kForceInterval, seed);
  CollisionWorldSettings settings;
  settings.box = box;
  settings.broad_phase = broad_phase;
  settings.cell_ratio = cell_ratio;
  settings.probe = probe.get();
  Simulator sim;
  CollisionWorld world(sim, settings, spheres);
  sim.flush();
  WorldRun run;
  run.cell_ratio = world.cell_ratio();
  const Stopwatch watch;
  // Chunks of 1/20 s: fine enough for the budget, coarse enough not to cost anything.
  const double chunk = std::min(0.05, seconds);
  while (run.simulated < seconds && watch.cpu() < cpu_budget) {
    run.simulated = std::min(seconds, run.simulated + chunk);
    sim.run_until(run.simulated);
  }
  run.cpu = watch.cpu();
  run.wall = watch.wall();
  run.statistics = sim.statistics();
  run.sphere_contacts = world.sphere_contacts();
  run.wall_contacts = world.wall_contacts();
  run.probes = world.probes();
  return run;
}

}  // namespace kds::bench
