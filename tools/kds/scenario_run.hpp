#pragma once
/// \file
/// A scenario set up to run: the simulator, the collision world with the chosen
/// structure (a registered broad phase), and the integrator of unknown trajectories.
/// Shared by `kds run` and `kds replay`, so that a replay runs exactly what was recorded.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/trajectories/piecewise_probe.hpp"
#include "tools/kds/scenario.hpp"

namespace kds::cli {

/// What the command line may change about a scenario: the settings a trace records.
struct RunSettings {
  std::string structure;              ///< a registered broad phase; empty: the scenario's
  std::optional<double> until;        ///< empty: the scenario's
  std::optional<std::uint64_t> seed;  ///< the random forces' seed; empty: the scenario's
  bool audit = false;                 ///< audit every structure after every event (slow)
};

class ScenarioRun {
 public:
  /// Builds the world at time 0; InvalidInput on a scenario the world refuses.
  ScenarioRun(const Scenario& scenario, const RunSettings& settings);
  ~ScenarioRun();
  ScenarioRun(const ScenarioRun&) = delete;
  ScenarioRun& operator=(const ScenarioRun&) = delete;

  Simulator& simulator() { return sim_; }
  CollisionWorld& world() { return *world_; }
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
  Simulator sim_;
  std::unique_ptr<CollisionWorld> world_;
};

}  // namespace kds::cli
