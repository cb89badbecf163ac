// kds_bench_box_overlap: the quality of kinetic box overlap as a KDS (issue 9 item 4),
// on random ballistic spheres, against the n log n and per-collision yardsticks of the
// paper (Abam, de Berg, Poon, Speckmann, section 3.1): certificates per sphere, events
// (swaps of box extremes) per collision, overlapping box pairs per sphere, for spheres of
// similar sizes and of widely varying sizes, as n grows. Other broad phases run on the
// same scenes for comparison (--broad-phases box-overlap,tvb-grid).
//
//   kds_bench_box_overlap [--n 100,1000,10000] [--spread 1.5,50] [--large-fraction F] [--phi 0.05]
//                         [--collisions-per-sphere K] [--budget S] [--seed S] [--csv FILE]
//                         [--broad-phases box-overlap,tvb-grid]
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/box_overlap/random_scene.hpp"
#include "bench/common/csv_file.hpp"
#include "bench/common/measured_run.hpp"
#include "bench/common/run_options.hpp"
#include "bench/common/stopwatch.hpp"
#include "examples/common/command_line.hpp"
#include "kds/simulator.hpp"
#include "structures/box_overlap/box_overlap.hpp"
#include "structures/collision/broad_phase_registry.hpp"
#include "structures/collision/collision_world.hpp"

namespace {

struct Row {
  std::size_t n = 0;
  double spread = 0, phi = 0, large = 0;
  std::string broad_phase;
  double setup_cpu = 0, cpu = 0;
  std::uint64_t collisions = 0, wall_contacts = 0, events = 0, swaps = 0, overlap_changes = 0;
  double mean_overlaps = 0;        // overlapping box pairs, averaged over the run
  double mean_certificates = 0;    // live certificates, averaged over the run
};

Row run(std::size_t n, double spread, double phi, double large, std::uint64_t seed, const std::string& broad_phase,
        double per_sphere, double budget) {
  const kds::bench::RandomSpheres scene = kds::bench::random_spheres(n, spread, phi, seed, large);
  kds::CollisionWorldSettings settings;
  settings.box = scene.box;
  settings.broad_phase = broad_phase;
  Row row;
  row.n = n;
  row.spread = spread;
  row.phi = phi;
  row.large = large;
  row.broad_phase = broad_phase;
  const kds::bench::Stopwatch setup;
  kds::Simulator sim;
  kds::CollisionWorld world(sim, settings, scene.spheres);
  sim.flush();
  row.setup_cpu = setup.cpu();
  const auto* bo = dynamic_cast<const kds::BoxOverlap*>(&world.broad_phase());
  kds::bench::RunLimits limits;
  limits.contacts = per_sphere * static_cast<double>(n);
  limits.cpu_budget = budget;
  double overlap_sum = 0, certificate_sum = 0;
  const kds::bench::RunTiming timed = kds::bench::run_measured(sim, world, limits, [&] {
    if (bo != nullptr) overlap_sum += static_cast<double>(bo->overlaps().size());
    certificate_sum += static_cast<double>(sim.statistics().certificates_live);
  });
  const auto samples = timed.samples;
  row.cpu = timed.cpu;
  row.collisions = world.sphere_contacts();
  row.wall_contacts = world.wall_contacts();
  row.events = timed.events;
  if (bo != nullptr) {
    row.swaps = bo->swaps();
    row.overlap_changes = bo->overlap_changes();
  }
  row.mean_overlaps = overlap_sum / static_cast<double>(samples);
  row.mean_certificates = certificate_sum / static_cast<double>(samples);
  return row;
}

double per(std::uint64_t a, std::uint64_t b) { return b == 0 ? 0 : static_cast<double>(a) / static_cast<double>(b); }

}  // namespace

int main(int argc, char** argv) {
  using namespace kds::programs;
  kds::bench::RunOptions run_options;
  run_options.ns = {100, 316, 1000, 3162, 10000};
  std::vector<double> spreads{1.5, 50};
  std::vector<std::string> broad_phases{"box-overlap"};
  double phi = 0.05, large = 0;
  CommandLine line("kds_bench_box_overlap",
                   "Kinetic box overlap as a KDS: certificates per sphere, events per collision and overlapping "
                   "pairs per sphere on random ballistic spheres, similar and widely varying sizes.");
  kds::bench::add_count_option(line, run_options, "sphere");
  line.add_option("--spread", spreads, "largest / smallest radius of a scene (radii log-uniform in [1, spread])")
      ->delimiter(',')
      ->check(between(1, 16384))
      ->capture_default_str();
  line.add_option("--large-fraction", large,
                  "0: radii log-uniform in [1, spread]; else this fraction of radius spread among radii in [1, 1.5]")
      ->check(between(0, 1))
      ->capture_default_str();
  line.add_option("--phi", phi, "volume fraction")->check(between(1e-6, 0.3))->capture_default_str();
  kds::bench::add_run_options(line, run_options, "sphere");
  line.add_option("--broad-phases", broad_phases, "registered broad phases to run on the same scenes")
      ->delimiter(',')
      ->check(one_of(kds::broad_phase_names()))
      ->capture_default_str();
  line.parse_or_exit(argc, argv);
  const std::uint64_t seed = run_options.seed;

  kds::bench::CsvFile csv("kds_bench_box_overlap", run_options.csv_path,
                          "n,spread,large_fraction,phi,broad_phase,setup_cpu_s,cpu_s,collisions,wall_contacts,events,swaps,overlap_changes,"
                          "mean_overlapping_pairs,mean_certificates,certificates_per_sphere,certificates_per_nlog2n,"
                          "events_per_collision,swaps_per_collision,overlaps_per_sphere,cpu_us_per_collision");
  std::printf("Kinetic box overlap: random ballistic spheres, volume fraction %g, seed %llu\n", phi,
              static_cast<unsigned long long>(seed));
  std::printf("%7s %6s %12s %9s %9s %10s %9s %10s %9s %9s %9s\n", "n", "spread", "broad phase", "collis.", "events",
              "ev/coll", "swap/coll", "cert/n", "cert/nlgn", "ovl/n", "us/coll");
  for (double spread : spreads)
    for (double nd : run_options.ns)
      for (const std::string& bp : broad_phases) {
        const auto n = static_cast<std::size_t>(nd);
        try {
          const Row r = run(n, spread, phi, large, seed, bp, run_options.contacts_per_body, run_options.budget);
          const double dn = static_cast<double>(n);
          const double cert_n = r.mean_certificates / dn, cert_nlogn = r.mean_certificates / (dn * std::log2(dn));
          const double ovl_n = r.mean_overlaps / dn, us = 1e6 * r.cpu / static_cast<double>(std::max<std::uint64_t>(r.collisions, 1));
          std::printf("%7zu %6g %12s %9llu %9llu %10.2f %9.2f %10.2f %9.3f %9.3f %9.2f\n", n, spread, bp.c_str(),
                      static_cast<unsigned long long>(r.collisions), static_cast<unsigned long long>(r.events),
                      per(r.events, r.collisions), per(r.swaps, r.collisions), cert_n, cert_nlogn, ovl_n, us);
          std::fflush(stdout);
          csv.row(r.n, r.spread, r.large, r.phi, r.broad_phase, r.setup_cpu, r.cpu, r.collisions, r.wall_contacts,
                  r.events, r.swaps, r.overlap_changes, r.mean_overlaps, r.mean_certificates, cert_n, cert_nlogn,
                  per(r.events, r.collisions), per(r.swaps, r.collisions), ovl_n, us);
        } catch (const std::exception& e) {
          std::printf("%7zu %6g %12s: %s\n", n, spread, bp.c_str(), e.what());
        }
      }
  csv.close();
  return 0;
}
