#pragma once
/// \file
/// After a run, did two realized trajectories (or a trajectory and the box) ever overlap
/// deeper than the contact tolerance? Decided exactly: on each interval where both
/// trajectories are single pieces, |x_a(t) - x_b(t)|^2 - (r_a + r_b - tolerance)^2 is a
/// polynomial of degree at most 4 with rational coefficients (the pieces' doubles), and
/// its first failure is found by kds::first_failure (interval filter, exact algebraic
/// fallback). A grazing contact, where the function touches zero without going negative,
/// is not an overlap.
///
/// Used against the unknown-trajectory mode of the sphere world: feed the world a
/// PiecewiseProbe, run it, and check every pair of recorded trajectories (and each one
/// against the walls) with the world's tolerance.

#include <optional>

#include "kds/root.hpp"
#include "structures/collision/box.hpp"
#include "structures/collision/wall.hpp"
#include "structures/collision/trajectories/trajectory_piece.hpp"

namespace kds {

/// The first time in [t_begin, t_end) from which the spheres overlap by more than
/// `tolerance`, i.e. |x_a - x_b| < r_a + r_b - tolerance just after it; empty if never.
/// The root is exact (pinned: it needs nothing else alive). Both trajectories must have
/// started by t_begin.
std::optional<Root> first_overlap(const Trajectory& a, const Trajectory& b, double ra, double rb, double tolerance,
                                  double t_begin, double t_end);

/// True if the trajectories never overlap deeper than `tolerance` in [t_begin, t_end).
inline bool check_no_overlap(const Trajectory& a, const Trajectory& b, double ra, double rb, double tolerance,
                             double t_begin, double t_end) {
  return !first_overlap(a, b, ra, rb, tolerance, t_begin, t_end);
}

struct WallOverlap {
  Root time;
  Wall wall;
};

/// The first time in [t_begin, t_end) from which the sphere pokes out of the box through a
/// wall by more than `tolerance`; at equal times the lower-numbered wall is reported.
std::optional<WallOverlap> first_wall_overlap(const Trajectory& a, double r, const Box3& box, double tolerance,
                                              double t_begin, double t_end);

/// The smallest gap |x_a - x_b| - r_a - r_b over [t_begin, t_end] and a time it is reached,
/// in doubles (negative: the depth of the deepest overlap). For reports and plots; the
/// exact verdict is first_overlap's.
struct Gap {
  double gap;
  double time;
};
Gap min_gap_over_time(const Trajectory& a, const Trajectory& b, double ra, double rb, double t_begin, double t_end);

}  // namespace kds
