#pragma once
/// \file
/// Whether two objects approach each other along a normal, beyond what the rounding of a
/// collision response can leave: shared by the world's ball and polytope pipelines and by
/// the hard-sphere path (structures/hard_spheres), which must decide alike.

#include "structures/collision/geometry.hpp"
#include "structures/collision/sphere.hpp"

namespace kds {

// What the rounding of a response can leave of the relative normal velocity
// (va - vb) . (xb - xa) of two spheres: with restitution 0 the default response leaves a
// few ulps of the velocities either way, which no further response can remove.
inline double response_rounding(const SphereState& a, const SphereState& b, const Vec<3>& n) {
  return 1e-12 * (norm(a.velocity) + norm(b.velocity)) * norm(n);
}

// Approaching along n (from a to b) faster than that rounding; slower counts as at rest.
inline bool approach_beyond_rounding(const SphereState& a, const SphereState& b, const Vec<3>& n) {
  return dot(sub(a.velocity, b.velocity), n) > response_rounding(a, b, n);
}
// Along the line of centres (two balls).
inline bool approach_beyond_rounding(const SphereState& a, const SphereState& b) {
  return approach_beyond_rounding(a, b, sub(b.position, a.position));
}

}  // namespace kds
