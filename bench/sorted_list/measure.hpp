#pragma once
/// \file
/// One measured run: build the scene (each point a 1D body of the simulator, entered in a
/// kinetic sorted list by its x-coordinate key), run it to the horizon, and record time,
/// events and solver counters.

#include <cstdint>
#include <vector>

#include "bench/sorted_list/scene.hpp"
#include "kds/number_types.hpp"
#include "kds/solver.hpp"

namespace kds::bench {

/// Times are CPU seconds of this process (single-threaded): on a machine shared with
/// other jobs they vary less than wall-clock time, which is kept for reference.
struct RunResult {
  double setup_seconds = 0;  ///< inserting the bodies and their keys, and computing the first failure times
  double run_seconds = 0;    ///< run_until(horizon): the event loop alone
  double run_wall_seconds = 0;  ///< the same, wall clock
  std::uint64_t events = 0;
  std::uint64_t swaps = 0;
  SolverCounters solver;      ///< over the whole run, setup included
  std::uint64_t certificates_created = 0, certificates_destroyed = 0;  ///< over the whole run, setup included
  std::uint64_t out_of_order = 0;  ///< adjacent pairs in the wrong order at the horizon (should be 0)
};

/// Runs `points` from t = 0 to `horizon` with the given exactness.
RunResult run_scene(const std::vector<Point>& points, double horizon, Exactness mode);

}  // namespace kds::bench
