#pragma once
/// \file
/// The cell side of each sphere (Kim, Guibas, Shin, section 3.1): levels of side
/// L_l = L_0 2^l with L_0 = k * (2 r_min), and a sphere at the finest level whose side is
/// at least k times its diameter (k = the cell ratio, >= 2).
///
/// Three floors keep the grid finite for any radii (docs/structures/tvb-grid.md, "Limits"):
/// the finest side is at least 2^-17 of the largest side of the box (at most about 2^17
/// cells per axis, within the cell keys of the grid), at least 2^-36 of the largest
/// magnitude of a box corner (cells far above the rounding of coordinates there: the grid
/// registers a bound with a margin of 1e-12 of its coordinates, which must stay within a
/// cell), and at least 2^-(max_levels - 1) of the largest sphere's side (at most
/// max_levels levels). Spheres too small for the finest
/// level live there anyway, in cells wider than they need: more candidates, still correct.
///
/// Two things depend on it, so it is computed once, here, for every broad phase:
///   - the bound-reset deadline of eq. (8): a bound is reset when its diameter reaches its
///     sphere's side L, t0 + sqrt((L - 2r) / A) (Bound::time_to_fill);
///   - the cells of the time-varying-bound grid, whose level l has cells of side L_l, so
///     that a bound never spans more than two cells per axis.
/// The all-pairs reference resets bounds at the same times as the grid, so that both find
/// the same contacts.

#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds {

class CellSides {
 public:
  /// At most this many levels: the grid keys cells with 5 bits of level.
  static constexpr int max_levels = 32;
  /// The finest side is at least this fraction of the largest side of the box,
  static constexpr double min_side_per_box_side = 0x1p-17;
  /// ... and at least this fraction of the largest magnitude of a box corner.
  static constexpr double min_side_per_coordinate = 0x1p-36;

  CellSides() = default;
  /// Levels for these radii in this box (none for no spheres); `ratio` >= 2.
  CellSides(const std::vector<Sphere>& spheres, double ratio, const Box3& box);

  double ratio() const { return ratio_; }
  int levels() const { return static_cast<int>(sides_.size()); }
  double side(int level) const { return sides_[level]; }
  /// The finest level whose side is at least `ratio` diameters (level 0 for the spheres
  /// smaller than the floors allow).
  int level_of(double radius) const;

 private:
  double ratio_ = 2;
  std::vector<double> sides_;
};

}  // namespace kds
