#pragma once
/// \file
/// The Minkowski difference M = A (+) (-B) of two convex polytopes, as the planes of its
/// facets, exact. Two polytopes with centres c_a and c_b intersect iff
/// c_b - c_a lies in M: the separating-plane certificates of a world (facet_side.hpp)
/// keep c_b - c_a outside one facet of M. Motion is translation only, so M is computed
/// once per pair of shapes.
///
/// A facet normal of M is a facet normal of A, the opposite of one of B, or the cross
/// product of an edge of A and an edge of B (the Gauss-map overlay). Every such candidate
/// direction n gives the supporting plane n . x = max_a n . a - min_b n . b; it is a facet
/// when the points of M on it span a plane. Candidates are compared exactly, so parallel
/// ones (the faces of two cubes) give one facet.

#include <vector>

#include "certificates/facet_side.hpp"
#include "structures/collision/polytope.hpp"

namespace kds {

class MinkowskiDifference {
 public:
  MinkowskiDifference(const ConvexPolytope& a, const ConvexPolytope& b);

  const std::vector<ExactPlane>& facets() const { return facets_; }
  /// The vertices of M: a_i - b_j for every pair (most are inside M), for tests.
  const ConvexPolytope& first() const { return *a_; }
  const ConvexPolytope& second() const { return *b_; }

 private:
  const ConvexPolytope* a_;
  const ConvexPolytope* b_;
  std::vector<ExactPlane> facets_;
};

}  // namespace kds
