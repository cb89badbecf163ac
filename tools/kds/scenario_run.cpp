#include "tools/kds/scenario_run.hpp"

#include "kds/config.hpp"
#include "kds/errors.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/rolling_balls/planar_response.hpp"
#include "structures/sphere_worlds.hpp"
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

/// The integrators of unknown trajectories step through every piece up to the time they
/// are asked about (about 0.2 microseconds a piece): beyond this many pieces over all
/// spheres, a run would take longer than minutes on the probes alone, which no event
/// budget (--max-events) counts. Refused up front, naming the setting.
constexpr double max_probe_pieces = 1e9;

void check_probe_pieces(const Scenario& scenario, double until) {
  const Trajectories& t = scenario.trajectories;
  const bool forces = t.kind == Trajectories::Kind::random_forces;
  if (!forces && t.kind != Trajectories::Kind::circulation) return;
  const double step = forces ? t.interval : t.piece_length;
  const double pieces = static_cast<double>(scenario.spheres.size()) * (until / step);
  if (!(pieces <= max_probe_pieces))
    throw InvalidInput(std::string("\"trajectories\".") + (forces ? "interval" : "piece_length") + " = " +
                       text::shortest(step) + ": " + std::to_string(scenario.spheres.size()) +
                       (scenario.spheres.size() == 1 ? " sphere" : " spheres") + " integrated in " +
                       text::shortest(until / step) + " pieces each up to t = " + text::shortest(until) +
                       " would take hours; at most " + text::shortest(max_probe_pieces) +
                       " pieces in all (choose a longer step, or an earlier --until)");
}

}  // namespace

ScenarioRun::ScenarioRun(const Scenario& scenario, const RunSettings& settings)
    : scenario_(scenario), settings_(complete(settings, scenario)) {
  const Trajectories& t = scenario.trajectories;
  check_probe_pieces(scenario, *settings_.until);
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
  w.cell_ratio = scenario.cell_ratio;
  w.probe = probe_.get();
  SphereWorldOptions options;
  options.exactness = settings_.exactness;
  options.audit = settings_.audit || config::validating_build;
  world_ = make_sphere_world(settings_.structure, w, scenario.spheres, options);
  if (scenario.response == Response::planar) {
    CollisionWorld* c = world_->collision_world();
    if (c == nullptr)
      throw InvalidInput("\"response\": \"planar\": the structure " + settings_.structure +
                         " answers contacts with the elastic response (with restitution) only; run the scenario with "
                         "rolling-tree or all-pairs");
    use_planar_response(*c);
  }
}

// The world may hold the probe: it goes first.
ScenarioRun::~ScenarioRun() { world_.reset(); }

Simulator& ScenarioRun::simulator(const std::string& option) {
  Simulator* sim = world_->simulator();
  if (sim == nullptr)
    throw InvalidInput(option + ": needs the events of a kds::Simulator, and the structure " + settings_.structure +
                       " runs its own event loop (one event per sphere) without one; use a broad phase such as "
                       "all-pairs or tvb-grid, or --contacts and --export-xyz, which " + settings_.structure +
                       " writes");
  return *sim;
}

SphereState ScenarioRun::state(SphereId id, double t) {
  return scenario_.spheres[id].max_acceleration == 0 || !probe_ ? world_->state(id, t) : probe_->state(id, t);
}

Scenario scenario_of_scene(const Scene& scene, const std::string& structure, double cell_ratio, double until,
                           double force_interval, std::uint64_t force_seed) {
  Scenario s;
  s.box = scene.box;
  s.gravity = scene.gravity;
  s.restitution = scene.restitution;
  s.contact_tolerance = scene.tolerance;
  s.until = until;
  s.structure = structure;
  s.cell_ratio = cell_ratio;
  if (scene.unknown) {
    s.trajectories.kind = Trajectories::Kind::random_forces;
    s.trajectories.interval = force_interval;
    s.trajectories.seed = force_seed;
  }
  s.spheres = scene.spheres;
  return s;
}

}  // namespace kds::cli
