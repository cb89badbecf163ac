// kds_bench_tvb_cell_size: the cell-size sweep of issue 3. The paper's scene (unknown
// trajectories, random forces within the bound) at n = 1000, run with each fixed cell
// ratio (cell side / largest diameter of a level) and with the cost model's default; the
// default should be within 20% of the best fixed ratio.
//
//   kds_bench_tvb_cell_size [--n 1000] [--ratios 2,2.5,3,4,5,6,8] [--seconds T] [--budget S] [--seed S]
//                           [--ballistic] [--csv FILE]
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "bench/common/csv_file.hpp"
#include "bench/tvb_grid/measure.hpp"
#include "bench/tvb_grid/world_run.hpp"
#include "examples/common/command_line.hpp"
#include "examples/paper_experiment/paper_scene.hpp"

int main(int argc, char** argv) {
  using namespace kds::programs;
  kds::paper::PaperScene scene;
  std::vector<double> ratios{2, 2.5, 3, 4, 5, 6, 8};
  double seconds = 1, budget = 20;
  std::string csv_path;
  CommandLine line("kds_bench_tvb_cell_size",
                   "CPU seconds per simulated second of the paper's scene for fixed cell ratios and the cost model's "
                   "default.");
  line.add_option("--n", scene.n, "spheres")->check(integer_in(2))->capture_default_str();
  line.add_option("--ratios", ratios, "fixed cell ratios")->delimiter(',')->check(at_least(2))->capture_default_str();
  line.add_option("--seconds", seconds, "simulated seconds per run")->check(at_least(1e-3))->capture_default_str();
  line.add_option("--budget", budget, "stop a run after this many CPU seconds")->check(at_least(1e-3))->capture_default_str();
  line.add_option("--seed", scene.seed, "seed of the scene and the forces")->check(integer_in(0))->capture_default_str();
  line.add_flag("--ballistic", scene.ballistic, "A = 0 (exact straight-line motion) instead of random forces");
  line.add_option("--csv", csv_path, "CSV output")->type_name("FILE");
  line.parse_or_exit(argc, argv);

  const auto spheres = kds::paper::paper_spheres(scene);
  const kds::Box3 box = kds::paper::cube(scene.box_side);
  kds::bench::CsvFile csv("kds_bench_tvb_cell_size", csv_path, std::string("n,mode,choice,cell_ratio,simulated_s,cpu_s,wall_s,cpu_s_per_simulated_s,events,") +
                                                kds::bench::event_kind_columns() + ",sphere_contacts,probes");

  const char* mode = scene.ballistic ? "ballistic" : "unknown";
  std::printf("Cell-size sweep: the paper's scene, n = %zu, %s trajectories, seed %llu\n", scene.n, mode,
              static_cast<unsigned long long>(scene.seed));
  std::printf("%-8s %6s %8s %12s %10s %9s\n", "choice", "ratio", "sim s", "CPU s/sim s", "events", "contacts");

  double best = std::numeric_limits<double>::infinity(), best_ratio = 0, model = 0, model_ratio = 0;
  auto report = [&](const char* choice, const kds::bench::WorldRun& r) {
    const double cost = r.cpu_per_simulated_second();
    std::printf("%-8s %6.2f %8.3f %12.4f %10llu %9llu\n", choice, r.cell_ratio, r.simulated, cost,
                static_cast<unsigned long long>(r.statistics.events), static_cast<unsigned long long>(r.sphere_contacts));
    std::fflush(stdout);
    csv.row(scene.n, mode, choice, r.cell_ratio, r.simulated, r.cpu, r.wall, cost, r.statistics.events,
            kds::bench::comma_separated(kds::bench::event_kind_counts(r.statistics)), r.sphere_contacts, r.probes);
  };
  for (double k : ratios) {
    const auto r = kds::bench::run_world(spheres, box, "tvb-grid", k, scene.seed, seconds, budget);
    report("fixed", r);
    if (r.cpu_per_simulated_second() < best) {
      best = r.cpu_per_simulated_second();
      best_ratio = k;
    }
  }
  const auto r = kds::bench::run_world(spheres, box, "tvb-grid", 0, scene.seed, seconds, budget);
  report("model", r);
  model = r.cpu_per_simulated_second();
  model_ratio = r.cell_ratio;
  std::printf("\nBest fixed ratio %.2f: %.4f CPU s per simulated second. Cost model's ratio %.2f: %.4f, %.2f x the best"
              " (target: at most 1.20).\n",
              best_ratio, best, model_ratio, model, model / best);
  csv.close();
  return 0;
}
