#pragma once
/// \file
/// Where a centre lies among the cones of a guard, and which of two centres is closer to
/// it in a cone (section 3.2 of Abam, de Berg, Poon, Speckmann): the exact predicates that
/// both guards-and-cones broad phases (GuardsCones, GuardsConesLists) use, over the
/// motions of the collision world.
///
/// A guard is its owner's centre plus a fixed offset (guards.hpp). Every predicate is the
/// sign, just after the current time, of a polynomial written once over the number type
/// (kds/solver.hpp: interval first, exact where the interval cannot decide).

#include "kds/polynomial.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/guards_cones/cones.hpp"

namespace kds {

/// A guard: its owner's centre plus an offset.
struct GuardPoint {
  SphereId owner = no_sphere;
  Vec<3> offset{};
};

/// n . (c_object(t) - g(t)): non-negative while the centre of `object` is on the inner
/// side of the facet plane through g with inward normal n.
template <class NT>
Polynomial<NT> facet_polynomial(const CollisionWorld& world, const GuardPoint& g, SphereId object, const IntVec& n,
                                double origin) {
  const BodyId own = world.body(g.owner), obj = world.body(object);
  Polynomial<NT> f(NT(0));
  for (int k = 0; k < 3; ++k) {
    if (n[k] == 0) continue;
    Polynomial<NT> d = world.centre<NT>(obj, k, origin) - world.centre<NT>(own, k, origin) -
                       Polynomial<NT>(NT(g.offset[k]));
    f += d * Polynomial<NT>(NT(n[k]));
  }
  return f;
}

/// Whether the centre of k lies in the closed cone c of g just after now (exact).
bool centre_in_cone(const CollisionWorld& world, const ConeSet& cones, const GuardPoint& g, SphereId k, ConeIndex c);

/// The cone of g holding the centre of k just after now (exact): the cone that doubles
/// guess if it holds it, else the first that does. std::logic_error if none does (cannot
/// happen: the cones cover all directions).
ConeIndex locate_centre(const CollisionWorld& world, const ConeSet& cones, const GuardPoint& g, SphereId k);

/// Whether k's centre projects before j's on cone c's representative edge just after
/// now; equal projections forever (never between disjoint objects, Lemma 9) by id.
bool projects_before(const CollisionWorld& world, const ConeSet& cones, ConeIndex c, SphereId k, SphereId j);

}  // namespace kds
