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

#include <optional>

#include "kds/polynomial.hpp"
#include "kds/sign.hpp"
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

/// A facet function: n . (c_object - g) for a guard g and an integer normal n.
struct FacetOf {
  GuardPoint guard;
  IntVec normal{};
  SphereId object = no_sphere;
};

/// Whether two facet functions are exactly one polynomial of degree 1 up to a non-zero
/// factor: parallel normals, a relative motion along them of non-zero speed, and either
///  - the same owner and object, and one plane: nb . (a.offset - b.offset) = 0 (guards of
///    one object on one plane of the orientation); or
///  - owner and object swapped, and nb . (a.offset + b.offset) = 0 (two objects of one
///    size, each on the plane of the other's mirrored guard: the guard lattice is
///    symmetric about the centre),
/// each sum decided exactly in doubles. false when any of that fails or cannot be decided
/// cheaply (kds/error_free.hpp's range).
bool same_facet_line(const CollisionWorld& world, const FacetOf& a, const FacetOf& b);

/// A plane through the guard that the centre lies on now, exactly: the plane of the cone
/// facet whose certificate fails now (the clock is its root). Facets on that plane take
/// their sign just after now from `slope`, the sign of n . (c_k - g)'s derivative, where
/// the filter alone would see an interval around 0 and go exact.
struct PlaneCrossing {
  IntVec normal{};
  Sign slope = Sign::unknown;
};

/// The crossing of the plane through g with normal n by the centre of `object` now, when
/// n . (c_object - g) is certainly of degree 1 (its slope's sign known); nullopt otherwise.
/// The caller promises that the function vanishes now (its certificate's root is the clock).
std::optional<PlaneCrossing> plane_crossing(const CollisionWorld& world, const GuardPoint& g, SphereId object,
                                            const IntVec& n);

/// Whether the centre of k lies in the closed cone c of g just after now (exact). With
/// `crossing`, the facets on its plane are decided by it.
bool centre_in_cone(const CollisionWorld& world, const ConeSet& cones, const GuardPoint& g, SphereId k, ConeIndex c,
                    const PlaneCrossing* crossing = nullptr);

/// The cone of g holding the centre of k just after now (exact): the cone that doubles
/// guess if it holds it, else, after a crossing, the one a guess just past the plane
/// gives, else the first that does. std::logic_error if none does (cannot happen: the
/// cones cover all directions).
ConeIndex locate_centre(const CollisionWorld& world, const ConeSet& cones, const GuardPoint& g, SphereId k,
                        const PlaneCrossing* crossing = nullptr);

/// Whether two integer normals are parallel (either orientation), neither of them 0.
bool parallel_normals(const IntVec& a, const IntVec& b);

/// Whether k's centre projects before j's on cone c's representative edge just after
/// now; equal projections forever (never between disjoint objects, Lemma 9) by id.
bool projects_before(const CollisionWorld& world, const ConeSet& cones, ConeIndex c, SphereId k, SphereId j);

}  // namespace kds
