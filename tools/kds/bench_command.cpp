// kds bench: runs the benchmark programs of bench/ and collects their CSV (docs/cli.md).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "examples/common/command_line.hpp"
#include "kds/errors.hpp"
#include "structures/sphere_worlds.hpp"
#include "tools/kds/commands.hpp"

#ifndef KDS_BENCH_DIR
#define KDS_BENCH_DIR ""
#endif

namespace kds::cli {
namespace {

namespace fs = std::filesystem;

struct BenchOptions {
  std::string out = "bench-results";
  std::string programs;
  std::vector<std::string> only;
  std::string structure;  ///< passed to the benchmarks that run a structure by name; empty: theirs
  bool quick = false;
  bool list = false;
};

/// Small sizes for --quick (the ones of the CTest smoke runs): seconds instead of minutes.
/// A benchmark without an entry runs with its own defaults, or is skipped by --quick.
const std::map<std::string, std::vector<std::string>>& quick_arguments() {
  static const std::map<std::string, std::vector<std::string>> quick = {
      {"box_overlap", {"--n", "100,300", "--spread", "1.5,20", "--collisions-per-sphere", "0.5", "--broad-phases",
                       "box-overlap,tvb-grid"}},
      {"event_cost", {"--hard-spheres-n", "200", "--paper-n", "30", "--sorted-n", "1000", "--paper-seconds", "0.1",
                      "--min-events", "10000", "--collisions-per-sphere", "0.5"}},
      {"event_queue", {"--m", "100,1000", "--events", "20000", "--churn", "10", "--churn-events", "2000"}},
      {"guards_cones", {"--n", "40,80", "--collisions-per-sphere", "0.05", "--budget", "5"}},
      {"hard_spheres_energy", {"--n", "1000", "--collisions", "20000"}},
      {"rolling_balls", {"--n", "50,200", "--collisions-per-ball", "0.5"}},
      {"sorted_list", {"--max-n", "1000", "--min-events", "10000"}},
      {"tvb_paper", {"--n", "30,100", "--seconds", "0.2", "--miss-seconds", "0.1"}},
      {"tvb_hard_spheres", {"--n", "200", "--phi", "0.1,0.4", "--collisions-per-sphere", "0.5"}},
      {"tvb_cell_size", {"--n", "100", "--ratios", "2,4", "--seconds", "0.2"}},
  };
  return quick;
}

/// The benchmarks that run a sphere world named by --structure (structures/sphere_worlds.hpp).
const std::set<std::string>& structure_benchmarks() {
  static const std::set<std::string> names = {"tvb_hard_spheres"};
  return names;
}

/// The benchmark programs (kds_bench_*) under `dir`, by short name ("tvb_paper").
std::map<std::string, fs::path> find_programs(const fs::path& dir) {
  std::map<std::string, fs::path> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_regular_file() && name.rfind("kds_bench_", 0) == 0 && name.find('.') == std::string::npos &&
        access(it->path().c_str(), X_OK) == 0)
      found.emplace(name.substr(10), it->path());
  }
  return found;
}

/// Runs a program with arguments (no shell), its output going to ours; returns its exit code.
int execute(const fs::path& program, const std::vector<std::string>& args) {
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) throw InvalidInput("cannot start " + program.string());
  if (pid == 0) {
    std::vector<char*> argv;
    std::string path = program.string();
    argv.push_back(path.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(path.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int bench(const BenchOptions& o) {
  std::string dir = o.programs;
  if (dir.empty()) {
    const char* env = std::getenv("KDS_BENCH_DIR");
    dir = env != nullptr ? env : KDS_BENCH_DIR;
  }
  if (dir.empty() || !fs::is_directory(dir))
    throw InvalidInput("no benchmark programs: '" + dir + "' is not a directory (build with KDS_BUILD_BENCH=ON, or give --programs DIR or KDS_BENCH_DIR)");
  const std::map<std::string, fs::path> programs = find_programs(dir);
  if (programs.empty()) throw InvalidInput("no kds_bench_* programs under " + dir + " (build them first)");
  if (o.list) {
    for (const auto& [name, path] : programs)
      std::cout << name << "  " << path.string() << (quick_arguments().count(name) ? "" : "  (no --quick settings)") << "\n";
    return exit_ok;
  }
  for (const std::string& name : o.only)
    if (!programs.count(name)) throw InvalidInput("--only: no benchmark named '" + name + "' under " + dir + " (kds bench --list)");

  fs::create_directories(o.out);
  std::ofstream runs(fs::path(o.out) / "runs.csv");
  if (!runs) throw InvalidInput(o.out + ": cannot write runs.csv there");
  runs << "benchmark,mode,exit_code,wall_seconds,csv\n";
  int failures = 0;
  for (const auto& [name, path] : programs) {
    if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), name) == o.only.end()) continue;
    const auto quick = quick_arguments().find(name);
    if (o.quick && quick == quick_arguments().end()) {
      std::cout << "kds bench: " << name << ": skipped (no --quick settings known)\n";
      continue;
    }
    std::vector<std::string> args = o.quick ? quick->second : std::vector<std::string>{};
    if (!o.structure.empty() && structure_benchmarks().count(name)) {
      args.push_back("--structure");
      args.push_back(o.structure);
    }
    const fs::path csv = fs::path(o.out) / (name + ".csv");
    args.push_back("--csv");
    args.push_back(csv.string());
    std::cout << "kds bench: " << name << ": " << path.string();
    for (const std::string& a : args) std::cout << ' ' << a;
    std::cout << std::endl;
    const auto start = std::chrono::steady_clock::now();
    const int code = execute(path, args);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    runs << name << ',' << (o.quick ? "quick" : "full") << ',' << code << ',' << wall << ',' << csv.string() << '\n';
    runs.flush();
    if (code != 0) {
      ++failures;
      std::cerr << "kds bench: " << name << " exited with " << code << "\n";
    }
  }
  std::cout << "kds bench: results in " << o.out << " (runs.csv lists the runs)\n";
  return failures == 0 ? exit_ok : exit_failure;
}

}  // namespace

Command add_bench_command(CLI::App& kds) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* app = kds.add_subcommand(
      "bench", "Runs the benchmark programs of bench/ (every kds_bench_* built) and writes one CSV per benchmark, and "
               "runs.csv listing the runs, into a folder. docs/benchmarks.md explains the columns.");
  app->add_option("--out", o->out, "the folder for the CSV files")->type_name("DIR")->capture_default_str();
  app->add_flag("--quick", o->quick, "small sizes (seconds, not minutes): to check that everything runs");
  app->add_option("--only", o->only, "run only these benchmarks (names as --list prints them)")
      ->delimiter(',')
      ->type_name("NAME,...");
  app->add_option("--programs", o->programs,
                  "where the benchmark programs are (default: KDS_BENCH_DIR from the environment, else this build's "
                  "bench folder)")
      ->type_name("DIR");
  std::string takers;
  for (const std::string& n : structure_benchmarks()) takers += (takers.empty() ? "" : ", ") + n;
  app->add_option("--structure", o->structure,
                  "the structure of the benchmarks that run one by name (" + takers + "): " + sphere_world_list() +
                      "; default: each benchmark's own")
      ->check(kds::programs::one_of(sphere_world_names()))
      ->type_name("NAME");
  app->add_flag("--list", o->list, "list the benchmarks found and exit");
  return {app, [o] { return bench(*o); }};
}

}  // namespace kds::cli
