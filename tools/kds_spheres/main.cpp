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

#include "examples/common/arguments.hpp"
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

const char* const kUsage =
    "usage: kds_spheres SCENE --until T [--contacts FILE] [--states FILE] [--broad-phase NAME]\n"
    "                   [--cell-ratio K] [--force-seed S] [--force-interval H]\n"
    "Runs a scene file (docs/scene-format.md) until time T.\n"
    "  --contacts FILE     the collision log: one contact per line, 'time i j' (i < j) or 'time i wx-'\n"
    "                      for a wall, time with 17 significant digits\n"
    "  --states FILE       the final states: 'x y z vx vy vz' per sphere, in id order\n"
    "  --broad-phase NAME  a registered broad phase: tvb-grid (default, the time-varying-bound grid)\n"
    "                      or all-pairs (the reference, for comparison)\n"
    "  --cell-ratio K      cell side / largest diameter of a level, >= 2 (default: the cost model)\n"
    "  --force-seed S      mode unknown: seed of the random forces (default 1)\n"
    "  --force-interval H  mode unknown: seconds between force changes (default 0.1)\n";

Options parse(int argc, char** argv) {
  using namespace kds::programs;
  Options o;
  CommandLine line("kds_spheres", kUsage);
  line.operands([&](const std::string& word) {
    if (!o.scene.empty()) line.fail("one scene file only ('" + o.scene + "' and '" + word + "')");
    o.scene = word;
  });
  line.option("--until", [&](const Value& v) { o.until = v.number(at_least(0), "must be at least 0"); });
  line.option("--contacts", [&](const Value& v) { o.contacts = v.text; });
  line.option("--states", [&](const Value& v) { o.states = v.text; });
  line.option("--broad-phase", [&](const Value& v) { o.broad_phase = v.choice(kds::broad_phase_names()); });
  line.option("--cell-ratio", [&](const Value& v) { o.cell_ratio = v.number(at_least(2), "must be at least 2"); });
  line.option("--force-seed", [&](const Value& v) {
    o.force_seed = static_cast<std::uint64_t>(v.number(integer_in(0), "must be a non-negative integer"));
  });
  line.option("--force-interval", [&](const Value& v) { o.force_interval = v.number(positive, "must be positive"); });
  line.parse(argc, argv);
  if (o.scene.empty()) line.fail("no scene file given");
  if (o.until < 0) line.fail("--until T is required");
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
