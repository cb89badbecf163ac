// The kinetic tournament, watched: a race of points on a line (bodies of the simulator,
// ranked by their x-coordinate keys), each change of leader printed as it happens, then
// the simulator's statistics and the KDS quality report.
//
//   kds_example_tournament [--n N] [--seed S] [--until T] [--trace FILE]

#include <cstdio>

#include "common/options.hpp"
#include "common/report.hpp"
#include "common/scene.hpp"
#include "structures/tournament/tournament.hpp"

int main(int argc, char** argv) {
  using namespace kds;
  examples::Options defaults;
  defaults.n = 16;  // a race wants a field
  const examples::Options options = examples::parse_options(
      argc, argv, defaults, "A race of moving points; a kinetic tournament names the leader at every moment.");

  Simulator sim;
  Tournament race(sim, Extremum::largest);
  std::printf("Kinetic tournament: %zu points, seed %llu, until t = %g\n\n", options.n,
              static_cast<unsigned long long>(options.seed), options.until);
  for (BodyId point : examples::insert_scene(sim, examples::random_scene(options.n, options.seed, options.until)))
    race.insert(Key::coordinate(point));
  const examples::TraceFile trace(sim, options.trace);
  // The point (body) of an entry, and where it is at time t.
  auto point = [&](EntryId e) { return race.key(e).bodies()[0]; };
  auto x = [&](EntryId e, double t) { return sim.bodies().motion(point(e)).position(t)[0]; };

  std::printf("\nLeader at t = 0: point %u at x = %.4f\n", point(race.winner()).index, x(race.winner(), 0.0));
  std::printf("\nChanges of leader, as they happen:\n");
  race.on_winner_change().subscribe([&](EntryId previous, EntryId current) {
    const double t = sim.now_approx();
    std::printf("  t = %9.6f   at x = %8.4f   point %2u takes the lead from point %2u\n", t, x(current, t),
                point(current).index, point(previous).index);
  });
  sim.run_until(options.until);
  if (race.leader_changes() == 0) std::printf("  (none: the first leader leads to the end)\n");

  std::printf("\nLeader at t = %g: point %u at x = %.4f, after %llu changes of leader in %llu events\n",
              options.until, point(race.winner()).index, x(race.winner(), options.until),
              static_cast<unsigned long long>(race.leader_changes()),
              static_cast<unsigned long long>(sim.statistics().events));
  examples::print_report(sim, trace);
  return 0;
}
