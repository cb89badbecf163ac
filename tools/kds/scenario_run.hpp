#pragma once
/// \file
/// A scenario set up to run: the structure chosen by name (structures/sphere_worlds.hpp:
/// a registered broad phase under the collision world, or hard-spheres) and the
/// integrator of unknown trajectories. Shared by `kds run`, `kds replay` and
/// `kds_spheres` (which turns its scene file into a scenario, scenario_of_scene), so that
/// the world's settings are built in one place and a replay runs exactly what was
/// recorded.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "kds/number_types.hpp"
#include "structures/collision/io/scene.hpp"
#include "structures/collision/sphere_world.hpp"
#include "structures/collision/trajectories/piecewise_probe.hpp"
#include "tools/kds/scenario.hpp"

namespace kds::cli {

/// What the command line may change about a scenario: the settings a trace records
/// (structure, until, seed, audit), and the exactness (kds_spheres --floating).
struct RunSettings {
  std::string structure;              ///< a name of sphere_world_names(); empty: the scenario's
  std::optional<double> until;        ///< empty: the scenario's
  std::optional<std::uint64_t> seed;  ///< the random forces' seed; empty: the scenario's
  bool audit = false;                 ///< audit the structure as it runs (slow)
  Exactness exactness = Exactness::filtered;  ///< floating: no exactness guarantee, for comparison
};

class ScenarioRun {
 public:
  /// Builds the world at time 0, its first events computed; InvalidInput on a scenario
  /// the structure refuses (naming the setting it cannot honour).
  ScenarioRun(const Scenario& scenario, const RunSettings& settings);
  ~ScenarioRun();
  ScenarioRun(const ScenarioRun&) = delete;
  ScenarioRun& operator=(const ScenarioRun&) = delete;

  SphereWorld& world() { return *world_; }
  const SphereWorld& world() const { return *world_; }
  /// The simulator driving the world, for observers of its events (traces, replays);
  /// InvalidInput if the structure has none, naming `option` (the setting that needs it).
  Simulator& simulator(const std::string& option);
  const Scenario& scenario() const { return scenario_; }
  /// The settings with every empty one filled from the scenario.
  const RunSettings& settings() const { return settings_; }
  double until() const { return *settings_.until; }
  const std::string& structure() const { return settings_.structure; }

  /// The true state of a sphere at t (at or after the last event): from its exact motion
  /// when ballistic, from the integrator for an unknown trajectory.
  SphereState state(SphereId id, double t);

 private:
  Scenario scenario_;
  RunSettings settings_;
  std::unique_ptr<PiecewiseProbe> probe_;
  std::unique_ptr<SphereWorld> world_;
};

/// A scene file (docs/scene-format.md) as a scenario run by `structure` until `until`:
/// mode unknown becomes the random forces of the paper's experiment, a new force every
/// `force_interval` seconds from `force_seed`.
Scenario scenario_of_scene(const Scene& scene, const std::string& structure, double cell_ratio, double until,
                           double force_interval, std::uint64_t force_seed);

}  // namespace kds::cli
