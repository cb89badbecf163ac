// kds_bench_guards_cones: guards and cones (Abam, de Berg, Poon, Speckmann, section 3.2)
// against kinetic box overlap (section 3.1) on the asteroid field: a few large bodies of
// radius `spread` among many small ones of radii in [1, 1.5] (bench/box_overlap/
// random_scene.hpp), ballistic, elastic. For each n and broad phase: CPU time, events,
// sphere collisions, live certificates (mean over the run), certificates per object at
// the end (mean and max over the bodies, every kind: order, cone facet, collision,
// wall), collision certificates per object (max), and for guards-cones its guards, guard
// planes, memberships, box and center events, and the members scanned by the stand-in for
// Lemma 11's query. Theorem 13's yardstick rho^8 + rho^3 sigma^3 is printed beside them.
//
// The field "nested" is the paper's regime (section 3.2, Fig. 6): chains of balls growing
// geometrically behind each other around a common point, small bodies about it
// (examples/common/nested_boxes.hpp), sigma growing with n and the overlapping box pairs
// as n^2. There the live certificates are sampled for their maximum too, and the box
// pairs (box overlap) and memberships (guards and cones) for their mean and maximum.
// The field "dice" is the smallest polytope scene: cubes in pairs approaching face first,
// for the cost per event of the two variants on polytopes.
// Broad phases are names of the registry: a name not registered in this build is skipped
// with a message, so that one command line serves builds with and without a variant.
//
//   kds_bench_guards_cones [--field random|swarms|nested|dice] [--n 50,100,200,400] [--spread 1000] [--large-fraction 0.02] [--phi 0.05]
//                          [--collisions-per-sphere K] [--until T] [--budget S] [--seed S] [--csv FILE]
//                          [--broad-phases guards-cones,box-overlap]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "bench/box_overlap/random_scene.hpp"
#include "bench/common/csv_file.hpp"
#include "bench/common/measured_run.hpp"
#include "bench/common/run_options.hpp"
#include "bench/common/stopwatch.hpp"
#include "examples/common/asteroid_field.hpp"
#include "examples/common/command_line.hpp"
#include "examples/common/nested_boxes.hpp"
#include "kds/simulator.hpp"
#include "structures/box_overlap/box_overlap.hpp"
#include "structures/collision/broad_phase_registry.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/guards_cones/guards_cones.hpp"
#include "structures/guards_cones/guards_cones_lists.hpp"

namespace {

struct Row {
  std::size_t n = 0;
  std::string broad_phase;
  double sigma = 0, setup_cpu = 0, cpu = 0, t_end = 0;
  std::uint64_t collisions = 0, events = 0;
  double mean_certificates = 0, max_certificates = 0;
  // Overlapping box pairs of the scene at the start (brute force, whatever the broad phase;
  // 0 when not counted).
  std::uint64_t box_pairs_start = 0;
  // Sampled over the run: box overlap's overlapping pairs, guards-cones' memberships.
  double overlap_pairs_mean = 0, overlap_pairs_max = 0, memberships_mean = 0, memberships_max = 0;
  double cert_per_object_mean = 0, cert_per_object_max = 0, pair_cert_max = 0;
  std::uint64_t candidate_pairs = 0;
  // guards-cones and guards-cones-lists (memberships and planes: guards-cones only)
  std::uint64_t guards = 0, planes = 0, memberships = 0, box_events = 0, center_events = 0, query_scans = 0;
  std::uint64_t cones = 0;
};

kds::bench::RandomSpheres make_scene(const std::string& field, std::size_t n, double spread, double phi, double large,
                                     std::uint64_t seed) {
  if (field == "random") return kds::bench::random_spheres(n, spread, phi, seed, large);
  if (field == "nested") {
    kds::examples::NestedBoxesSpec spec;
    spec.n = n;
    auto f = kds::examples::nested_boxes(spec, seed);
    return {f.box, std::move(f.spheres)};
  }
  if (field == "dice") {
    // Cubes of half side 0.5 in pairs, 1/8 apart along x, approaching face first at
    // relative speed 2 (a contact at t = 1/16), the pairs 4 apart on a grid in y and z.
    const auto cube = kds::ConvexPolytope::cube(0.5);
    const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>((n + 1) / 2))));
    kds::bench::RandomSpheres scene{{{0, 0, 0}, {6, 4.0 * static_cast<double>(side), 4.0 * static_cast<double>(side)}}, {}};
    for (std::size_t p = 0; scene.spheres.size() < n; ++p) {
      const double y = 2 + 4.0 * static_cast<double>(p % side), z = 2 + 4.0 * static_cast<double>(p / side);
      scene.spheres.push_back(kds::polytope_body(cube, {3 - 0.5 - 1.0 / 16, y, z}, {1, 0, 0}, 1));
      if (scene.spheres.size() < n) scene.spheres.push_back(kds::polytope_body(cube, {3 + 0.5 + 1.0 / 16, y, z}, {-1, 0, 0}, 1));
    }
    return scene;
  }
  // "swarms": examples/common/asteroid_field.hpp, small bodies in the boxes of the large ones.
  kds::examples::AsteroidFieldSpec spec;
  spec.large = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(large * static_cast<double>(n))));
  spec.small = n - spec.large;
  const auto f = kds::examples::asteroid_field(spec, seed);
  return {f.box, f.spheres};
}

Row run(const std::string& field, std::size_t n, double spread, double phi, double large, std::uint64_t seed,
        const std::string& broad_phase, double per_sphere, double budget, double until) {
  const kds::bench::RandomSpheres scene = make_scene(field, n, spread, phi, large, seed);
  kds::CollisionWorldSettings settings;
  settings.box = scene.box;
  settings.broad_phase = broad_phase;
  Row row;
  row.n = n;
  row.broad_phase = broad_phase;
  double rmin = scene.spheres[0].radius, rmax = rmin;
  for (const auto& s : scene.spheres) {
    rmin = std::min(rmin, s.radius);
    rmax = std::max(rmax, s.radius);
  }
  row.sigma = rmax / rmin;
  // A brute-force count: quadratic, so left at 0 beyond 20 000 bodies.
  if (n <= 20000) row.box_pairs_start = kds::examples::box_overlap_pairs(scene.spheres);
  const kds::bench::Stopwatch setup;
  kds::Simulator sim;
  kds::CollisionWorld world(sim, settings, scene.spheres);
  sim.flush();
  row.setup_cpu = setup.cpu();
  const auto* box_overlap = dynamic_cast<const kds::BoxOverlap*>(&world.broad_phase());
  const auto* guards = dynamic_cast<const kds::GuardsCones*>(&world.broad_phase());
  const auto* lists = dynamic_cast<const kds::GuardsConesLists*>(&world.broad_phase());
  kds::bench::RunLimits limits;
  limits.contacts = per_sphere * static_cast<double>(n);
  limits.cpu_budget = budget;
  limits.until = until;
  double certificate_sum = 0, overlap_sum = 0, membership_sum = 0;
  const kds::bench::RunTiming timed = kds::bench::run_measured(sim, world, limits, [&] {
    const auto live = static_cast<double>(sim.statistics().certificates_live);
    certificate_sum += live;
    row.max_certificates = std::max(row.max_certificates, live);
    if (box_overlap != nullptr) {
      const auto pairs = static_cast<double>(box_overlap->overlaps().size());
      overlap_sum += pairs;
      row.overlap_pairs_max = std::max(row.overlap_pairs_max, pairs);
    }
    if (guards != nullptr) {
      const auto members = static_cast<double>(guards->memberships());
      membership_sum += members;
      row.memberships_max = std::max(row.memberships_max, members);
    }
  });
  const auto samples = timed.samples;
  row.cpu = timed.cpu;
  row.t_end = sim.now().lo();
  row.collisions = world.sphere_contacts();
  row.events = timed.events;
  row.mean_certificates = certificate_sum / static_cast<double>(samples);
  row.overlap_pairs_mean = overlap_sum / static_cast<double>(samples);
  row.memberships_mean = membership_sum / static_cast<double>(samples);
  // Certificates per object at the end: every certificate naming its body.
  double sum = 0;
  for (kds::SphereId i = 0; i < world.size(); ++i) {
    const double c = static_cast<double>(sim.bodies().certificates_of(world.body(i)).size());
    sum += c;
    row.cert_per_object_max = std::max(row.cert_per_object_max, c);
    double pairs = 0;
    for (kds::SphereId j = 0; j < world.size(); ++j)
      if (j != i && world.pair_certificate(i, j) != nullptr) ++pairs;
    row.pair_cert_max = std::max(row.pair_cert_max, pairs);
    row.candidate_pairs += static_cast<std::uint64_t>(pairs);
  }
  row.candidate_pairs /= 2;
  row.cert_per_object_mean = sum / static_cast<double>(world.size());
  if (const kds::GuardsCones* gc = guards) {
    row.guards = gc->guards();
    row.planes = gc->guard_planes();
    row.memberships = gc->memberships();
    row.box_events = gc->box_events();
    row.center_events = gc->center_events();
    row.query_scans = gc->query_scans();
    row.cones = gc->cones().size();
  }
  if (const kds::GuardsConesLists* gl = lists) {  // no memberships: the lists variant keeps none
    row.guards = gl->guards();
    row.box_events = gl->box_events();
    row.center_events = gl->center_events();
    row.query_scans = gl->query_scans();  // Lemma 11's queries scan every object (O(n) each)
    row.cones = gl->cones().size();
  }
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kds::programs;
  kds::bench::RunOptions run_options;
  run_options.ns = {50, 100, 200, 400};
  run_options.contacts_per_body = 0.5;
  std::vector<std::string> broad_phases{"guards-cones", "box-overlap"};
  double spread = 1000, phi = 0.05, large = 0.02;
  double until = std::numeric_limits<double>::infinity();
  std::string field = "random";
  CommandLine line("kds_bench_guards_cones",
                   "Guards and cones against kinetic box overlap on the asteroid field: certificates per object, "
                   "candidate pairs, events and CPU time against n.");
  kds::bench::add_count_option(line, run_options, "sphere");
  line.add_option("--field", field,
                  "random: large and small bodies placed at random (bench/box_overlap/random_scene.hpp); swarms: "
                  "small bodies of radii 0.2 to 0.3 in the boxes of large ones of radius 200, falling onto them "
                  "(examples/common/asteroid_field.hpp; --spread and --phi unused); nested: chains of balls growing "
                  "geometrically behind each other around small bodies, sigma growing with n and the overlapping box "
                  "pairs as n^2 (examples/common/nested_boxes.hpp; --spread, --phi and --large-fraction unused); "
                  "dice: cubes of half side 0.5 in pairs 1/8 apart, approaching face first (polytopes; --spread, "
                  "--phi and --large-fraction unused)")
      ->check(one_of({"random", "swarms", "nested", "dice"}))
      ->capture_default_str();
  line.add_option("--spread", spread, "radius of the large bodies (the small ones have radii in [1, 1.5])")
      ->check(between(1, 16384))
      ->capture_default_str();
  line.add_option("--large-fraction", large, "fraction of large bodies")->check(between(1e-6, 1))->capture_default_str();
  line.add_option("--phi", phi, "volume fraction")->check(between(1e-6, 0.3))->capture_default_str();
  kds::bench::add_run_options(line, run_options, "sphere");
  line.add_option("--until", until,
                  "stop a configuration at this simulated time, if it has not reached its collisions (default: no limit)")
      ->check(at_least(1e-9));
  line.add_option("--broad-phases", broad_phases,
                  "broad phases to run on the same scenes (a name this build has not registered is skipped with a "
                  "message)")
      ->delimiter(',')
      ->capture_default_str();
  line.parse_or_exit(argc, argv);
  {
    const std::vector<std::string> known = kds::broad_phase_names();
    std::vector<std::string> chosen;
    for (const std::string& bp : broad_phases) {
      if (std::find(known.begin(), known.end(), bp) != known.end()) {
        chosen.push_back(bp);
        continue;
      }
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      std::printf("kds_bench_guards_cones: skipped %s: not a broad phase of this build (%s)\n", bp.c_str(), list.c_str());
    }
    broad_phases = chosen;
  }

  const std::uint64_t seed = run_options.seed;
  kds::bench::CsvFile csv("kds_bench_guards_cones", run_options.csv_path,
                          "field,n,spread,large_fraction,phi,broad_phase,sigma,setup_cpu_s,cpu_s,simulated_time,collisions,"
                          "events,mean_certificates,certificates_per_sphere,cert_per_object_mean,cert_per_object_max,"
                          "collision_certificates_per_object_max,candidate_pairs,theorem13_yardstick,guards,guard_planes,"
                          "cones_per_guard,memberships,box_events,center_events,query_scans,cpu_us_per_event,"
                          "max_certificates,box_pairs_start,overlap_pairs_mean,overlap_pairs_max,memberships_mean,"
                          "memberships_max");
  if (field == "random")
    std::printf("Asteroid field: %g%% of the bodies of radius %g among radii in [1, 1.5], volume fraction %g, seed %llu\n",
                100 * large, spread, phi, static_cast<unsigned long long>(seed));
  else if (field == "swarms")
    std::printf("Asteroid field: %g%% of the bodies of radius 200, swarms of radii 0.2 to 0.3 in their boxes, seed %llu\n",
                100 * large, static_cast<unsigned long long>(seed));
  else if (field == "dice")
    std::printf("Dice: cubes of half side 0.5 in pairs 1/8 apart along x, approaching face first at relative speed 2\n");
  else
    std::printf("Nested boxes: a quarter of the bodies on chains growing geometrically around small bodies of radii 1 "
                "to 1.25, seed %llu\n",
                static_cast<unsigned long long>(seed));
  std::printf("%6s %13s %7s %8s %9s %7s %10s %10s %9s %9s %9s %9s %10s %10s %10s %10s\n", "n", "broad phase", "sigma",
              "cpu s", "events", "collis.", "cert/n", "cert max/n", "c/obj avg", "c/obj max", "pair max", "pairs",
              "box pairs", "members", "box ev", "center ev");
  for (double nd : run_options.ns)
    for (const std::string& bp : broad_phases) {
      const auto n = static_cast<std::size_t>(nd);
      try {
        const Row r = run(field, n, spread, phi, large, seed, bp, run_options.contacts_per_body, run_options.budget, until);
        const double dn = static_cast<double>(n);
        // Theorem 13 with rho = 1 (balls): rho^8 + rho^3 sigma^3.
        const double yardstick = 1 + r.sigma * r.sigma * r.sigma;
        std::printf("%6zu %13s %7.0f %8.3f %9llu %7llu %10.1f %10.1f %9.1f %9.0f %9.0f %9llu %10llu %10.0f %10llu %10llu\n",
                    n, bp.c_str(), r.sigma, r.cpu, static_cast<unsigned long long>(r.events),
                    static_cast<unsigned long long>(r.collisions), r.mean_certificates / dn, r.max_certificates / dn,
                    r.cert_per_object_mean, r.cert_per_object_max, r.pair_cert_max,
                    static_cast<unsigned long long>(r.candidate_pairs), static_cast<unsigned long long>(r.box_pairs_start),
                    r.memberships_mean, static_cast<unsigned long long>(r.box_events),
                    static_cast<unsigned long long>(r.center_events));
        std::fflush(stdout);
        csv.row(field, r.n, spread, large, phi, r.broad_phase, r.sigma, r.setup_cpu, r.cpu, r.t_end, r.collisions,
                r.events, r.mean_certificates, r.mean_certificates / dn, r.cert_per_object_mean, r.cert_per_object_max,
                r.pair_cert_max, r.candidate_pairs, yardstick, r.guards, r.planes, r.cones, r.memberships, r.box_events,
                r.center_events, r.query_scans, 1e6 * r.cpu / static_cast<double>(std::max<std::uint64_t>(r.events, 1)),
                r.max_certificates, r.box_pairs_start, r.overlap_pairs_mean, r.overlap_pairs_max, r.memberships_mean,
                r.memberships_max);
      } catch (const std::exception& e) {
        std::printf("%6zu %13s: %s\n", n, bp.c_str(), e.what());
      }
    }
  csv.close();
  return 0;
}
