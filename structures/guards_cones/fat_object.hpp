#pragma once
/// \file
/// What guards and cones need to know of an object (Abam, de Berg, Poon, Speckmann,
/// section 3): its inner radius r (the largest ball inside it, centred at its centre),
/// its outer radius R (the smallest ball around it with the same centre), hence its
/// fatness rho = R / r, and the half width of its axis-aligned bounding box about the
/// centre. The centre's motion is the object's body; guards and cones only translate
/// with it (section 3.2: "the cones for that guard only translate").
///
/// Two kinds of objects fill the record: balls (fat_ball: r = R, rho = 1, the box the
/// ball's grown by the contact tolerance, as in box overlap) and convex polytopes moving
/// by translation (fat_polytope: r, R and the box measured about the polytope's reference
/// point, the origin of its vertices). Nothing else in guards_cones reads the shape.

#include <array>
#include <cstddef>

namespace kds {

class ConvexPolytope;

struct FatObject {
  double inner_radius = 1;  ///< r: a ball of this radius about the centre lies inside the object
  double outer_radius = 1;  ///< R: the object lies inside the ball of this radius about the centre
  /// Half widths of the bounding box about the centre, per axis: the box must hold the
  /// object (for a ball, each >= R; for a polytope, each >= its reach along the axis); a
  /// box grown beyond the object makes box events strictly earlier than contacts.
  std::array<double, 3> box_half_width{1, 1, 1};

  double fatness() const { return outer_radius / inner_radius; }
};

/// The largest fatness guards and cones accept: the guards grow as rho^6 and the cones
/// as rho^2 (Lemmas 7 and 8); rho = 4 already gives 16 grid cells per face side and
/// about 2e4 guards per object.
inline constexpr double max_fatness = 4;

/// A ball of radius `radius` whose box is grown by `box_margin` (> 0 keeps box events
/// strictly before contacts).
FatObject fat_ball(double radius, double box_margin);

/// A convex polytope about its reference point (the origin of its vertex coordinates,
/// the point its body's motion moves), measured with a safe rounding: r is the smallest
/// distance from the reference point to a facet plane, rounded down; R the largest
/// distance to a vertex, rounded up; the box half width on each axis the larger of the
/// polytope's two reaches along it (an exact vertex coordinate: the tightest box about
/// the reference point, not the bounding sphere's) grown by `box_margin` and strictly
/// above that reach. InvalidInput naming object `id` if the reference point is not
/// strictly inside the polytope (outside, or on a facet: there is no inner ball about
/// it). The shape's own checks (convex, not flat...) ran when it was built.
FatObject fat_polytope(const ConvexPolytope& shape, double box_margin, std::size_t id);

/// InvalidInput naming object `id` and the problem: a radius that is not finite and
/// positive, an outer radius below the inner one, fatness beyond max_fatness, a box half
/// width below the inner radius (a box that does not hold the inner ball cannot hold the
/// object; that it holds the whole object is fat_ball's and fat_polytope's to ensure).
void check_fat_object(const FatObject& o, std::size_t id);

}  // namespace kds
