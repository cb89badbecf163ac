#pragma once
/// \file
/// The integrator kds does not see (unknown trajectories, Kim, Guibas, Shin section 1.1).

#include "structures/collision/sphere.hpp"

namespace kds {

/// kds asks for the state of a sphere at a time at or after the previous question about
/// it, and tells it of velocity changes that kds itself applies (collision response).
/// The promise: between velocity changes, |acceleration| <= the sphere's max_acceleration.
/// trajectories/ has generators for tests and examples.
class TrajectoryProbe {
 public:
  virtual ~TrajectoryProbe() = default;
  virtual SphereState state(SphereId sphere, double t) = 0;
  /// kds changed the velocity of `sphere` at time t (a collision or a wall bounce).
  virtual void set_velocity(SphereId sphere, double t, const Vec<3>& velocity) = 0;
};

}  // namespace kds
