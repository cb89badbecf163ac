// kds_example_paper_experiment: the experiment of Kim, Guibas and Shin (seed 000, section
// 4.2). n spheres fly around a 200^3 box, pushed by random forces that kds never sees: it
// only knows each sphere's acceleration bound, and probes a sphere when its time-varying
// bound says a collision might be near. Prints the events by type and the wall time per
// simulated second.
//
//   kds_example_paper_experiment                       # the demo: 500 spheres, 2 simulated seconds
//   kds_example_paper_experiment --n 1000 --seconds 15 # the paper's run (Figure 5: 1.372 s per second)
//   kds_example_paper_experiment --ballistic           # A = 0: an exact event-driven hard-sphere run
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "examples/common/command_line.hpp"
#include "examples/paper_experiment/paper_scene.hpp"
#include "examples/paper_experiment/sphere_report.hpp"
#include "kds/errors.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/broad_phase_registry.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"
#include "structures/tvb_grid/tvb_grid.hpp"

namespace {

struct Options {
  std::size_t n = 500;
  double seconds = 2;
  std::uint64_t seed = 1;
  bool ballistic = false;
  std::string broad_phase = "tvb-grid";
  double cell_ratio = 0;
  /// How long each random force lasts (the paper does not say; 0.1 s changes a sphere's
  /// velocity by at most 2 per piece at A = 20, against speeds of 4 to 43).
  double force_interval = 0.1;
};

Options parse(int argc, char** argv) {
  using namespace kds::programs;
  Options o;
  CommandLine line("kds_example_paper_experiment",
                   "The paper's experiment (Kim, Guibas, Shin, section 4.2): spheres with radii in [0.1, 10],\n"
                   "speeds in [2.5 sqrt 3, 25 sqrt 3] and acceleration bounds in [10, 20] in a 200^3 box.");
  line.add_option("--n", o.n, "spheres (the paper runs 500 to 3500)")->check(integer_in(1, 3500))->capture_default_str();
  line.add_option("--seconds", o.seconds, "simulated seconds (the paper runs 15)")->check(positive())->capture_default_str();
  line.add_option("--seed", o.seed, "seed of the scene and of the forces")->check(integer_in(0))->capture_default_str();
  line.add_flag("--ballistic", o.ballistic, "no forces (A = 0): exact straight-line motions");
  add_broad_phase_options(line, o.broad_phase, o.cell_ratio);
  line.add_option("--force-interval", o.force_interval, "seconds between changes of the random forces")
      ->check(positive())
      ->capture_default_str();
  line.parse_or_exit(argc, argv);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  const Options o = parse(argc, argv);
  try {
    kds::paper::PaperScene scene;
    scene.n = o.n;
    scene.seed = o.seed;
    scene.ballistic = o.ballistic;
    const std::vector<kds::Sphere> spheres = kds::paper::paper_spheres(scene);
    const kds::Box3 box = kds::paper::cube(scene.box_side);

    std::unique_ptr<kds::PiecewiseAccelerationProbe> probe;
    if (!o.ballistic) probe = std::make_unique<kds::PiecewiseAccelerationProbe>(spheres, o.force_interval, o.seed);
    kds::CollisionWorldSettings settings;
    settings.box = box;
    settings.cell_ratio = o.cell_ratio;
    settings.broad_phase = o.broad_phase;
    settings.probe = probe.get();

    std::printf("The paper's experiment (Kim, Guibas, Shin, section 4.2)\n");
    std::printf("  %zu spheres in a %g^3 box (volume fraction %.1f%%), seed %llu\n", o.n, scene.box_side,
                100 * kds::paper::volume_fraction(spheres, box), static_cast<unsigned long long>(o.seed));
    if (o.ballistic)
      std::printf("  ballistic: no forces, every collision time exact\n");
    else
      std::printf("  unknown trajectories: random forces |a| <= A in [10, 20], new every %g s, seen only by probing\n",
                  o.force_interval);

    const auto setup_start = Clock::now();
    kds::Simulator sim;
    kds::CollisionWorld world(sim, settings, spheres);
    sim.flush();
    const double setup = std::chrono::duration<double>(Clock::now() - setup_start).count();
    if (const auto* grid = dynamic_cast<const kds::TvbGrid*>(&world.broad_phase()); grid && grid->grid())
      std::printf("  broad phase: hierarchical grid, %d levels, cell side %.2f x the largest diameter of a level%s\n",
                  grid->grid()->levels(), world.cell_ratio(), o.cell_ratio > 0 ? "" : " (cost model)");
    else
      std::printf("  broad phase: %s\n", world.broad_phase().name());
    std::printf("  set up in %.3f s; simulating %g s (progress on stderr)\n\n", setup, o.seconds);
    std::fflush(stdout);

    const double wall = kds::examples::run_with_progress(sim, world, o.seconds, std::min(1.0, o.seconds / 4));

    std::printf("\n");
    kds::examples::print_events_by_kind(sim, world);
    std::printf("\nWall time: %.3f s for %g simulated seconds = %.4f s per simulated second", wall, o.seconds,
                wall / o.seconds);
    std::printf(" (%.2e events per second)\n", static_cast<double>(sim.statistics().events) / wall);
    if (!o.ballistic && o.n == 1000)
      std::printf("  The paper measured 1.372 s per simulated second at n = 1000 (2005 hardware).\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kds_example_paper_experiment: %s\n", e.what());
    return 1;
  }
}
