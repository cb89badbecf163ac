#pragma once
/// \file
/// The range of input a collision world accepts (docs/scene-format.md, "Accepted range"),
/// checked by io/validate_spheres.hpp with errors naming the sphere, the field and the
/// limit. Beyond it kds would not fail loudly but slowly or obscurely: squares of
/// velocities overflow to infinity and every failure time goes to the exact path.

namespace kds::input_range {

/// Largest magnitude of a box corner, a velocity component, an acceleration bound, a
/// gravity component and a mass. The functions of eq. (10) and the world's own double
/// arithmetic (gaps, approach speeds, impulses, kinetic energies) multiply up to four such
/// values: at most 1e200, far from the overflow of doubles (about 1.8e308).
inline constexpr double max_magnitude = 1e50;
/// Smallest mass: the impulse divides by the sum of two masses.
inline constexpr double min_mass = 1e-50;
/// Smallest radius, as a fraction of the largest side of the box: 2^-40. Not for the grid
/// (its cells have a floor, structures/collision/cell_sides.hpp, so any radius fits): two
/// touching spheres are 2 r apart, and the response's normal, their difference divided
/// by its length, must stay far above the rounding of coordinates (2^-52 of them).
inline constexpr double min_radius_per_box_side = 0x1p-40;

/// Smallest contact tolerance, as a fraction of the largest magnitude of a box corner in
/// the world's local frame (box.hpp, local_origin): 2^-40. Coordinates are doubles: after a
/// response at a rounded time two spheres are moved back to touching up to a few ulps of
/// their coordinates (2^-52 of them), which the tolerance must cover with room to spare.
inline constexpr double min_tolerance_per_coordinate = 0x1p-40;

}  // namespace kds::input_range
