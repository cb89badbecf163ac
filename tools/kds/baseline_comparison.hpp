#pragma once
/// \file
/// `kds run --baseline DT`: the same scenario run by the frame-based baseline
/// (structures/collision/baseline: fixed frames of length DT, what fixed-step engines do)
/// and compared with kds' exact contacts, so that a user sees what a fixed step misses.

#include <cstdint>
#include <ostream>

#include "tools/kds/scenario_run.hpp"

namespace kds::cli {

struct BaselineComparison {
  double dt = 0;
  std::uint64_t sphere_contacts = 0, wall_contacts = 0;  ///< the baseline's
  /// Pairs of spheres that touched in kds' run and never in the baseline's.
  std::uint64_t pairs_missed = 0;
  std::uint64_t pairs_exact = 0;  ///< pairs that touched in kds' run
  /// The first contact kds has and the baseline does not (its time; -1 if none).
  double first_missed_time = -1;
  SphereId first_missed_a = 0, first_missed_b = 0;
};

/// Runs the baseline on the scenario until the run's end and compares it with the run's
/// contacts (the run must have ended). InvalidInput if a sphere has an unknown trajectory
/// (the baseline knows ballistic motion only).
BaselineComparison compare_with_baseline(ScenarioRun& run, double dt);

std::ostream& operator<<(std::ostream& out, const BaselineComparison& c);

}  // namespace kds::cli
