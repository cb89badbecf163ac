// kds_bench_sorted_list: the kinetic sorted list on random linear motions, n = 10^3 ... 10^6,
// in filtered and floating mode on the same scenes. See docs/benchmarks.md.
//
//   kds_bench_sorted_list [--min-n N] [--max-n N] [--seed S] [--csv FILE] [--swaps-per-point K] [--min-events E]
//                         [--mode both|filtered|floating]
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/common/csv_file.hpp"
#include "bench/sorted_list/measure.hpp"
#include "bench/sorted_list/report.hpp"
#include "bench/sorted_list/scene.hpp"
#include "examples/common/command_line.hpp"

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

Options parse(int argc, char** argv) {
  using namespace kds::programs;
  Options o;
  CommandLine line("kds_bench_sorted_list",
                   "The kinetic sorted list on random linear motions, n = min-n, 10 min-n, ... up to max-n.");
  line.add_option("--min-n", o.min_n, "smallest n")->check(integer_in(2))->capture_default_str();
  line.add_option("--max-n", o.max_n, "largest n")->check(integer_in(0))->capture_default_str();
  line.add_option("--seed", o.seed, "seed of the first scene")->check(integer_in(0))->capture_default_str();
  line.add_option("--csv", o.csv, "CSV output (default: CSV on stdout, table on stderr)")->type_name("FILE");
  line.add_option("--swaps-per-point", o.swaps_per_point, "swaps per point the horizon is chosen for")
      ->check(positive())
      ->capture_default_str();
  line.add_option("--min-events", o.min_events, "events per mode and n, repeating small scenes")
      ->check(positive())
      ->capture_default_str();
  std::string mode = "both";
  line.add_option("--mode", mode, "both, or one mode alone for profiling (no ratio)")
      ->check(one_of({"both", "filtered", "floating"}))
      ->capture_default_str();
  line.parse_or_exit(argc, argv);
  if (o.max_n < o.min_n) line.fail("--max-n: must be at least --min-n (" + std::to_string(o.min_n) + ")");
  o.run_filtered = mode != "floating";
  o.run_floating = mode != "filtered";
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
  // The checked CSV file (bench/common/csv_file.hpp), opened before the runs: a path that
  // cannot be written, or a write that fails, stops the program naming the file. Its
  // header and rows are write_csv's lines. No file (is_open() false) without --csv.
  std::string header;
  {
    std::ostringstream text;
    write_csv(text, {});
    header = text.str().substr(0, text.str().find('\n'));
  }
  CsvFile file("kds_bench_sorted_list", options.csv, header);
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
    std::ostringstream text;
    write_csv(text, rows);
    std::istringstream lines(text.str());
    std::string row;
    std::getline(lines, row);  // the header, written already
    while (std::getline(lines, row)) file.row(row);
    file.close();
    write_table(std::cout, rows);
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "kds_bench_sorted_list: " << e.what() << '\n';
  return 1;
}
