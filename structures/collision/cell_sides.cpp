#include "structures/collision/cell_sides.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace kds {

CellSides::CellSides(const std::vector<Sphere>& spheres, double ratio, const Box3& box) : ratio_(ratio) {
  if (spheres.empty()) return;
  double r_min = std::numeric_limits<double>::infinity(), r_max = 0;
  for (const Sphere& s : spheres) {
    r_min = std::min(r_min, s.radius);
    r_max = std::max(r_max, s.radius);
  }
  double box_side = 0, corner = 0;
  for (int k = 0; k < 3; ++k) {
    box_side = std::max(box_side, box.hi[k] - box.lo[k]);
    corner = std::max({corner, std::fabs(box.lo[k]), std::fabs(box.hi[k])});
  }
  const double coarsest = ratio * 2 * r_max;
  const double finest = std::max({ratio * 2 * r_min, min_side_per_box_side * box_side,
                                  min_side_per_coordinate * corner, std::ldexp(coarsest, 1 - max_levels)});
  // Doubling from the finest side is exact; stop at the first side that holds the largest sphere.
  sides_.push_back(finest);
  while (sides_.back() < coarsest && levels() < max_levels) sides_.push_back(2 * sides_.back());
}

int CellSides::level_of(double radius) const {
  for (int l = 0; l < levels(); ++l)
    if (sides_[l] >= ratio_ * 2 * radius) return l;
  // The levels were made for the largest radius: a larger one is a caller's error.
  throw std::logic_error("CellSides: a sphere of radius " + std::to_string(radius) + " is beyond the largest level");
}

}  // namespace kds
