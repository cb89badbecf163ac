// kds_bench_sorted_list: the kinetic sorted list on random linear motions, n = 10^3 ... 10^6,
// in filtered and floating mode on the same scenes. See docs/benchmarks.md.
//
//   kds_bench_sorted_list [--min-n N] [--max-n N] [--seed S] [--csv FILE] [--swaps-per-point K] [--min-events E]
//                         [--mode both|filtered|floating]
#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/sorted_list/measure.hpp"
#include "bench/sorted_list/report.hpp"
#include "bench/sorted_list/scene.hpp"

namespace {

struct Options {
  std::size_t min_n = 1000;  ///< n runs over min_n, 10 min_n, ... up to max_n
  std::size_t max_n = 1'000'000;
  std::uint64_t seed = 20261120;
  std::string csv;  ///< empty: CSV on stdout, table on stderr
  double swaps_per_point = 3;
  /// Small n repeat their scene (with seeds seed, seed + 1, ...) until each mode has
  /// processed about this many events, so that every n is timed over a similar amount of work.
  double min_events = 3e6;
  /// One mode alone is for profiling (valgrind --tool=callgrind): no ratio is computed.
  bool run_filtered = true, run_floating = true;
};

std::uint64_t parse_count(const std::string& option, const char* text) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-')
    throw std::invalid_argument(option + ": expected a non-negative integer, got '" + text + "'");
  return v;
}

double parse_positive(const std::string& option, const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(v) || v <= 0)
    throw std::invalid_argument(option + ": expected a positive number, got '" + text + "'");
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << "usage: kds_bench_sorted_list [--min-n N] [--max-n N] [--seed S] [--csv FILE] [--swaps-per-point K]"
                   " [--min-events E] [--mode both|filtered|floating]\n";
      std::exit(0);
    }
    if (i + 1 >= argc) throw std::invalid_argument(arg + ": missing value (see --help)");
    const char* value = argv[++i];
    if (arg == "--min-n") o.min_n = parse_count(arg, value);
    else if (arg == "--max-n") o.max_n = parse_count(arg, value);
    else if (arg == "--seed") o.seed = parse_count(arg, value);
    else if (arg == "--csv") o.csv = value;
    else if (arg == "--swaps-per-point") o.swaps_per_point = parse_positive(arg, value);
    else if (arg == "--min-events") o.min_events = parse_positive(arg, value);
    else if (arg == "--mode") {
      const std::string mode = value;
      if (mode != "both" && mode != "filtered" && mode != "floating")
        throw std::invalid_argument("--mode: expected both, filtered or floating, got '" + mode + "'");
      o.run_filtered = mode != "floating";
      o.run_floating = mode != "filtered";
    }
    else throw std::invalid_argument("unknown option '" + arg + "' (see --help)");
  }
  if (o.min_n < 2) throw std::invalid_argument("--min-n: must be at least 2");
  if (o.max_n < o.min_n) throw std::invalid_argument("--max-n: must be at least --min-n (" + std::to_string(o.min_n) + ")");
  return o;
}

void add(kds::bench::RunResult& sum, const kds::bench::RunResult& r) {
  sum.setup_seconds += r.setup_seconds;
  sum.run_seconds += r.run_seconds;
  sum.run_wall_seconds += r.run_wall_seconds;
  sum.events += r.events;
  sum.swaps += r.swaps;
  sum.out_of_order += r.out_of_order;
  kds::SolverCounters& s = sum.solver;
  s.failure_computations += r.solver.failure_computations;
  s.failure_exact += r.solver.failure_exact;
  s.sign_queries += r.solver.sign_queries;
  s.sign_exact += r.solver.sign_exact;
  s.comparisons += r.solver.comparisons;
  s.comparisons_exact += r.solver.comparisons_exact;
  s.exact_roots_built += r.solver.exact_roots_built;
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace kds::bench;
  const Options options = parse(argc, argv);
  const double horizon = horizon_for(options.swaps_per_point);
  std::vector<Row> rows;
  for (std::size_t n = options.min_n; n <= options.max_n; n *= 10) {
    const double events_per_run = double(n) * options.swaps_per_point;
    const int repetitions = std::max(1, static_cast<int>(std::ceil(options.min_events / events_per_run)));
    Row filtered, floating;
    filtered.mode = kds::Exactness::filtered;
    floating.mode = kds::Exactness::floating;
    for (Row* row : {&filtered, &floating}) {
      row->n = n;
      row->repetitions = repetitions;
      row->horizon = horizon;
    }
    std::cerr << "n = " << n << ": " << repetitions << " scene(s), horizon " << horizon << " ..." << std::flush;
    for (int rep = 0; rep < repetitions; ++rep) {
      const std::vector<Point> scene = random_scene(n, options.seed + static_cast<std::uint64_t>(rep));
      // Alternate which mode runs first, so that a slow phase of a noisy machine hits both.
      for (Row* row : rep % 2 == 0 ? std::array{&floating, &filtered} : std::array{&filtered, &floating}) {
        const bool wanted = row->mode == kds::Exactness::filtered ? options.run_filtered : options.run_floating;
        if (wanted) add(row->total, run_scene(scene, horizon, row->mode));
      }
    }
    std::cerr << " done\n";
    if (options.run_filtered && options.run_floating)
      filtered.filtered_over_floating = filtered.total.run_seconds / floating.total.run_seconds;
    if (options.run_filtered) rows.push_back(filtered);
    if (options.run_floating) rows.push_back(floating);
  }
  if (options.csv.empty()) {
    write_table(std::cerr, rows);
    write_csv(std::cout, rows);
  } else {
    std::ofstream file(options.csv);
    if (!file) throw std::runtime_error("--csv: cannot write '" + options.csv + "'");
    write_csv(file, rows);
    write_table(std::cout, rows);
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "kds_bench_sorted_list: " << e.what() << '\n';
  return 1;
}
