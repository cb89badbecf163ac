// kds run SCENARIO.json: runs a scenario and prints what happened (docs/cli.md).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "examples/common/command_line.hpp"
#include "kds/errors.hpp"
#include "kds/report/trace.hpp"
#include "kds/simulator.hpp"
#include "structures/sphere_worlds.hpp"
#include "structures/collision/io/contact_log.hpp"
#include "structures/collision/io/number_text.hpp"
#include "tools/kds/baseline_comparison.hpp"
#include "tools/kds/commands.hpp"
#include "tools/kds/contact_csv.hpp"
#include "tools/kds/output_file.hpp"
#include "tools/kds/progress_bar.hpp"
#include "tools/kds/replay_writer.hpp"
#include "tools/kds/run_summary.hpp"
#include "tools/kds/scenario_reader.hpp"
#include "tools/kds/trace_header.hpp"
#include "tools/kds/xyz_export.hpp"

#ifndef KDS_CLI_VERSION
#define KDS_CLI_VERSION "unknown"
#endif

namespace kds::cli {
namespace {

struct RunOptions {
  std::string scenario;
  std::string structure;
  double until = 0;
  std::uint64_t seed = 0;
  bool audit = false;
  std::string trace, replay, contacts, xyz, states;
  std::size_t frames = 100;
  double baseline = 0;  ///< dt of the frame-based baseline to compare with; 0: none
  bool no_progress = false;
  std::uint64_t max_events = 0;  ///< 0: no budget
};

/// The event budget of --max-events was spent before --until (an InvalidInput, so that
/// the message reaches the user like any other; the run's partial outputs are removed).
struct EventBudgetSpent : InvalidInput {
  using InvalidInput::InvalidInput;
};

/// Opens a trace and writes its header: the scenario file (absolute, hashed) and the settings.
std::unique_ptr<std::ofstream> open_trace(const std::string& path, const RunOptions& o, const std::string& scenario_text,
                                          const ScenarioRun& run) {
  auto out = std::make_unique<std::ofstream>(path);
  if (!*out) throw InvalidInput(path + ": cannot write the file");
  TraceHeader h;
  h.kds = KDS_CLI_VERSION;
  h.scenario = std::filesystem::absolute(o.scenario).lexically_normal().string();
  h.scenario_hash = content_hash(scenario_text);
  h.settings = run.settings();
  *out << trace_header_line(h) << '\n';
  return out;
}

/// The true final states, in the format of kds_spheres --states (io/contact_log.hpp).
void save_states(const std::string& path, ScenarioRun& r) {
  std::vector<SphereState> states;
  for (SphereId i = 0; i < r.world().size(); ++i) states.push_back(r.state(i, r.until()));
  write_file(path, [&](std::ostream& out) { write_states(out, states); });
}

int run(const RunOptions& o, const CLI::App& app) {
  using Clock = std::chrono::steady_clock;
  const std::string text = read_file(o.scenario);
  const Scenario scenario = read_scenario(text, o.scenario);
  RunSettings settings;
  settings.structure = o.structure;
  if (app.count("--until")) settings.until = o.until;
  if (app.count("--seed")) settings.seed = o.seed;
  settings.audit = o.audit;
  if (settings.seed && scenario.trajectories.kind != Trajectories::Kind::random_forces)
    std::cerr << "kds run: note: --seed has no effect: the scenario has no random forces (trajectories "
              << trajectories_name(scenario.trajectories.kind) << ")\n";

  if (o.baseline > 0)
    for (std::size_t i = 0; i < scenario.spheres.size(); ++i)
      if (scenario.spheres[i].max_acceleration > 0)
        throw InvalidInput("--baseline: the frame-based baseline knows ballistic spheres only, and spheres[" +
                           std::to_string(i) + "] of " + o.scenario + " has an unknown trajectory");

  if (o.baseline > 0 && scenario.response != Response::elastic)
    throw InvalidInput("--baseline: the frame-based baseline answers contacts with the elastic response only, and " +
                       o.scenario + " asks for \"response\": \"" + response_name(scenario.response) + "\"");

  const auto setup_start = Clock::now();
  ScenarioRun r(scenario, settings);  // with the first failure times: part of the setup, not of the run
  const double setup = std::chrono::duration<double>(Clock::now() - setup_start).count();
  // Traces and replays observe the simulator's events: refused before any file is written
  // for a structure without one (ScenarioRun::simulator names the option).
  Simulator* trace_sim = o.trace.empty() ? nullptr : &r.simulator("--trace");
  Simulator* replay_sim = o.replay.empty() ? nullptr : &r.simulator("--replay");
  std::unique_ptr<std::ofstream> trace_file;
  std::unique_ptr<TraceWriter> trace;
  if (trace_sim) {
    trace_file = open_trace(o.trace, o, text, r);
    trace = std::make_unique<TraceWriter>(*trace_file);
    trace_sim->add_observer(*trace);
  }
  // The replay file: a trace with what the viewer draws (tools/kds/replay_writer.hpp).
  std::unique_ptr<std::ofstream> replay_file;
  std::unique_ptr<ReplayWriter> replay;
  if (replay_sim) {
    replay_file = open_trace(o.replay, o, text, r);
    replay = std::make_unique<ReplayWriter>(*replay_file, r);
    replay_sim->add_observer(*replay);
  }
  ProgressBar progress(r.until(), !o.no_progress);
  // The world reports its progress after every event (hard-spheres: its contact events
  // and cell crossings), so a budget of N stops the run right after event N + 1, as
  // kds_spheres --max-events does.
  r.world().on_progress([&progress, &o, until = r.until()](double t, std::uint64_t events) {
    if (o.max_events != 0 && events > o.max_events)
      throw EventBudgetSpent("more than " + std::to_string(o.max_events) + " events (--max-events) by t = " +
                             text::shortest(t) + ", before the end " + text::shortest(until) +
                             "; no output written");
    progress.update(t, events);
  });
  std::unique_ptr<XyzWriter> xyz;
  if (!o.xyz.empty()) xyz = std::make_unique<XyzWriter>(o.xyz);

  // Frames stop the clock at their times; without them the run is one run_until.
  const auto run_start = Clock::now();
  const std::vector<double> stops = xyz ? frame_times(r.until(), o.frames) : std::vector<double>{r.until()};
  try {
    for (double t : stops) {
      r.world().run_until(t);
      if (xyz) xyz->frame(r, t);
    }
  } catch (const EventBudgetSpent&) {
    // Outputs are complete or absent: the files written during the run are removed.
    progress.finish();
    trace.reset();
    trace_file.reset();
    replay.reset();
    replay_file.reset();
    xyz.reset();
    for (const std::string* path : {&o.trace, &o.replay, &o.xyz})
      if (!path->empty()) std::filesystem::remove(*path);
    throw;
  }
  progress.finish();
  const double wall = std::chrono::duration<double>(Clock::now() - run_start).count();
  if (trace_file && !trace_file->flush()) throw InvalidInput(o.trace + ": write failed");
  if (replay_file && !replay_file->flush()) throw InvalidInput(o.replay + ": write failed");
  if (!o.contacts.empty()) save_contacts_csv(o.contacts, r.world().contacts());
  if (!o.states.empty()) save_states(o.states, r);
  print_summary(std::cout, o.scenario, r, setup, wall);
  if (o.baseline > 0) std::cout << "\n" << compare_with_baseline(r, o.baseline);
  return exit_ok;
}

}  // namespace

Command add_run_command(CLI::App& kds) {
  using namespace kds::programs;
  auto o = std::make_shared<RunOptions>();
  CLI::App* app = kds.add_subcommand("run", "Runs a scenario file (docs/scenario-json.md) and prints a summary: events by "
                                            "type, collisions, wall time per simulated second, the KDS quality figures.");
  app->add_option("scenario", o->scenario, "the scenario file (JSON; `kds generate` writes some)")
      ->required()
      ->type_name("SCENARIO.json");
  app->add_option("--structure", o->structure,
                  "the collision structure: " + sphere_world_list() +
                      " (all-pairs is the brute-force reference; hard-spheres, one event per sphere, takes ballistic "
                      "spheres without gravity and writes no --trace or --replay); default: the scenario's \"structure\"")
      ->check(one_of(sphere_world_names()))
      ->type_name("NAME");
  app->add_option("--until", o->until, "simulate until time T; default: the scenario's \"until\"")
      ->check(positive())
      ->type_name("T");
  app->add_option("--seed", o->seed, "seed of the random forces (trajectories random-forces); default: the scenario's")
      ->check(integer_in(0))
      ->type_name("S");
  app->add_flag("--audit", o->audit, "check every certificate and invariant against a static computation after every "
                                      "event, at the end and at every XYZ frame (slow; fails with the first "
                                      "inconsistency); hard-spheres also after the setup");
  app->add_option("--trace", o->trace, "write every event as a JSON line to FILE, after a header naming the scenario "
                                        "and settings (`kds replay --check FILE` re-runs it)")
      ->type_name("FILE");
  app->add_option("--replay", o->replay,
                  "write a replay file for the viewer to FILE: the trace of --trace plus every sphere's motions and "
                  "what the structure shows (docs/viewer.md); `kds replay --check FILE` reads it too")
      ->type_name("FILE");
  app->add_option("--contacts", o->contacts, "write the contacts as CSV: time,kind,a,b,wall")->type_name("FILE");
  app->add_option("--states", o->states, "write every sphere's final state as 'x y z vx vy vz' per line, in id order "
                                          "(17 significant digits)")
      ->type_name("FILE");
  CLI::Option* xyz =
      app->add_option("--export-xyz", o->xyz, "write extended XYZ frames (positions, radii, velocities) to FILE, for "
                                               "OVITO, VMD or ASE")
          ->type_name("FILE");
  app->add_option("--frames", o->frames, "number of XYZ frames, evenly spaced from t = 0 to the end (both included)")
      ->check(integer_in(1, 1000000))
      ->needs(xyz)
      ->type_name("K")
      ->capture_default_str();
  app->add_option("--baseline", o->baseline,
                  "also run the frame-based baseline (fixed frames of length DT, what fixed-step engines do; ballistic "
                  "spheres only) and count the pairs of spheres that touch in kds' run and never in the baseline's")
      ->check(positive())
      ->type_name("DT");
  app->add_option("--max-events", o->max_events,
                  "stop with an error after N events, writing no output (0: no budget); a safety budget for scenes "
                  "of unknown cost")
      ->check(integer_in(0))
      ->type_name("N")
      ->capture_default_str();
  app->add_flag("--no-progress", o->no_progress,
                "no progress bar (otherwise drawn on stderr when it is a terminal and the run lasts over a second)");
  return {app, [o, app] { return run(*o, *app); }};
}

}  // namespace kds::cli
