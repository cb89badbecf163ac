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

#include "bench/tvb_grid/lattice_scene.hpp"
#include "bench/tvb_grid/measure.hpp"
#include "examples/common/arguments.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"

namespace {

const char* kUsage =
    "usage: kds_bench_tvb_hard_spheres [--n LIST] [--phi LIST] [--collisions-per-sphere K] [--budget S]\n"
    "                                  [--seed S] [--csv FILE] [--floating] [--broad-phase NAME]\n"
    "Equal ballistic hard spheres on a lattice start; collisions per CPU second and heap bytes per sphere.\n"
    "  --n LIST                  sphere counts (default 1000,10000; 100000 takes minutes to set up)\n"
    "  --phi LIST                volume fractions (default 0.1,0.4)\n"
    "  --collisions-per-sphere K timed collisions per sphere after a warm-up of K/4 (default 2)\n"
    "  --budget S                stop timing a configuration after S CPU seconds (default 15)\n"
    "  --seed S                  seed of the velocities (default 1)\n"
    "  --csv FILE                CSV output (default: stdout only)\n"
    "  --floating                also run in floating-point-only mode, for the cost of exactness\n"
    "  --broad-phase NAME        a registered broad phase (default tvb-grid; all-pairs is O(n) per event)\n";

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
  const kds::programs::Arguments args(argc, argv, kUsage,
                                      {"--n", "--phi", "--collisions-per-sphere", "--budget", "--seed", "--csv", "--broad-phase"},
                                      {"--floating"});
  const auto ns = args.list("--n", {1000, 10000}, 8);
  const auto phis = args.list("--phi", {0.1, 0.4}, 1e-6);
  const double per_sphere = args.number("--collisions-per-sphere", 2, 1e-3);
  const double budget = args.number("--budget", 15, 0.01);
  const auto seed = static_cast<std::uint64_t>(args.number("--seed", 1, 0));
  const std::string csv_path = args.text("--csv", "");
  const std::string broad_phase = args.text("--broad-phase", "tvb-grid");

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
        if (mode == kds::Exactness::floating && !args.flag("--floating")) continue;
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
