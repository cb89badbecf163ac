#include "tools/kds/scenario_run.hpp"

#include "kds/config.hpp"
#include "structures/rolling_balls/planar_response.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"
#include "structures/collision/trajectories/velocity_field_probe.hpp"

namespace kds::cli {
namespace {

RunSettings complete(RunSettings s, const Scenario& scenario) {
  if (s.structure.empty()) s.structure = scenario.structure;
  if (!s.until) s.until = scenario.until;
  if (!s.seed) s.seed = scenario.trajectories.seed;
  return s;
}

}  // namespace

ScenarioRun::ScenarioRun(const Scenario& scenario, const RunSettings& settings)
    : scenario_(scenario), settings_(complete(settings, scenario)), sim_(SimulatorSettings{.audit = settings.audit || config::validating_build}) {
  const Trajectories& t = scenario.trajectories;
  if (t.kind == Trajectories::Kind::random_forces)
    probe_ = std::make_unique<PiecewiseAccelerationProbe>(scenario.spheres, t.interval, *settings_.seed);
  if (t.kind == Trajectories::Kind::circulation)
    probe_ = std::make_unique<VelocityFieldProbe>(scenario.spheres, CirculationField{scenario.box, t.speed},
                                                  t.piece_length, t.rate);
  CollisionWorldSettings w;
  w.box = scenario.box;
  w.gravity = scenario.gravity;
  w.restitution = scenario.restitution;
  if (scenario.contact_tolerance) w.contact_tolerance = *scenario.contact_tolerance;
  w.broad_phase = settings_.structure;
  w.cell_ratio = scenario.cell_ratio;
  w.probe = probe_.get();
  world_ = std::make_unique<CollisionWorld>(sim_, w, scenario.spheres);
  if (scenario.response == Response::planar) use_planar_response(*world_);
}

// The world holds bodies of the simulator: it goes first.
ScenarioRun::~ScenarioRun() { world_.reset(); }

SphereState ScenarioRun::state(SphereId id, double t) {
  return world_->ballistic(id) || !probe_ ? world_->state(id, t) : probe_->state(id, t);
}

}  // namespace kds::cli
