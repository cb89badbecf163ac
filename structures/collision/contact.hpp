#pragma once
/// \file
/// The contact record: two spheres, or a sphere and a wall, that touched at a time. The
/// world logs one per contact, hands it to responses and observers, and contact logs
/// (io/contact_log.hpp) write it.

#include "structures/collision/sphere.hpp"
#include "structures/collision/wall.hpp"

namespace kds {

struct Contact {
  double time = 0;
  SphereId a = 0;
  SphereId b = 0;          ///< the other sphere (when !with_wall)
  bool with_wall = false;
  Wall wall = Wall::x_lo;  ///< the wall (when with_wall)
  /// Two polytopes: the unit normal of the contact, from a to b (the facet of their
  /// Minkowski difference where they met). Zero otherwise.
  Vec<3> normal{};
};

}  // namespace kds
