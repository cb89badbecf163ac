#pragma once
/// \file
/// The cell side of each sphere (Kim, Guibas, Shin, section 3.1): levels of side
/// L_l = L_0 2^l with L_0 = k * (2 r_min), and a sphere at the finest level whose side is
/// at least k times its diameter (k = the cell ratio, >= 2).
///
/// Two things depend on it, so it is computed once, here, for every broad phase:
///   - the bound-reset deadline of eq. (8): a bound is reset when its diameter reaches its
///     sphere's side L, t0 + (L - 2r) / A;
///   - the cells of the time-varying-bound grid, whose level l has cells of side L_l, so
///     that a bound never spans more than two cells per axis.
/// The all-pairs reference resets bounds at the same times as the grid, so that both find
/// the same contacts.

#include <vector>

#include "structures/collision/input_range.hpp"
#include "structures/collision/sphere.hpp"

namespace kds {

class CellSides {
 public:
  /// At most this many levels: the grid keys cells with 4 bits of level, and the input
  /// range (docs/scene-format.md) keeps the radius ratio within it.
  static constexpr int max_levels = 15;
  static_assert(input_range::max_radius_ratio <= double(1 << (max_levels - 1)), "a level per doubling of the radius");

  CellSides() = default;
  /// Levels for these radii (none for no spheres); `ratio` >= 2.
  CellSides(const std::vector<Sphere>& spheres, double ratio);

  double ratio() const { return ratio_; }
  int levels() const { return static_cast<int>(sides_.size()); }
  double side(int level) const { return sides_[level]; }
  /// The finest level whose side is at least `ratio` diameters.
  int level_of(double radius) const;

 private:
  double ratio_ = 2;
  std::vector<double> sides_;
};

}  // namespace kds
