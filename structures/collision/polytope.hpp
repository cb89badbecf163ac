#pragma once
/// \file
/// The convex polytope shape: a rigid convex body that moves by translation only (dice in
/// a box). Its vertices are given relative to its centre (the point its body's motion
/// moves); the constructor checks them and computes the hull's facets and edges exactly
/// (rational arithmetic), so that the Minkowski differences of pairs of shapes
/// (minkowski_difference.hpp) and hence the separating-plane certificates are exact.
///
/// A world (collision_world.hpp) sees a polytope through a `Sphere` whose `polytope` is
/// set: broad phases see its bounding sphere (`Sphere::radius`, at least
/// bounding_radius()), the narrow phase the polytope itself.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kds/motion.hpp"
#include "kds/number_types.hpp"

namespace kds {

class ConvexPolytope {
 public:
  /// A facet of the hull: its vertices (indices into vertices(), at least 3, in no
  /// particular order) and its outward plane n . x <= offset, exact.
  struct Facet {
    std::vector<std::uint32_t> vertices;
    std::array<Rational, 3> normal;
    Rational offset;
  };
  /// An edge of the hull: two vertex indices, smaller first.
  using Edge = std::array<std::uint32_t, 2>;

  /// Checks the vertices (InvalidInput naming `name`, "polytope 3" say, and the problem):
  /// finite coordinates; at least 4 vertices; no two equal ("duplicate vertices 2 and
  /// 5"); not all in one plane ("flat"); every vertex a corner of the hull, none inside
  /// it or in the middle of one of its facets or edges ("not convex: vertex 4 is not a
  /// corner of the convex hull"). Exact: a vertex off its place by an ulp is caught. The
  /// hull is found by testing every plane through three vertices: O(n^4), meant for the
  /// small vertex counts of rigid bodies (up to about a hundred vertices).
  explicit ConvexPolytope(std::vector<Vec<3>> vertices, const std::string& name = "polytope");

  const std::vector<Vec<3>>& vertices() const { return vertices_; }
  const std::vector<Facet>& facets() const { return facets_; }
  const std::vector<Edge>& edges() const { return edges_; }
  /// A radius (a double rounded up) of a ball about the centre holding every vertex.
  double bounding_radius() const { return bounding_radius_; }
  /// How far the shape reaches from its centre along +axis (high) or -axis (low): exact,
  /// a vertex coordinate. What a wall certificate uses instead of a sphere's radius.
  double reach(int axis, bool high) const { return high ? high_[axis] : low_[axis]; }

  /// Shapes centred on their centroid, `size` the half side of a cube, the distance from
  /// the centre to a vertex of the octahedron, and the circumradius of the tetrahedron
  /// (whose vertices are alternate corners of a cube of half side size / sqrt 3).
  static std::shared_ptr<const ConvexPolytope> cube(double half_side);
  static std::shared_ptr<const ConvexPolytope> octahedron(double size);
  static std::shared_ptr<const ConvexPolytope> tetrahedron(double size);
  /// The convex hull of `points` random points in the ball of radius `size` (seeded):
  /// only the hull's corners are kept. Points in degenerate position (rare with doubles)
  /// are redrawn.
  static std::shared_ptr<const ConvexPolytope> random_hull(int points, double size, std::uint64_t seed);

 private:
  std::vector<Vec<3>> vertices_;
  std::vector<Facet> facets_;
  std::vector<Edge> edges_;
  double bounding_radius_ = 0;
  std::array<double, 3> low_{}, high_{};
};

/// The corners of the convex hull of `points` (exactly: points inside the hull or in the
/// middle of a facet or edge are dropped, and duplicates kept once), in their order.
/// Fewer than 4 points or all of them in one plane: returned unchanged.
std::vector<Vec<3>> hull_corners(const std::vector<Vec<3>>& points);

}  // namespace kds
