// The kinetic sorted list, watched: random points on a line, each swap printed as it
// happens, then the final order, the simulator's statistics and the KDS quality report.
//
//   kds_example_sorted_list [--n N] [--seed S] [--until T] [--trace FILE]

#include <cstdio>

#include "common/options.hpp"
#include "common/report.hpp"
#include "common/scene.hpp"
#include "structures/sorted_list/sorted_list.hpp"

int main(int argc, char** argv) {
  using namespace kds;
  const examples::Options options = examples::parse_options(
      argc, argv, {}, "Moving points kept in order by a kinetic sorted list; prints every swap.");

  Simulator sim;
  SortedList list(sim);
  std::printf("Kinetic sorted list: %zu points, seed %llu, until t = %g\n\n", options.n,
              static_cast<unsigned long long>(options.seed), options.until);
  examples::insert_scene(list, examples::random_scene(options.n, options.seed, options.until));
  const examples::TraceFile trace(sim, options.trace);

  std::printf("\nSwaps, as they happen:\n");
  list.on_swap([&](ObjectId left, ObjectId right) {
    // `left` was just before `right`; now `right` is just before `left`.
    const double t = sim.now_approx();
    std::printf("  t = %9.6f   at x = %8.4f   point %2u is now before point %2u\n", t,
                list.motion(left).position(t)[0], right, left);
  });
  sim.run_until(options.until);
  if (list.swaps() == 0) std::printf("  (none)\n");

  std::printf("\nFinal order at t = %g, from left to right:\n ", options.until);
  for (ObjectId id : list.order()) std::printf(" %u", id);
  std::printf("\n");
  examples::print_report(sim, trace);
  return 0;
}
