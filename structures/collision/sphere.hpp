#pragma once
/// \file
/// The sphere shape: how a user describes a sphere at the start, and its state at a time.
/// Shared by the collision world, its broad phases, the frame-based baseline, scene files
/// and the trajectory generators.

#include <cstdint>
#include <memory>

#include "kds/motion.hpp"

namespace kds {

/// A sphere's index in its world (and in scene files and contact logs): 0, 1, 2...
using SphereId = std::uint32_t;
inline constexpr SphereId no_sphere = ~SphereId{0};

class ConvexPolytope;

/// A sphere as the user describes it at the start; or a convex polytope moving by
/// translation, seen by broad phases as its bounding sphere (docs/structures/collision.md,
/// "Convex polytopes").
struct Sphere {
  Vec<3> position{};
  Vec<3> velocity{};
  double radius = 1;
  double mass = 1;
  /// Bound A on the magnitude of the acceleration (unknown trajectories); 0 for a
  /// ballistic sphere (which may still feel the world's constant gravity).
  double max_acceleration = 0;
  /// Null for a ball. Else the shape (vertices relative to `position`), ballistic only,
  /// and `radius` at least its bounding_radius(): use polytope_body().
  std::shared_ptr<const ConvexPolytope> polytope = nullptr;
};

/// A polytope of the given shape as a world's object: radius its bounding radius.
Sphere polytope_body(std::shared_ptr<const ConvexPolytope> shape, const Vec<3>& position, const Vec<3>& velocity,
                     double mass = 1);

/// Position and velocity of a sphere at some time.
struct SphereState {
  Vec<3> position{};
  Vec<3> velocity{};
};

}  // namespace kds
