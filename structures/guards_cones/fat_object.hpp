#pragma once
/// \file
/// What guards and cones need to know of an object (Abam, de Berg, Poon, Speckmann,
/// section 3): its inner radius r (the largest ball inside it, centred at its centre),
/// its outer radius R (the smallest ball around it with the same centre), hence its
/// fatness rho = R / r, and the half width of its axis-aligned bounding box about the
/// centre. The centre's motion is the object's body; guards and cones only translate
/// with it (section 3.2: "the cones for that guard only translate").
///
/// Balls are the only objects of the collision world today: r = R, rho = 1, and the box
/// is the ball's grown by the contact tolerance (as in box overlap). A convex polytope
/// plugs in by filling the same record (its inner and outer radii about a chosen centre,
/// its box half width along each axis); nothing else in guards_cones reads the shape.

#include <array>
#include <cstddef>

namespace kds {

struct FatObject {
  double inner_radius = 1;  ///< r: a ball of this radius about the centre lies inside the object
  double outer_radius = 1;  ///< R: the object lies inside the ball of this radius about the centre
  /// Half widths of the bounding box about the centre, per axis (each >= R is safe; a
  /// box grown beyond the object makes box events strictly earlier than contacts).
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

/// InvalidInput naming object `id` and the problem: a radius that is not finite and
/// positive, an outer radius below the inner one, fatness beyond max_fatness, a box half
/// width below the outer radius.
void check_fat_object(const FatObject& o, std::size_t id);

}  // namespace kds
