#pragma once
/// \file
/// What both guards-and-cones broad phases build first from the collision world: each
/// object's description (fat_object.hpp), the largest fatness, the cones (cones.hpp) and
/// every object's guards (guards.hpp, Lemma 7), numbered object after object.

#include <memory>
#include <span>
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

/// Object id's guards for a viewer (BroadPhase::draw): a small box of role "guard" about
/// each, carried by the object (its guards keep their offsets from its centre). The
/// box's half side is 1/40 of the object's inner radius: small beside the object, large
/// enough to see.
void draw_guards(const CollisionWorld& world, const FatObject& object, std::span<const Vec<3>> offsets, SphereId id,
                 Drawing& out);

}  // namespace kds
