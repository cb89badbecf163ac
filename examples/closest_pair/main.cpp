// The kinetic closest pair of points on a line (closest_pair.hpp): random points, each
// change of the closest pair printed as it happens, then the simulator's statistics and
// the KDS quality report.
//
//   kds_example_closest_pair [--n N] [--seed S] [--until T] [--trace FILE]

#include <cstdio>
#include <vector>

#include "closest_pair/closest_pair.hpp"
#include "common/options.hpp"
#include "common/report.hpp"
#include "common/scene.hpp"

int main(int argc, char** argv) {
  using namespace kds;
  examples::Options defaults;
  defaults.n = 12;
  const examples::Options options = examples::parse_options(
      argc, argv, defaults, "The closest pair of points moving on a line: a tournament over the gaps of a sorted list.");
  if (options.n < 2) {
    std::fprintf(stderr, "%s: --n must be at least 2 (a pair)\n", argv[0]);
    return 2;
  }

  Simulator sim;
  std::printf("Kinetic closest pair: %zu points, seed %llu, until t = %g\n\n", options.n,
              static_cast<unsigned long long>(options.seed), options.until);
  const std::vector<BodyId> points =
      examples::insert_scene(sim, examples::random_scene(options.n, options.seed, options.until));
  closest_pair::ClosestPair closest(sim, points);
  const examples::TraceFile trace(sim, options.trace);

  auto print = [&] {
    const auto [a, b] = closest.pair();
    const double t = sim.now_approx();
    const double gap = sim.bodies().motion(b).position(t)[0] - sim.bodies().motion(a).position(t)[0];
    std::printf("  t = %9.6f   points %2u and %2u, %.6f apart\n", t, a.index, b.index, gap);
  };
  std::printf("\nClosest pair, at each change:\n");
  print();
  closest.on_change().subscribe([&](EntryId, EntryId) { print(); });
  sim.run_until(options.until);
  examples::print_report(sim, trace);
  return 0;
}
