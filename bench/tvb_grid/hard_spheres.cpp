// kds_bench_tvb_hard_spheres: the sphere world as an exact event-driven hard-sphere
// simulator (issue 3, targets: 8e5 collisions per second at N = 10^4 and 4e5 at 10^6,
// volume fraction 0.4, exactness on; at most 200 bytes per sphere). Equal ballistic
// spheres, no gravity, elastic, started on a lattice. For each N and volume fraction:
// set-up time, heap bytes per sphere, and collisions per CPU second after a warm-up,
// with exactness on (filtered) and, for the ratio, floating-point only.
//
//   kds_bench_tvb_hard_spheres [--n 1000,10000] [--phi 0.1,0.4] [--collisions-per-sphere K]
//                              [--budget S] [--seed S] [--csv FILE] [--floating] [--structure NAME]
//
// --structure names any sphere world (structures/sphere_worlds.hpp): a broad phase of the
// collision world, or hard-spheres (one event per sphere; no floating mode, so --floating
// rows are skipped for it). Every structure is run the same way, by run_until over chunks
// of simulated time sized to about an eighth of the collisions still to go.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/csv_file.hpp"
#include "bench/tvb_grid/lattice_scene.hpp"
#include "bench/tvb_grid/measure.hpp"
#include "examples/common/command_line.hpp"
#include "structures/hard_spheres/hard_sphere_world_model.hpp"
#include "structures/sphere_worlds.hpp"

namespace {

struct Row {
  std::size_t n;
  double phi;
  const char* mode;
  double setup_cpu, bytes_per_sphere_built, bytes_per_sphere_run;
  std::uint64_t collisions, events;
  double cpu, wall;
};

/// Runs `world` until it has `target` sphere contacts or `budget` CPU seconds of `watch`
/// have passed, by run_until over chunks of simulated time, each sized from the rate so far
/// to about an eighth of the contacts still to go (run_until is what every structure offers).
void run_to_contacts(kds::SphereWorld& world, double target, double budget, const kds::bench::Stopwatch& watch) {
  double dt = 0.01;  // radius 1, speeds below sqrt 3: a small fraction of a free flight
  while (static_cast<double>(world.sphere_contacts()) < target && watch.cpu() < budget) {
    const std::uint64_t before = world.sphere_contacts();
    world.run_until(world.now() + dt);
    const double got = static_cast<double>(world.sphere_contacts() - before);
    const double left = target - static_cast<double>(world.sphere_contacts());
    dt *= got > 0 ? std::clamp(left / 8 / got, 0.25, 4.0) : 4.0;
  }
}

Row run(std::size_t n, double phi, std::uint64_t seed, kds::Exactness exactness, double per_sphere, double budget,
        const std::string& structure) {
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(n, phi, seed);
  kds::CollisionWorldSettings settings;
  settings.box = scene.box;
  kds::SphereWorldOptions options;
  options.exactness = exactness;
  options.audit = false;
  const std::size_t heap0 = kds::bench::heap_bytes();
  const kds::bench::Stopwatch setup;
  const std::unique_ptr<kds::SphereWorld> world = kds::make_sphere_world(structure, settings, scene.spheres, options);
  Row row{n, phi, exactness == kds::Exactness::filtered ? "filtered" : "floating", setup.cpu(), 0, 0, 0, 0, 0, 0};
  row.bytes_per_sphere_built = static_cast<double>(kds::bench::heap_bytes() - heap0) / static_cast<double>(n);

  // Warm-up: the lattice start is not an equilibrium; let every sphere collide a few times.
  const kds::bench::Stopwatch warm_up;
  run_to_contacts(*world, 0.25 * per_sphere * static_cast<double>(n), budget, warm_up);
  const std::uint64_t c0 = world->sphere_contacts(), e0 = world->events();
  const kds::bench::Stopwatch timed;
  run_to_contacts(*world, static_cast<double>(c0) + per_sphere * static_cast<double>(n), budget, timed);
  row.cpu = timed.cpu();
  row.wall = timed.wall();
  row.collisions = world->sphere_contacts() - c0;
  row.events = world->events() - e0;
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
  std::string structure = "tvb-grid";
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
  line.add_option("--structure,--broad-phase", structure,
                  "the structure: " + kds::sphere_world_list() + " (all-pairs is O(n) per event; hard-spheres has no "
                  "floating mode)")
      ->check(one_of(kds::sphere_world_names()))
      ->capture_default_str();
  line.parse_or_exit(argc, argv);

  kds::bench::CsvFile csv("kds_bench_tvb_hard_spheres", csv_path, "n,phi,mode,setup_cpu_s,bytes_per_sphere_built,bytes_per_sphere_after_run,collisions,events,cpu_s,wall_s,"
                       "collisions_per_cpu_s,events_per_cpu_s");

  std::printf("Hard spheres: equal ballistic spheres, lattice start, seed %llu, structure %s (rates per CPU second)\n",
              static_cast<unsigned long long>(seed), structure.c_str());
  std::printf("%8s %5s %9s %9s %10s %10s %11s %11s %12s %12s\n", "N", "phi", "mode", "setup s", "B/sphere",
              "B/sph run", "collisions", "CPU s", "coll/s", "events/s");
  for (double phi : phis)
    for (double nd : ns)
      for (kds::Exactness mode : {kds::Exactness::filtered, kds::Exactness::floating}) {
        if (mode == kds::Exactness::floating && (!floating || structure == kds::HardSphereWorldModel::name)) continue;
        try {
          const Row r = run(static_cast<std::size_t>(nd), phi, seed, mode, per_sphere, budget, structure);
          const double cps = static_cast<double>(r.collisions) / r.cpu, eps = static_cast<double>(r.events) / r.cpu;
          std::printf("%8zu %5.2f %9s %9.2f %10.0f %10.0f %11llu %11.2f %12.3g %12.3g\n", r.n, r.phi, r.mode,
                      r.setup_cpu, r.bytes_per_sphere_built, r.bytes_per_sphere_run,
                      static_cast<unsigned long long>(r.collisions), r.cpu, cps, eps);
          std::fflush(stdout);
          csv.row(r.n, r.phi, r.mode, r.setup_cpu, r.bytes_per_sphere_built, r.bytes_per_sphere_run, r.collisions,
                  r.events, r.cpu, r.wall, cps, eps);
        } catch (const std::exception& e) {
          std::printf("%8zu %5.2f: %s\n", static_cast<std::size_t>(nd), phi, e.what());
        }
      }
  csv.close();
  return 0;
}
