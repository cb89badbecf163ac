// kds_spheres: runs a scene file (docs/scene-format.md) with a broad phase of the
// collision world (the time-varying-bound grid by default) and writes the collision log and the final states, so that kds can be compared line by
// line with another simulator on the same scene.
//
//   kds_spheres SCENE --until T [--contacts FILE] [--states FILE] [--broad-phase NAME]
//               [--cell-ratio K] [--force-seed S] [--force-interval H]
//
// Mode `unknown` needs an integrator that kds does not see: this tool drives such spheres
// with the random forces of the paper's experiment (PiecewiseAccelerationProbe: a new
// force of random direction and magnitude below max_acceleration every H seconds, seeded
// by S), so a run is reproducible from the command line.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "examples/common/command_line.hpp"
#include "kds/errors.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/io/contact_log.hpp"
#include "structures/collision/io/scene.hpp"
#include "structures/collision/broad_phase_registry.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"

namespace {

struct Options {
  std::string scene;
  double until = -1;
  std::string contacts, states;
  std::string broad_phase = "tvb-grid";
  double cell_ratio = 0;
  std::uint64_t force_seed = 1;
  double force_interval = 0.1;
};

Options parse(int argc, char** argv) {
  using namespace kds::programs;
  Options o;
  CommandLine line("kds_spheres", "Runs a scene file (docs/scene-format.md) until time T.");
  line.add_option("scene", o.scene, "the scene file")->required()->type_name("SCENE");
  line.add_option("--until", o.until, "the time to run until")->required()->check(at_least(0));
  line.add_option("--contacts", o.contacts,
                  "the collision log: one contact per line, 'time i j' (i < j) or 'time i wx-' for a wall, time "
                  "with 17 significant digits")
      ->type_name("FILE");
  line.add_option("--states", o.states, "the final states: 'x y z vx vy vz' per sphere, in id order")->type_name("FILE");
  add_broad_phase_options(line, o.broad_phase, o.cell_ratio);
  line.add_option("--force-seed", o.force_seed, "mode unknown: seed of the random forces")
      ->check(integer_in(0))
      ->capture_default_str();
  line.add_option("--force-interval", o.force_interval, "mode unknown: seconds between force changes")
      ->check(positive())
      ->capture_default_str();
  line.parse_or_exit(argc, argv);
  return o;
}

/// Opens `path` for writing, or throws naming it.
std::ofstream output(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw kds::InvalidInput("cannot write '" + path + "'");
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    const kds::Scene scene = kds::load_scene(o.scene);
    std::unique_ptr<kds::PiecewiseAccelerationProbe> probe;
    if (scene.unknown)
      probe = std::make_unique<kds::PiecewiseAccelerationProbe>(scene.spheres, o.force_interval, o.force_seed);

    kds::CollisionWorldSettings settings;
    settings.box = scene.box;
    settings.gravity = scene.gravity;
    settings.restitution = scene.restitution;
    if (scene.tolerance) settings.contact_tolerance = *scene.tolerance;
    settings.broad_phase = o.broad_phase;
    settings.cell_ratio = o.cell_ratio;
    settings.probe = probe.get();

    kds::Simulator sim;
    kds::CollisionWorld world(sim, settings, scene.spheres);
    sim.run_until(o.until);

    if (!o.contacts.empty()) {
      std::ofstream out = output(o.contacts);
      kds::write_contacts(out, world.contacts());
    }
    if (!o.states.empty()) {
      // The true final states: from the probe for unknown trajectories (the world knows
      // only their bounds), from the exact motions otherwise.
      std::vector<kds::SphereState> states;
      for (kds::SphereId i = 0; i < world.size(); ++i)
        states.push_back(probe ? probe->state(i, o.until) : world.state(i, o.until));
      std::ofstream out = output(o.states);
      kds::write_states(out, states);
    }
    std::fprintf(stderr, "kds_spheres: %zu spheres (%s), %llu events, %llu sphere and %llu wall contacts until t = %g\n",
                 world.size(), scene.unknown ? "unknown trajectories" : "ballistic",
                 static_cast<unsigned long long>(sim.statistics().events),
                 static_cast<unsigned long long>(world.sphere_contacts()),
                 static_cast<unsigned long long>(world.wall_contacts()), o.until);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kds_spheres: %s\n", e.what());
    return 1;
  }
}
