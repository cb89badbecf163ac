// Energy drift of the hard-sphere path (structures/hard_spheres) over many elastic
// collisions: hard spheres at volume fraction phi on the lattice start of
// bench/tvb_grid/lattice_scene.hpp, relative change of the kinetic energy printed every
// tenth of the run (and written to --csv FILE, as `kds bench` asks of every benchmark), and
// the rates of the exact path.
#include <cmath>
#include <cstdio>
#include <string>

#include "bench/common/csv_file.hpp"
#include "bench/tvb_grid/lattice_scene.hpp"
#include "structures/hard_spheres/hard_sphere_world.hpp"
#include "examples/common/command_line.hpp"

int main(int argc, char** argv) try {
  double n = 10000, collisions = 1e6, phi = 0.4;
  std::uint64_t seed = 1;
  std::string csv_path;
  kds::programs::CommandLine line("kds_bench_hard_spheres_energy",
                        "Energy drift of the hard-sphere path over many elastic collisions.");
  line.add_option("--n", n, "spheres")->capture_default_str();
  line.add_option("--collisions", collisions, "sphere-sphere collisions to run")->capture_default_str();
  line.add_option("--phi", phi, "volume fraction")->capture_default_str();
  line.add_option("--seed", seed, "seed of the scene")->capture_default_str();
  line.add_option("--csv", csv_path, "also write the rows to FILE (CSV)")->type_name("FILE");
  line.parse_or_exit(argc, argv);
  kds::bench::CsvFile csv("kds_bench_hard_spheres_energy", csv_path, "n,phi,seed,collisions,time,relative_energy_change");
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(static_cast<std::size_t>(n), phi, seed);
  kds::CollisionWorldSettings settings;
  settings.box = scene.box;
  kds::HardSphereWorld world(settings, scene.spheres);
  world.keep_contacts(false);
  const double e0 = world.kinetic_energy(0);
  double worst = 0;
  std::printf("collisions,time,relative_energy_change\n");
  for (int part = 1; part <= 10; ++part) {
    const double target = collisions * part / 10;
    while (static_cast<double>(world.sphere_contacts()) < target && world.step()) {
    }
    const double drift = (world.kinetic_energy(world.now()) - e0) / e0;
    worst = std::max(worst, std::fabs(drift));
    std::printf("%llu,%.17g,%.3e\n", static_cast<unsigned long long>(world.sphere_contacts()), world.now(), drift);
    char time[32], change[32];
    std::snprintf(time, sizeof time, "%.17g", world.now());
    std::snprintf(change, sizeof change, "%.3e", drift);
    csv.row(static_cast<std::size_t>(n), phi, seed, world.sphere_contacts(), time, change);
  }
  csv.close();
  const auto& s = world.stats();
  std::printf("# largest |relative change| %.3e over %llu collisions; pair windows %llu, exact windows %llu, "
              "instants %llu (exact in the last ulps %llu), instants ordered exactly %llu\n",
              worst, static_cast<unsigned long long>(world.sphere_contacts()),
              static_cast<unsigned long long>(s.times.pair_tests), static_cast<unsigned long long>(s.times.exact_fallbacks),
              static_cast<unsigned long long>(s.times.instants), static_cast<unsigned long long>(s.times.instants_exact),
              static_cast<unsigned long long>(s.instants_exact));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "kds_bench_hard_spheres_energy: %s\n", e.what());
  return 1;
}
