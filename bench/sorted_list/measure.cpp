#include "bench/sorted_list/measure.hpp"

#include <cmath>

#include "bench/common/stopwatch.hpp"
#include "kds/key.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds::bench {
namespace {

/// Adjacent pairs whose positions at t are out of order by more than rounding: a missed
/// event. The check is in doubles (an exact one costs a rational evaluation per point,
/// more than the run itself at n = 10^6); the tolerance covers the rounding of x + v t.
/// `body_of[e]` is the body of entry e.
std::uint64_t count_out_of_order(const Simulator& sim, const SortedList& list, const std::vector<BodyId>& body_of,
                                 double t) {
  std::uint64_t bad = 0;
  const auto& order = list.order();
  for (std::size_t i = 0; i + 1 < order.size(); ++i) {
    const double a = sim.bodies().motion(body_of[order[i]]).position(t)[0];
    const double b = sim.bodies().motion(body_of[order[i + 1]]).position(t)[0];
    const double tolerance = 4 * 0x1p-52 * (std::fabs(a) + std::fabs(b) + 2 * t);
    if (a > b + tolerance) ++bad;
  }
  return bad;
}

}  // namespace

RunResult run_scene(const std::vector<Point>& points, double horizon, Exactness mode) {
  RunResult result;
  Simulator sim(SimulatorSettings{.exactness = mode});
  SortedList list(sim);

  // Each point is a 1D body of the simulator, entered in the list by its x-coordinate.
  std::vector<BodyId> body_of;  // indexed by entry
  body_of.reserve(points.size());
  const double setup_start = cpu_seconds();
  for (const Point& p : points) {
    const BodyId b = sim.bodies().insert(Motion<1>::linear(0.0, {p.x}, {p.v}));
    const EntryId e = list.insert(Key::coordinate(b));
    if (e >= body_of.size()) body_of.resize(e + 1);
    body_of[e] = b;
  }
  (void)sim.next_event_time();  // computes every pending failure time now, not in the timed loop
  result.setup_seconds = cpu_seconds() - setup_start;

  const double run_start = cpu_seconds(), run_start_wall = wall_seconds();
  sim.run_until(horizon);
  result.run_seconds = cpu_seconds() - run_start;
  result.run_wall_seconds = wall_seconds() - run_start_wall;

  const Statistics& stats = sim.statistics();
  result.events = stats.events;
  result.swaps = list.swaps();
  result.solver = stats.solver;
  result.certificates_created = stats.certificates_created;
  result.certificates_destroyed = stats.certificates_destroyed;
  result.out_of_order = count_out_of_order(sim, list, body_of, horizon);
  return result;
}

}  // namespace kds::bench
