#include "structures/collision/cell_sides.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace kds {

CellSides::CellSides(const std::vector<Sphere>& spheres, double ratio) : ratio_(ratio) {
  if (spheres.empty()) return;
  double r_min = std::numeric_limits<double>::infinity(), r_max = 0;
  for (const Sphere& s : spheres) {
    r_min = std::min(r_min, s.radius);
    r_max = std::max(r_max, s.radius);
  }
  const double finest = ratio * 2 * r_min;
  const int levels = std::min(max_levels, 1 + static_cast<int>(std::ceil(std::log2(r_max / r_min) + 1e-12)));
  for (int l = 0; l < levels; ++l) sides_.push_back(std::ldexp(finest, l));
}

int CellSides::level_of(double radius) const {
  for (int l = 0; l < levels(); ++l)
    if (sides_[l] >= ratio_ * 2 * radius) return l;
  // The validation of the input range (io/validate_spheres.hpp) keeps radii within the levels.
  throw std::logic_error("CellSides: a sphere of radius " + std::to_string(radius) + " is beyond the largest level");
}

}  // namespace kds
