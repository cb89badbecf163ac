#pragma once
/// \file
/// The sphere shape: how a user describes a sphere at the start, and its state at a time.
/// Shared by the collision world, its broad phases, the frame-based baseline, scene files
/// and the trajectory generators.

#include <cstdint>

#include "kds/motion.hpp"

namespace kds {

/// A sphere's index in its world (and in scene files and contact logs): 0, 1, 2...
using SphereId = std::uint32_t;
inline constexpr SphereId no_sphere = ~SphereId{0};

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

}  // namespace kds
