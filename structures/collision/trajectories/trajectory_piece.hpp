#pragma once
/// \file
/// A realized trajectory: the pieces of constant acceleration a probe actually followed,
/// kept so that a checker can verify afterwards, exactly, what kds saw only by probing.

#include <algorithm>
#include <vector>

#include "kds/motion.hpp"

namespace kds {

/// x(t) = position + velocity (t - start) + acceleration/2 (t - start)^2 from `start` until
/// the next piece starts. The doubles stored here are the truth: the next piece starts
/// from this one's state rounded to doubles, so a trajectory is continuous up to rounding.
struct TrajectoryPiece {
  double start = 0;
  Vec<3> position{};
  Vec<3> velocity{};
  Vec<3> acceleration{};

  Motion<3> motion() const { return Motion<3>::accelerated(start, position, velocity, acceleration); }
  Vec<3> position_at(double t) const { return motion().position(t); }
  Vec<3> velocity_at(double t) const { return motion().velocity(t); }
};

/// Pieces in strictly increasing start time; piece k holds on [start_k, start_{k+1}), the
/// last one for ever.
using Trajectory = std::vector<TrajectoryPiece>;

/// The piece in force at time t (t at or after the first piece's start).
inline const TrajectoryPiece& piece_at(const Trajectory& trajectory, double t) {
  auto it = std::upper_bound(trajectory.begin(), trajectory.end(), t,
                             [](double time, const TrajectoryPiece& p) { return time < p.start; });
  return *std::prev(it);
}

}  // namespace kds
