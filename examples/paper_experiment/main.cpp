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

#include "examples/paper_experiment/paper_scene.hpp"
#include "examples/paper_experiment/sphere_report.hpp"
#include "kds/errors.hpp"
#include "kds/simulator.hpp"
#include "structures/tvb_grid/sphere_world.hpp"
#include "structures/tvb_grid/trajectories/piecewise_acceleration_probe.hpp"

namespace {

struct Options {
  std::size_t n = 500;
  double seconds = 2;
  std::uint64_t seed = 1;
  bool ballistic = false;
  bool all_pairs = false;
  double cell_ratio = 0;
  /// How long each random force lasts (the paper does not say; 0.1 s changes a sphere's
  /// velocity by at most 2 per piece at A = 20, against speeds of 4 to 43).
  double force_interval = 0.1;
};

[[noreturn]] void usage(std::FILE* out, int code) {
  std::fprintf(out,
               "usage: kds_example_paper_experiment [--n N] [--seconds T] [--seed S] [--ballistic]\n"
               "                                    [--broad-phase grid|all-pairs] [--cell-ratio K] [--force-interval H]\n"
               "The paper's experiment (Kim, Guibas, Shin, section 4.2): spheres with radii in [0.1, 10],\n"
               "speeds in [2.5 sqrt 3, 25 sqrt 3] and acceleration bounds in [10, 20] in a 200^3 box.\n"
               "  --n N              spheres, 1 to 3500 (default 500; the paper runs 500 to 3500)\n"
               "  --seconds T        simulated seconds (default 2; the paper runs 15)\n"
               "  --seed S           seed of the scene and of the forces (default 1)\n"
               "  --ballistic        no forces (A = 0): exact straight-line motions\n"
               "  --broad-phase B    grid (default, the paper's method) or all-pairs (the brute-force twin)\n"
               "  --cell-ratio K     cell side / largest diameter of a level, >= 2 (default: the cost model)\n"
               "  --force-interval H seconds between changes of the random forces (default 0.1)\n");
  std::exit(code);
}

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "kds_example_paper_experiment: %s\n", message.c_str());
  usage(stderr, 2);
}

double number(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x)) fail(option + " needs a number, not '" + text + "'");
  return x;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") usage(stdout, 0);
    if (arg == "--ballistic") {
      o.ballistic = true;
      continue;
    }
    if (i + 1 >= argc) fail(arg == "--n" || arg == "--seconds" || arg == "--seed" || arg == "--broad-phase" ||
                                    arg == "--cell-ratio" || arg == "--force-interval"
                                ? "option " + arg + " needs a value"
                                : "unknown option '" + arg + "'");
    const std::string value = argv[++i];
    if (arg == "--n") {
      const double n = number(arg, value);
      if (n < 1 || n > 3500 || n != std::floor(n)) fail("--n must be an integer from 1 to 3500, not '" + value + "'");
      o.n = static_cast<std::size_t>(n);
    } else if (arg == "--seconds") {
      o.seconds = number(arg, value);
      if (!(o.seconds > 0)) fail("--seconds must be positive, not '" + value + "'");
    } else if (arg == "--seed") {
      const double s = number(arg, value);
      if (s < 0 || s != std::floor(s) || s > 9e15) fail("--seed must be a non-negative integer, not '" + value + "'");
      o.seed = static_cast<std::uint64_t>(s);
    } else if (arg == "--broad-phase") {
      if (value != "grid" && value != "all-pairs") fail("--broad-phase must be grid or all-pairs, not '" + value + "'");
      o.all_pairs = value == "all-pairs";
    } else if (arg == "--cell-ratio") {
      o.cell_ratio = number(arg, value);
      if (!(o.cell_ratio >= 2)) fail("--cell-ratio must be at least 2, not '" + value + "'");
    } else if (arg == "--force-interval") {
      o.force_interval = number(arg, value);
      if (!(o.force_interval > 0)) fail("--force-interval must be positive, not '" + value + "'");
    } else {
      fail("unknown option '" + arg + "'");
    }
  }
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
    kds::SphereWorldSettings settings;
    settings.box = box;
    settings.cell_ratio = o.cell_ratio;
    settings.broad_phase = o.all_pairs ? kds::BroadPhase::all_pairs : kds::BroadPhase::grid;
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
    kds::SphereWorld world(sim, settings, spheres);
    sim.flush();
    const double setup = std::chrono::duration<double>(Clock::now() - setup_start).count();
    if (o.all_pairs)
      std::printf("  broad phase: all pairs (%zu certificates)\n", o.n * (o.n - 1) / 2);
    else
      std::printf("  broad phase: hierarchical grid, %d levels, cell side %.2f x the largest diameter of a level%s\n",
                  world.grid()->levels(), world.cell_ratio(), o.cell_ratio > 0 ? "" : " (cost model)");
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
