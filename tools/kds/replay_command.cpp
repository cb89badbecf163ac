// kds replay --check TRACE: runs the scenario a trace names, with the trace's settings,
// and confirms that the same events happen in the same order (docs/cli.md).
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "kds/errors.hpp"
#include "kds/report/trace.hpp"
#include "kds/simulator.hpp"
#include "tools/kds/commands.hpp"
#include "tools/kds/scenario_reader.hpp"
#include "tools/kds/trace_header.hpp"

namespace kds::cli {
namespace {

struct ReplayOptions {
  std::string trace;
  std::string scenario;  ///< overrides the trace's scenario path
  bool check = false;
};

/// The first difference between the recorded and the replayed events.
struct Mismatch {
  std::uint64_t line;  ///< of the trace file
  std::string what, recorded, replayed;
};

/// Compares each event the replay writes (through a TraceWriter into `written`) with the
/// next line of the trace, as it happens: a long run stops at the first difference.
class TraceComparer final : public Observer {
 public:
  TraceComparer(std::istream& recorded, std::ostringstream& written) : recorded_(recorded), written_(written) {}
  void on_event(const EventRecord& e) override {
    std::string replayed = written_.str();
    written_.str("");
    if (!replayed.empty() && replayed.back() == '\n') replayed.pop_back();
    std::string line;
    if (!next_event_line(line))
      throw Mismatch{line_ + 1, "the trace ends after " + std::to_string(e.index) + " events; the replay goes on", "",
                     replayed};
    if (line != replayed) throw Mismatch{line_, "event " + std::to_string(e.index) + " differs", line, replayed};
  }
  /// After the run: the trace must have no more events.
  void finish(std::uint64_t events) {
    std::string line;
    while (next_event_line(line)) {
      if (!line.empty())
        throw Mismatch{line_, "the replay ended after " + std::to_string(events) + " events; the trace goes on", line,
                       ""};
    }
  }

 private:
  /// The next line that is not one of the viewer's lines of a replay file (the scene,
  /// motion and draw lines of `kds run --replay`: tools/kds/replay_writer.hpp).
  bool next_event_line(std::string& line) {
    while (std::getline(recorded_, line)) {
      ++line_;
      if (!is_viewer_line(line)) return true;
    }
    return false;
  }
  static bool is_viewer_line(const std::string& line) {
    for (const char* prefix : {"{\"kds_replay\":", "{\"motion\":", "{\"draw\":"})
      if (line.starts_with(prefix)) return true;
    return false;
  }

  std::istream& recorded_;
  std::ostringstream& written_;
  std::uint64_t line_ = 1;  // the header
};

int replay(const ReplayOptions& o) {
  std::ifstream in(o.trace);
  if (!in) throw InvalidInput(o.trace + ": cannot open the file");
  std::string first;
  if (!std::getline(in, first)) throw InvalidInput(o.trace + ": empty file, not a trace");
  const TraceHeader h = parse_trace_header(first, o.trace);
  const std::string path = o.scenario.empty() ? h.scenario : o.scenario;
  const std::string text = read_file(path);
  if (content_hash(text) != h.scenario_hash)
    throw InvalidInput(path + ": not the scenario the trace was recorded with (its FNV-1a 64 hash is " +
                       content_hash(text) + ", the trace " + o.trace + " says " + h.scenario_hash +
                       "): the file changed since");
  ScenarioRun run(read_scenario(text, path), h.settings);
  std::ostringstream written;
  TraceWriter writer(written);
  TraceComparer comparer(in, written);
  Simulator& sim = run.simulator("kds replay --check");
  sim.add_observer(writer);
  sim.add_observer(comparer);
  try {
    run.world().run_until(run.until());
    comparer.finish(run.world().events());
  } catch (const Mismatch& m) {
    std::cerr << "kds replay: " << o.trace << ":" << m.line << ": " << m.what << "\n";
    if (!m.recorded.empty()) std::cerr << "  recorded: " << m.recorded << "\n";
    if (!m.replayed.empty()) std::cerr << "  replayed: " << m.replayed << "\n";
    return exit_mismatch;
  }
  std::cout << "kds replay: " << run.world().events() << " events until t = " << run.until()
            << ", the same sequence as " << o.trace << " (scenario " << path << ", structure " << run.structure()
            << ")\n";
  return exit_ok;
}

}  // namespace

Command add_replay_command(CLI::App& kds) {
  auto o = std::make_shared<ReplayOptions>();
  CLI::App* app = kds.add_subcommand(
      "replay", "Re-runs the scenario recorded in a trace (written by `kds run --trace`) with the same settings and checks "
                "that the same events happen in the same order. Exit code 0 if so, 3 and the first differing event if "
                "not, 1 if the trace or scenario cannot be read.");
  app->add_option("trace", o->trace, "a trace written by `kds run --trace`")->required()->type_name("TRACE");
  app->add_flag("--check", o->check, "compare the replayed events with the trace's (required: the only mode so far)")
      ->required();
  app->add_option("--scenario", o->scenario,
                  "the scenario file, if it moved since the trace was written (its content must be the same)")
      ->type_name("FILE");
  return {app, [o] { return replay(*o); }};
}

}  // namespace kds::cli
