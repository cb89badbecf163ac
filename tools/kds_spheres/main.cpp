// kds_spheres: runs a scene file (docs/scene-format.md) with the time-varying-bound grid
// and writes the collision log and the final states, so that kds can be compared line by
// line with another simulator on the same scene.
//
//   kds_spheres SCENE --until T [--contacts FILE] [--states FILE] [--broad-phase grid|all-pairs]
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

#include "kds/errors.hpp"
#include "kds/simulator.hpp"
#include "structures/tvb_grid/io/contact_log.hpp"
#include "structures/tvb_grid/io/scene.hpp"
#include "structures/tvb_grid/sphere_world.hpp"
#include "structures/tvb_grid/trajectories/piecewise_acceleration_probe.hpp"

namespace {

struct Options {
  std::string scene;
  double until = -1;
  std::string contacts, states;
  bool all_pairs = false;
  double cell_ratio = 0;
  std::uint64_t force_seed = 1;
  double force_interval = 0.1;
};

[[noreturn]] void usage(std::FILE* out, int code) {
  std::fprintf(out,
               "usage: kds_spheres SCENE --until T [--contacts FILE] [--states FILE] [--broad-phase grid|all-pairs]\n"
               "                   [--cell-ratio K] [--force-seed S] [--force-interval H]\n"
               "Runs a scene file (docs/scene-format.md) until time T.\n"
               "  --contacts FILE     the collision log: one contact per line, 'time i j' (i < j) or 'time i wx-'\n"
               "                      for a wall, time with 17 significant digits\n"
               "  --states FILE       the final states: 'x y z vx vy vz' per sphere, in id order\n"
               "  --broad-phase B     grid (default) or all-pairs (the brute-force twin, for comparison)\n"
               "  --cell-ratio K      cell side / largest diameter of a level, >= 2 (default: the cost model)\n"
               "  --force-seed S      mode unknown: seed of the random forces (default 1)\n"
               "  --force-interval H  mode unknown: seconds between force changes (default 0.1)\n");
  std::exit(code);
}

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "kds_spheres: %s\n", message.c_str());
  usage(stderr, 2);
}

double number(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x)) fail(option + " needs a number, not '" + text + "'");
  return x;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") usage(stdout, 0);
    if (arg.rfind("--", 0) != 0) {
      if (!o.scene.empty()) fail("one scene file only ('" + o.scene + "' and '" + arg + "')");
      o.scene = arg;
      continue;
    }
    if (arg != "--until" && arg != "--contacts" && arg != "--states" && arg != "--broad-phase" &&
        arg != "--cell-ratio" && arg != "--force-seed" && arg != "--force-interval")
      fail("unknown option '" + arg + "'");
    if (i + 1 >= argc) fail("option " + arg + " needs a value");
    const std::string value = argv[++i];
    if (arg == "--contacts") o.contacts = value;
    else if (arg == "--states") o.states = value;
    else if (arg == "--broad-phase") {
      if (value != "grid" && value != "all-pairs") fail("--broad-phase must be grid or all-pairs, not '" + value + "'");
      o.all_pairs = value == "all-pairs";
    } else {
      const double x = number(arg, value);
      if (arg == "--until" && x >= 0) o.until = x;
      else if (arg == "--cell-ratio" && x >= 2) o.cell_ratio = x;
      else if (arg == "--force-seed" && x >= 0 && x == std::floor(x)) o.force_seed = static_cast<std::uint64_t>(x);
      else if (arg == "--force-interval" && x > 0) o.force_interval = x;
      else fail(arg + " is out of range: '" + value + "'");
    }
  }
  if (o.scene.empty()) fail("no scene file given");
  if (o.until < 0) fail("--until T is required");
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

    kds::SphereWorldSettings settings;
    settings.box = scene.box;
    settings.gravity = scene.gravity;
    settings.restitution = scene.restitution;
    if (scene.tolerance) settings.contact_tolerance = *scene.tolerance;
    settings.broad_phase = o.all_pairs ? kds::BroadPhase::all_pairs : kds::BroadPhase::grid;
    settings.cell_ratio = o.cell_ratio;
    settings.probe = probe.get();

    kds::Simulator sim;
    kds::SphereWorld world(sim, settings, scene.spheres);
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
