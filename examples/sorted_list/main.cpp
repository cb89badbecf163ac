// The kinetic sorted list, watched: random points on a line (bodies of the simulator,
// ordered by their x-coordinate keys), each swap printed as it happens, then the final
// order, the simulator's statistics and the KDS quality report.
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
  for (BodyId point : examples::insert_scene(sim, examples::random_scene(options.n, options.seed, options.until)))
    list.insert(Key::coordinate(point));
  const examples::TraceFile trace(sim, options.trace);
  // The point (body) of an entry: its key's only body.
  auto point = [&](EntryId e) { return list.key(e).bodies()[0]; };

  std::printf("\nSwaps, as they happen:\n");
  list.on_swap().subscribe([&](EntryId left, EntryId right) {
    // `left` was just before `right`; now `right` is just before `left`.
    const double t = sim.now_approx();
    std::printf("  t = %9.6f   at x = %8.4f   point %2u is now before point %2u\n", t,
                sim.bodies().motion(point(left)).position(t)[0], point(right).index, point(left).index);
  });
  sim.run_until(options.until);
  if (list.swaps() == 0) std::printf("  (none)\n");

  std::printf("\nFinal order at t = %g, from left to right:\n ", options.until);
  for (EntryId e : list.order()) std::printf(" %u", point(e).index);
  std::printf("\n");
  examples::print_report(sim, trace);
  return 0;
}
