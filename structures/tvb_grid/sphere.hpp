#pragma once
/// \file
/// Spheres in a box: the shared vocabulary of the time-varying-bound grid, its
/// brute-force twin, the frame-based baseline, the scene files and the examples.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kds/motion.hpp"

namespace kds {

using SphereId = std::uint32_t;

/// An axis-aligned box: the domain the spheres live in.
struct Box3 {
  Vec<3> lo{0, 0, 0};
  Vec<3> hi{0, 0, 0};
};

/// A sphere as the user describes it at the start.
struct Sphere {
  Vec<3> position{};
  Vec<3> velocity{};
  double radius = 1;
  double mass = 1;
  /// Bound A on the magnitude of the acceleration (unknown trajectories); 0 for a
  /// ballistic sphere (which may still feel the world's constant gravity).
  double max_acceleration = 0;
};

/// Position and velocity of a sphere at some time.
struct SphereState {
  Vec<3> position{};
  Vec<3> velocity{};
};

/// The integrator kds does not see (unknown trajectories, section 1.1 of the paper): kds
/// asks for the state of a sphere at a time at or after the previous question about it,
/// and tells it of velocity changes that kds itself applies (collision response).
/// The promise: between velocity changes, |acceleration| <= the sphere's max_acceleration.
class TrajectoryProbe {
 public:
  virtual ~TrajectoryProbe() = default;
  virtual SphereState state(SphereId sphere, double t) = 0;
  /// kds changed the velocity of `sphere` at time t (a collision or a wall bounce).
  virtual void set_velocity(SphereId sphere, double t, const Vec<3>& velocity) = 0;
};

/// Box faces, for wall contacts: 2 * axis + (0 for the low face, 1 for the high face).
enum class Wall : std::uint8_t { x_lo, x_hi, y_lo, y_hi, z_lo, z_hi };

/// One contact, as written to collision logs: two spheres, or a sphere and a wall.
struct Contact {
  double time = 0;
  SphereId a = 0;
  SphereId b = 0;          ///< the other sphere (when !with_wall)
  bool with_wall = false;
  Wall wall = Wall::x_lo;  ///< the wall (when with_wall)
};

}  // namespace kds
