// kds_bench_rolling_balls: the KDS quality of the rolling-ball collision tree (issue 9,
// item 4) against the bounds of Abam, de Berg, Poon and Speckmann: O(n log n)
// certificates (reported as certificates / (n log2 n)), certificates per ball, and events
// per collision, for the two layouts of the sorted lists (per node, and two global lists)
// on the same random scenes. Balls of radii log-uniform in [1, spread] (masses ~ r^3,
// speeds up to 1) roll on a square table of the given expected area fraction, bouncing
// elastically with the planar response.
//
//   kds_bench_rolling_balls [--n 100,1000,10000] [--layouts rolling-tree,rolling-tree-global]
//                           [--spread S] [--area-fraction F] [--collisions-per-ball K]
//                           [--budget S] [--seed S] [--csv FILE]
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/common/csv_file.hpp"
#include "bench/common/measured_run.hpp"
#include "bench/common/run_options.hpp"
#include "bench/common/stopwatch.hpp"
#include "examples/common/command_line.hpp"
#include "examples/common/rolling_scene.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/rolling_balls/planar_response.hpp"
#include "structures/rolling_balls/rolling_tree.hpp"

namespace {

struct Row {
  std::size_t n = 0;
  std::string layout;
  double setup_cpu = 0, cpu = 0;
  std::size_t lists = 0, entries = 0, order_certificates = 0, memberships = 0;
  std::uint64_t events = 0, swaps = 0, membership_changes = 0, ball_contacts = 0, wall_contacts = 0;
};

Row run(std::size_t n, const std::string& layout, double spread, double fraction, double per_ball, double budget,
        std::uint64_t seed) {
  // Radii log-uniform in [1, spread]; the table's side from the expected disk area.
  const double pi = 3.141592653589793, mean_r2 = spread == 1 ? 1 : (spread * spread - 1) / (2 * std::log(spread));
  const double side = std::sqrt(static_cast<double>(n) * pi * mean_r2 / fraction);
  kds::CollisionWorldSettings settings;
  settings.box = kds::Box3{{0, 0, 0}, {side, side, 2 * spread + 1}};
  const kds::examples::RollingSceneSpec spec{n, 1, spread, 1, 1};
  const std::vector<kds::Sphere> balls = kds::examples::scatter_rolling_balls(spec, settings.box, seed);
  settings.broad_phase = layout;
  Row row;
  row.n = n;
  row.layout = layout;
  const kds::bench::Stopwatch setup;
  kds::Simulator sim;
  kds::CollisionWorld world(sim, settings, balls);
  kds::use_planar_response(world);
  sim.flush();
  row.setup_cpu = setup.cpu();
  const auto& tree = dynamic_cast<const kds::RollingTree&>(world.broad_phase());
  kds::bench::RunLimits limits;
  limits.contacts = per_ball * static_cast<double>(n);
  limits.cpu_budget = budget;
  const kds::bench::RunTiming timed = kds::bench::run_measured(sim, world, limits);
  row.cpu = timed.cpu;
  row.events = timed.events;
  row.lists = tree.sorted_lists();
  row.entries = tree.list_entries();
  row.order_certificates = tree.order_certificates();
  row.memberships = tree.memberships();
  row.swaps = tree.swaps();
  row.membership_changes = tree.membership_changes();
  row.ball_contacts = world.sphere_contacts();
  row.wall_contacts = world.wall_contacts();
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kds::programs;
  kds::bench::RunOptions run_options;
  run_options.ns = {100, 1000, 10000};
  std::vector<std::string> layouts{"rolling-tree", "rolling-tree-global"};
  double spread = 10, fraction = 0.2;
  CommandLine line("kds_bench_rolling_balls",
                   "Rolling-ball collision tree: certificates / (n log2 n), certificates per ball, events per "
                   "collision, per layout of the sorted lists.");
  kds::bench::add_count_option(line, run_options, "ball");
  line.add_option("--layouts", layouts, "broad phases to measure")
      ->delimiter(',')
      ->check(one_of({"rolling-tree", "rolling-tree-global"}))
      ->capture_default_str();
  line.add_option("--spread", spread, "radii log-uniform in [1, spread]")->check(at_least(1))->capture_default_str();
  line.add_option("--area-fraction", fraction, "sum of the balls' disks over the table's area")
      ->check(at_least(1e-6))
      ->capture_default_str();
  kds::bench::add_run_options(line, run_options, "ball");
  line.parse_or_exit(argc, argv);
  const std::uint64_t seed = run_options.seed;

  kds::bench::CsvFile csv("kds_bench_rolling_balls", run_options.csv_path,
                          "n,layout,spread,area_fraction,setup_cpu_s,sorted_lists,list_entries,order_certificates,"
                          "memberships,certificates,certificates_per_ball,certificates_per_nlog2n,events,swaps,"
                          "membership_changes,ball_contacts,wall_contacts,events_per_collision,cpu_s,events_per_cpu_s");
  std::printf("Rolling-ball tree: radii in [1, %g], area fraction %g, seed %llu; certificates = order "
              "certificates of the sorted lists + one per box membership (the pair certificates)\n",
              spread, fraction, static_cast<unsigned long long>(seed));
  std::printf("%7s %20s %8s %9s %8s %10s %9s %10s %10s %9s %8s %10s\n", "n", "layout", "setup s", "lists", "certs",
              "cert/ball", "c/nlog2n", "events", "ball hits", "ev/hit", "CPU s", "events/s");
  for (double nd : run_options.ns)
    for (const std::string& layout : layouts) {
      const auto n = static_cast<std::size_t>(nd);
      try {
        const Row r = run(n, layout, spread, fraction, run_options.contacts_per_body, run_options.budget, seed);
        const double certs = static_cast<double>(r.order_certificates + r.memberships);
        const double per_ball_c = certs / static_cast<double>(n);
        const double per_nlogn = certs / (static_cast<double>(n) * std::log2(static_cast<double>(n)));
        const double per_hit =
            r.ball_contacts > 0 ? static_cast<double>(r.events) / static_cast<double>(r.ball_contacts) : 0.0;
        const double eps = static_cast<double>(r.events) / r.cpu;
        std::printf("%7zu %20s %8.2f %9zu %8.0f %10.2f %9.3f %10llu %10llu %9.1f %8.2f %10.3g\n", n, layout.c_str(),
                    r.setup_cpu, r.lists, certs, per_ball_c, per_nlogn, static_cast<unsigned long long>(r.events),
                    static_cast<unsigned long long>(r.ball_contacts), per_hit, r.cpu, eps);
        std::fflush(stdout);
        csv.row(n, layout, spread, fraction, r.setup_cpu, r.lists, r.entries, r.order_certificates, r.memberships, certs,
                per_ball_c, per_nlogn, r.events, r.swaps, r.membership_changes, r.ball_contacts, r.wall_contacts,
                per_hit, r.cpu, eps);
      } catch (const std::exception& e) {
        std::printf("%7zu %20s: %s\n", n, layout.c_str(), e.what());
      }
    }
  csv.close();
  return 0;
}
