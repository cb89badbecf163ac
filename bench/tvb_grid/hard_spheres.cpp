// kds_bench_tvb_hard_spheres: the sphere world as an exact event-driven hard-sphere
// simulator (issue 3, targets: 8e5 collisions per second at N = 10^4 and 4e5 at 10^6,
// volume fraction 0.4, exactness on; at most 200 bytes per sphere). Equal ballistic
// spheres, no gravity, elastic, started on a lattice. For each N and volume fraction:
// set-up time, heap bytes per sphere, and collisions per CPU second after a warm-up,
// with exactness on (filtered) and, for the ratio, floating-point only.
//
//   kds_bench_tvb_hard_spheres [--n 1000,10000] [--phi 0.1,0.4] [--collisions-per-sphere K]
//                              [--budget S] [--seed S] [--csv FILE] [--floating] [--broad-phase NAME]
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench/tvb_grid/lattice_scene.hpp"
#include "bench/tvb_grid/measure.hpp"
#include "examples/common/command_line.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"

namespace {

struct Row {
  std::size_t n;
  double phi;
  const char* mode;
  double setup_cpu, bytes_per_sphere_built, bytes_per_sphere_run;
  std::uint64_t collisions, events;
  double cpu, wall;
};

Row run(std::size_t n, double phi, std::uint64_t seed, kds::Exactness exactness, double per_sphere, double budget,
        const std::string& broad_phase) {
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(n, phi, seed);
  kds::CollisionWorldSettings settings;
  settings.box = scene.box;
  settings.broad_phase = broad_phase;
  const std::size_t heap0 = kds::bench::heap_bytes();
  const kds::bench::Stopwatch setup;
  kds::Simulator sim(kds::SimulatorSettings{exactness});
  kds::CollisionWorld world(sim, settings, scene.spheres);
  sim.flush();
  Row row{n, phi, exactness == kds::Exactness::filtered ? "filtered" : "floating", setup.cpu(), 0, 0, 0, 0, 0, 0};
  row.bytes_per_sphere_built = static_cast<double>(kds::bench::heap_bytes() - heap0) / static_cast<double>(n);

  // Warm-up: the lattice start is not an equilibrium; let every sphere collide a few times.
  const double warm = 0.25 * per_sphere * static_cast<double>(n);
  while (static_cast<double>(world.sphere_contacts()) < warm && sim.step()) {
  }
  const std::uint64_t c0 = world.sphere_contacts(), e0 = sim.statistics().events;
  const double target = static_cast<double>(c0) + per_sphere * static_cast<double>(n);
  const kds::bench::Stopwatch timed;
  for (std::uint64_t k = 0;; ++k) {
    if (static_cast<double>(world.sphere_contacts()) >= target || !sim.step()) break;
    if (k % 4096 == 0 && timed.cpu() > budget) break;
  }
  row.cpu = timed.cpu();
  row.wall = timed.wall();
  row.collisions = world.sphere_contacts() - c0;
  row.events = sim.statistics().events - e0;
  row.bytes_per_sphere_run = static_cast<double>(kds::bench::heap_bytes() - heap0) / static_cast<double>(n);
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kds::programs;
  std::vector<double> ns{1000, 10000}, phis{0.1, 0.4};
  double per_sphere = 2, budget = 15;
  std::uint64_t seed = 1;
  std::string csv_path;
  bool floating = false;
  std::string broad_phase = "tvb-grid";
  CommandLine line("kds_bench_tvb_hard_spheres",
                   "Equal ballistic hard spheres on a lattice start; collisions per CPU second and heap bytes per "
                   "sphere.");
  line.add_option("--n", ns, "sphere counts (100000 takes minutes to set up)")
      ->delimiter(',')
      ->check(at_least(8))
      ->capture_default_str();
  line.add_option("--phi", phis, "volume fractions")->delimiter(',')->check(at_least(1e-6))->capture_default_str();
  line.add_option("--collisions-per-sphere", per_sphere, "timed collisions per sphere after a warm-up of a quarter as many")
      ->check(at_least(1e-3))
      ->capture_default_str();
  line.add_option("--budget", budget, "stop timing a configuration after this many CPU seconds")
      ->check(at_least(0.01))
      ->capture_default_str();
  line.add_option("--seed", seed, "seed of the velocities")->check(integer_in(0))->capture_default_str();
  line.add_option("--csv", csv_path, "CSV output (default: stdout only)")->type_name("FILE");
  line.add_flag("--floating", floating, "also run in floating-point-only mode, for the cost of exactness");
  line.add_option("--broad-phase", broad_phase, "a registered broad phase (all-pairs is O(n) per event)")
      ->check(one_of(kds::broad_phase_names()))
      ->capture_default_str();
  line.parse_or_exit(argc, argv);

  std::ofstream csv;
  kds::bench::open_csv(csv, csv_path, "n,phi,mode,setup_cpu_s,bytes_per_sphere_built,bytes_per_sphere_after_run,collisions,events,cpu_s,wall_s,"
                       "collisions_per_cpu_s,events_per_cpu_s");

  std::printf("Hard spheres: equal ballistic spheres, lattice start, seed %llu (rates per CPU second)\n",
              static_cast<unsigned long long>(seed));
  std::printf("%8s %5s %9s %9s %10s %10s %11s %11s %12s %12s\n", "N", "phi", "mode", "setup s", "B/sphere",
              "B/sph run", "collisions", "CPU s", "coll/s", "events/s");
  for (double phi : phis)
    for (double nd : ns)
      for (kds::Exactness mode : {kds::Exactness::filtered, kds::Exactness::floating}) {
        if (mode == kds::Exactness::floating && !floating) continue;
        try {
          const Row r = run(static_cast<std::size_t>(nd), phi, seed, mode, per_sphere, budget, broad_phase);
          const double cps = static_cast<double>(r.collisions) / r.cpu, eps = static_cast<double>(r.events) / r.cpu;
          std::printf("%8zu %5.2f %9s %9.2f %10.0f %10.0f %11llu %11.2f %12.3g %12.3g\n", r.n, r.phi, r.mode,
                      r.setup_cpu, r.bytes_per_sphere_built, r.bytes_per_sphere_run,
                      static_cast<unsigned long long>(r.collisions), r.cpu, cps, eps);
          std::fflush(stdout);
          if (csv)
            csv << r.n << ',' << r.phi << ',' << r.mode << ',' << r.setup_cpu << ',' << r.bytes_per_sphere_built << ','
                << r.bytes_per_sphere_run << ',' << r.collisions << ',' << r.events << ',' << r.cpu << ',' << r.wall
                << ',' << cps << ',' << eps << std::endl;  // flushed: a stopped run keeps its rows
        } catch (const std::exception& e) {
          std::printf("%8zu %5.2f: %s\n", static_cast<std::size_t>(nd), phi, e.what());
        }
      }
  return 0;
}
