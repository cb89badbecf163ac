// kds_spheres: runs a scene file (docs/scene-format.md) with a structure chosen by name
// (the time-varying-bound grid by default; a broad phase of the collision world, or
// hard-spheres) and writes the collision log and the final states, so that kds can be
// compared line by line with another simulator on the same scene.
//
//   kds_spheres SCENE --until T [--contacts FILE] [--states FILE] [--structure NAME]
//               [--cell-ratio K] [--force-seed S] [--force-interval H] [--max-events N]
//               [--floating]
//
// The scene becomes a scenario of `kds run` (tools/kds/scenario_run.hpp): the world's
// settings, the structure by name and the integrator of unknown trajectories are built in
// one place for both programs.
//
// Outputs are opened before the run (an unwritable path fails at once) and written to
// temporary files renamed at the end, so that an output that exists is complete and a
// failed run leaves the old files alone. A run longer than a second shows a progress line
// on stderr when stderr is a terminal.
//
// Mode `unknown` needs an integrator that kds does not see: this tool drives such spheres
// with the random forces of the paper's experiment (PiecewiseAccelerationProbe: a new
// force of random direction and magnitude below max_acceleration every H seconds, seeded
// by S), so a run is reproducible from the command line.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "examples/common/command_line.hpp"
#include "kds/errors.hpp"
#include "structures/collision/io/contact_log.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/collision/io/output_file.hpp"
#include "structures/collision/io/scene.hpp"
#include "structures/hard_spheres/hard_sphere_world_model.hpp"
#include "tools/kds/scenario_run.hpp"

namespace {

struct Options {
  std::string scene;
  double until = -1;
  std::string contacts, states;
  std::string structure = "tvb-grid";
  double cell_ratio = 0;
  std::uint64_t force_seed = 1;
  double force_interval = 0.1;
  std::uint64_t max_events = 0;  // 0: no budget
  bool floating = false;
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
  add_structure_options(line, o.structure, o.cell_ratio);
  line.add_option("--force-seed", o.force_seed, "mode unknown: seed of the random forces")
      ->check(integer_in(0))
      ->capture_default_str();
  line.add_option("--force-interval", o.force_interval, "mode unknown: seconds between force changes")
      ->check(positive())
      ->capture_default_str();
  line.add_option("--max-events", o.max_events, "stop with an error after N events (0: no budget)")
      ->check(integer_in(0))
      ->capture_default_str();
  line.add_flag("--floating", o.floating,
                "floating-point-only mode (no exactness guarantee; for comparison, docs/architecture.md section 7; "
                "not with hard-spheres, which is exact only)");
  line.parse_or_exit(argc, argv);
  return o;
}

/// A line on stderr, rewritten in place, for runs longer than a second when stderr is a
/// terminal (never in a log file or a pipe).
class Progress {
 public:
  Progress(double until) : until_(until), shown_(isatty(STDERR_FILENO) == 1), start_(Clock::now()) {}
  void update(double t, std::uint64_t events) {
    if (!shown_ || (++updates_ & 1023) != 0) return;  // the clock is read every 1024 updates
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    if (elapsed < 1 || elapsed < last_ + 0.25) return;
    last_ = elapsed;
    printed_ = true;
    std::fprintf(stderr, "\rkds_spheres: t = %-12.6g of %g (%3.0f%%), %llu events, %.0f s ", t, until_,
                 until_ > 0 ? 100 * t / until_ : 100.0, static_cast<unsigned long long>(events), elapsed);
  }
  ~Progress() {
    if (printed_) std::fputc('\n', stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  double until_;
  bool shown_;
  Clock::time_point start_;
  double last_ = 0;
  std::uint64_t updates_ = 0;
  bool printed_ = false;
};

/// What a scene will need in the collision world, said before the run: measured 5.1-5.4
/// KB of memory per sphere at 5% volume fraction (2e4 and 1e5 spheres); issue 12 reports
/// 8.1 KB (1e6 spheres took 8.1 GB). Refuses a scene whose smallest estimate exceeds the
/// machine's memory, which would end in the kernel killing the run. Not measured for
/// hard-spheres (a few hundred bytes per sphere): not checked there.
void check_memory(std::size_t spheres) {
  constexpr double low = 5.0e3, high = 8.1e3, gb = 1e9;  // bytes per sphere
  const double physical = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  if (physical > 0 && low * double(spheres) > physical) {
    char what[200];
    std::snprintf(what, sizeof what, "%zu spheres need about %.1f to %.1f GB of memory, more than this machine's %.1f GB",
                  spheres, low * double(spheres) / gb, high * double(spheres) / gb, physical / gb);
    throw kds::InvalidInput(what);
  }
  if (high * double(spheres) >= 1 * gb)
    std::fprintf(stderr, "kds_spheres: %zu spheres: expect %.1f to %.1f GB of memory\n", spheres,
                 low * double(spheres) / gb, high * double(spheres) / gb);
}

/// Runs until `until`; InvalidInput once more than `max_events` events were processed
/// (0: no budget). The world reports its progress after every event (hard-spheres: its
/// contact events and cell crossings), so the run stops right after event max_events + 1.
void run(kds::SphereWorld& world, double until, std::uint64_t max_events) {
  Progress progress(until);
  world.on_progress([&progress, until, max_events](double t, std::uint64_t events) {
    if (max_events != 0 && events > max_events)
      throw kds::InvalidInput("more than " + std::to_string(max_events) + " events (--max-events) by t = " +
                              kds::text::shortest(t) + ", before --until " + kds::text::shortest(until) + "; no output written");
    progress.update(t, events);
  });
  world.run_until(until);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    const kds::Scene scene = kds::load_scene(o.scene);
    if (o.structure != kds::HardSphereWorldModel::name) check_memory(scene.spheres.size());
    // Opened before the run: an unwritable path fails now, not after hours.
    std::optional<kds::OutputFile> contacts_file, states_file;
    if (!o.contacts.empty()) contacts_file.emplace(o.contacts);
    if (!o.states.empty()) states_file.emplace(o.states);

    kds::cli::RunSettings settings;
    if (o.floating) settings.exactness = kds::Exactness::floating;
    kds::cli::ScenarioRun run(
        kds::cli::scenario_of_scene(scene, o.structure, o.cell_ratio, o.until, o.force_interval, o.force_seed), settings);
    kds::SphereWorld& world = run.world();
    try {
      ::run(world, o.until, o.max_events);
    } catch (const kds::NoProgress& e) {
      throw kds::InvalidInput(std::string(e.what()) + "; no output written");
    }

    // Both outputs are written and closed before either replaces its file.
    if (contacts_file) {
      kds::write_contacts(contacts_file->stream(), world.contacts());
      contacts_file->close();
    }
    if (states_file) {
      // The true final states: from the probe for unknown trajectories (the world knows
      // only their bounds), from the exact motions otherwise.
      std::vector<kds::SphereState> states;
      for (kds::SphereId i = 0; i < world.size(); ++i) states.push_back(run.state(i, o.until));
      kds::write_states(states_file->stream(), states);
      states_file->close();
    }
    if (contacts_file) contacts_file->commit();
    if (states_file) states_file->commit();
    std::fprintf(stderr, "kds_spheres: %zu spheres (%s), %llu events, %llu sphere and %llu wall contacts until t = %g\n",
                 world.size(), scene.unknown ? "unknown trajectories" : "ballistic",
                 static_cast<unsigned long long>(world.events()),
                 static_cast<unsigned long long>(world.sphere_contacts()),
                 static_cast<unsigned long long>(world.wall_contacts()), o.until);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kds_spheres: %s\n", e.what());
    return 1;
  }
}
