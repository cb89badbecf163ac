// kds_bench_tvb_paper: Table 1 and Figures 5-6 of Kim, Guibas and Shin (seed 000, section
// 4.2), with the comparisons the issue asks for in the same run:
//   grid         the paper's method, unknown trajectories (random forces within the bound)
//   all_pairs    the same world with a certificate for every pair (section 1.3's bounds)
//   ballistic    the grid with A = 0: exact event-driven collisions
//   frame_60     the frame-based baseline (seed 002) at dt = 1/60 on the ballistic scene
//   frame_600    ... at dt = 1/600
// For each n: CPU (and wall) seconds per simulated second, events by type, contacts,
// probes; for the baselines, the collisions they miss: at every frame boundary the
// baseline is started from the exact states and stepped one frame, and each exact
// collision of that frame whose pair the baseline does not report is a miss (so misses
// are not confused with the divergence of two chaotic runs).
//
//   kds_bench_tvb_paper [--n 30,100,300,1000] [--seconds T] [--budget S] [--miss-seconds T]
//                       [--all-pairs-max N] [--seed S] [--csv FILE]
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bench/common/csv_file.hpp"
#include "bench/tvb_grid/measure.hpp"
#include "bench/tvb_grid/world_run.hpp"
#include "examples/common/command_line.hpp"
#include "examples/paper_experiment/paper_scene.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/baseline/frame_baseline.hpp"
#include "structures/collision/collision_world.hpp"

namespace {

struct Row {
  std::string variant;
  double simulated = 0, cpu = 0, wall = 0;
  std::vector<std::uint64_t> kinds = std::vector<std::uint64_t>(6, 0);  ///< by type, as sphere_event_kinds()
  std::uint64_t events = 0, sphere_contacts = 0, wall_contacts = 0, probes = 0;
  std::int64_t missed = -1, exact_in_frames = -1;  ///< -1: not measured
};

double side_for(std::size_t n) { return n <= 3500 ? 200.0 : kds::paper::box_side_at_paper_density(n); }

Row world_row(const std::string& variant, const std::vector<kds::Sphere>& spheres, const kds::Box3& box,
               const std::string& broad_phase, std::uint64_t seed, double seconds, double budget) {
  const kds::bench::WorldRun run = kds::bench::run_world(spheres, box, broad_phase, 0, seed, seconds, budget);
  Row row;
  row.variant = variant;
  row.simulated = run.simulated;
  row.cpu = run.cpu;
  row.wall = run.wall;
  row.kinds = kds::bench::event_kind_counts(run.statistics);
  row.events = run.statistics.events;
  row.sphere_contacts = run.sphere_contacts;
  row.wall_contacts = run.wall_contacts;
  row.probes = run.probes;
  return row;
}

/// The frame-based baseline from the scene's start, timed like the worlds.
Row run_baseline(const std::string& variant, const std::vector<kds::Sphere>& spheres, const kds::Box3& box, double dt,
                 double seconds, double budget) {
  kds::FrameBaselineSettings settings;
  settings.box = box;
  settings.dt = dt;
  kds::FrameBaseline baseline(settings, spheres);
  Row row;
  row.variant = variant;
  const kds::bench::Stopwatch watch;
  while (baseline.time() < seconds && watch.cpu() < budget) baseline.step();
  row.cpu = watch.cpu();
  row.wall = watch.wall();
  row.simulated = baseline.time();
  row.sphere_contacts = baseline.counters().sphere_contacts;
  row.wall_contacts = baseline.counters().wall_contacts;
  return row;
}

/// Misses of the baseline at frame length dt over [0, seconds]: the exact ballistic world
/// runs frame by frame; at each frame start a baseline is built from the exact states and
/// stepped once; the exact collisions of the frame whose pairs it does not report are misses.
std::pair<std::int64_t, std::int64_t> count_misses(const std::vector<kds::Sphere>& spheres, const kds::Box3& box,
                                                   double dt, double seconds) {
  kds::CollisionWorldSettings settings;
  settings.box = box;
  kds::Simulator sim;
  kds::CollisionWorld world(sim, settings, spheres);
  std::vector<std::pair<kds::SphereId, kds::SphereId>> frame_pairs;
  world.on_contact([&](const kds::Contact& c) {
    if (!c.with_wall) frame_pairs.emplace_back(std::min(c.a, c.b), std::max(c.a, c.b));
  });
  kds::FrameBaselineSettings frame;
  frame.box = box;
  frame.dt = dt;
  std::int64_t missed = 0, exact = 0;
  std::vector<kds::Sphere> start = spheres;
  for (std::uint64_t k = 0; static_cast<double>(k) * dt < seconds; ++k) {
    const double t0 = static_cast<double>(k) * dt, t1 = static_cast<double>(k + 1) * dt;
    for (kds::SphereId i = 0; i < start.size(); ++i) {
      const kds::SphereState s = world.state(i, t0);
      start[i].position = s.position;
      start[i].velocity = s.velocity;
    }
    std::set<std::pair<kds::SphereId, kds::SphereId>> found;
    try {
      kds::FrameBaseline baseline(frame, start);
      baseline.step();
      for (const kds::Contact& c : baseline.contacts())
        if (!c.with_wall) found.emplace(std::min(c.a, c.b), std::max(c.a, c.b));
    } catch (const kds::InvalidInput&) {
      // A frame boundary inside a contact's rounding overlap (a few ulps): the baseline
      // refuses the state; count the frame's collisions as found rather than guess.
      found.insert(frame_pairs.begin(), frame_pairs.end());
    }
    frame_pairs.clear();
    sim.run_until(t1);
    for (const auto& p : frame_pairs) {
      ++exact;
      if (!found.count(p)) ++missed;
    }
  }
  return {missed, exact};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kds::programs;
  std::vector<double> ns{30, 100, 300, 1000};
  double seconds = 2, budget = 15, miss_seconds = 1, all_pairs_max = 1000;
  std::uint64_t seed = 1;
  std::string csv_path;
  CommandLine line("kds_bench_tvb_paper",
                   "The paper's scene (200^3 box up to n = 3500, then grown to keep the n = 1000 volume fraction).");
  line.add_option("--n", ns, "sphere counts (add 3500,10000 for the long run)")
      ->delimiter(',')
      ->check(at_least(2))
      ->capture_default_str();
  line.add_option("--seconds", seconds, "simulated seconds per run")->check(at_least(1e-3))->capture_default_str();
  line.add_option("--budget", budget, "stop a run after this many CPU seconds and report the time simulated so far")
      ->check(at_least(1e-3))
      ->capture_default_str();
  line.add_option("--miss-seconds", miss_seconds, "simulated seconds over which the baselines' misses are counted")
      ->check(at_least(0))
      ->capture_default_str();
  line.add_option("--all-pairs-max", all_pairs_max, "run the all-pairs twin up to this n")
      ->check(at_least(0))
      ->capture_default_str();
  line.add_option("--seed", seed, "seed of the scene and the forces")->check(integer_in(0))->capture_default_str();
  line.add_option("--csv", csv_path, "CSV output")->type_name("FILE");
  line.parse_or_exit(argc, argv);

  kds::bench::CsvFile csv("kds_bench_tvb_paper", csv_path, std::string("n,box_side,volume_fraction,variant,simulated_s,cpu_s,wall_s,cpu_s_per_simulated_s,events,") +
                                                kds::bench::event_kind_columns() +
                                                ",sphere_contacts,wall_contacts,probes,missed_collisions,exact_collisions_in_miss_window");

  std::printf("The paper's scene, seed %llu: CPU seconds per simulated second (budget %g CPU s per run)\n",
              static_cast<unsigned long long>(seed), budget);
  std::printf("%6s %6s %-10s %8s %11s %9s %9s %9s %9s %9s %9s %9s %9s %8s\n", "n", "phi", "variant", "sim s",
              "CPU s/sim s", "events", "entering", "leaving", "reset", "bound col", "wall", "collision", "contacts",
              "missed");
  for (double nd : ns) {
    const auto n = static_cast<std::size_t>(nd);
    kds::paper::PaperScene scene;
    scene.n = n;
    scene.seed = seed;
    scene.box_side = side_for(n);
    const kds::Box3 box = kds::paper::cube(scene.box_side);
    std::vector<kds::Sphere> unknown, ballistic;
    try {
      unknown = kds::paper::paper_spheres(scene);
    } catch (const std::exception& e) {
      std::printf("%6zu: %s\n", n, e.what());
      continue;
    }
    ballistic = unknown;
    for (kds::Sphere& s : ballistic) s.max_acceleration = 0;
    const double phi = kds::paper::volume_fraction(unknown, box);

    std::vector<Row> rows;
    rows.push_back(world_row("grid", unknown, box, "tvb-grid", seed, seconds, budget));
    if (nd <= all_pairs_max)
      rows.push_back(world_row("all_pairs", unknown, box, "all-pairs", seed, seconds, budget));
    rows.push_back(world_row("ballistic", ballistic, box, "tvb-grid", seed, seconds, budget));
    for (auto [name, dt] : {std::pair{"frame_60", 1.0 / 60}, std::pair{"frame_600", 1.0 / 600}}) {
      Row r = run_baseline(name, ballistic, box, dt, seconds, budget);
      if (miss_seconds > 0) std::tie(r.missed, r.exact_in_frames) = count_misses(ballistic, box, dt, miss_seconds);
      rows.push_back(r);
    }
    for (const Row& r : rows) {
      std::string missed;
      if (r.missed >= 0) missed = std::to_string(r.missed) + "/" + std::to_string(r.exact_in_frames);
      std::printf("%6zu %5.1f%% %-10s %8.3f %11.4f %9s", n, 100 * phi, r.variant.c_str(), r.simulated,
                  r.cpu / r.simulated, std::to_string(r.events).c_str());
      for (std::uint64_t k : r.kinds) std::printf(" %9s", std::to_string(k).c_str());
      std::printf(" %9s %8s\n", std::to_string(r.sphere_contacts + r.wall_contacts).c_str(), missed.c_str());
      csv.row(n, scene.box_side, phi, r.variant, r.simulated, r.cpu, r.wall, r.cpu / r.simulated, r.events,
              kds::bench::comma_separated(r.kinds), r.sphere_contacts, r.wall_contacts, r.probes, r.missed,
              r.exact_in_frames);
    }
    // Ratios within this run, for Table 1's last column and the baseline comparison.
    auto cost = [&](const char* v) {
      for (const Row& r : rows)
        if (r.variant == v) return r.cpu / r.simulated;
      return 0.0;
    };
    if (cost("all_pairs") > 0) std::printf("%6s all_pairs / grid = %.2f", "", cost("all_pairs") / cost("grid"));
    else std::printf("%6s", "");
    std::printf("   frame_60 / ballistic = %.2f   frame_600 / ballistic = %.2f\n", cost("frame_60") / cost("ballistic"),
                cost("frame_600") / cost("ballistic"));
    std::fflush(stdout);
  }
  csv.close();
  return 0;
}
