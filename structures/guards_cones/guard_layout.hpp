#pragma once
/// \file
/// What both guards-and-cones broad phases build first from the collision world: each
/// object's description (fat_object.hpp), the largest fatness, the cones (cones.hpp) and
/// every object's guards (guards.hpp, Lemma 7), numbered object after object.

#include <memory>
#include <vector>

#include "structures/collision/collision_world.hpp"
#include "structures/guards_cones/cones.hpp"
#include "structures/guards_cones/fat_object.hpp"
#include "structures/guards_cones/guards.hpp"

namespace kds {

struct GuardLayout {
  std::vector<FatObject> objects;     ///< by sphere
  double rho = 1;                     ///< the largest fatness of the objects
  std::unique_ptr<ConeSet> cones;     ///< cut for the largest box half width / inner radius
  std::vector<GuardId> first_guard;   ///< by sphere, n + 1: guards of i are [first_guard[i], first_guard[i + 1])
  std::vector<SphereId> owner;        ///< by guard
  std::vector<Vec<3>> offset;         ///< by guard: from its owner's centre
};

/// The layout of the world's objects; InvalidInput naming the first sphere with an
/// unknown trajectory (its box would jump at every reset of its bound) or an object that
/// check_fat_object refuses. `broad_phase` names the caller in the message.
GuardLayout layout_guards(const CollisionWorld& world, const char* broad_phase);

}  // namespace kds
