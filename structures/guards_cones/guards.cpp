#include "structures/guards_cones/guards.hpp"

#include <algorithm>
#include <cmath>

namespace kds {

GuardGrid guard_grid(double inner_radius, double rho) {
  GuardGrid g;
  g.cells = static_cast<int>(std::ceil(std::sqrt(3.0) * (rho + 1) * (rho + 1)));
  g.spacing = 2 * (rho + 1) * inner_radius / g.cells;
  return g;
}

std::vector<Vec<3>> guard_offsets(double inner_radius, double rho) {
  return guard_offsets(inner_radius, rho, rho * inner_radius);
}

std::vector<Vec<3>> guard_offsets(const FatObject& object, double rho) {
  return guard_offsets(object.inner_radius, rho, object.outer_radius);
}

std::vector<Vec<3>> guard_offsets(double inner_radius, double rho, double outer_radius) {
  const GuardGrid g = guard_grid(inner_radius, rho);
  const double half = (rho + 1) * inner_radius;
  // The shell r .. R + r (guards.hpp), never beyond the cube C (R <= rho r).
  const double near = inner_radius * (1 - 1e-9), far = std::min(half, outer_radius + inner_radius) * (1 + 1e-9);
  std::vector<Vec<3>> out;
  for (int i = 0; i <= g.cells; ++i)
    for (int j = 0; j <= g.cells; ++j)
      for (int l = 0; l <= g.cells; ++l) {
        // -half + index * spacing, computed so that the grid is symmetric about the centre.
        const Vec<3> p{half * (2.0 * i - g.cells) / g.cells, half * (2.0 * j - g.cells) / g.cells,
                       half * (2.0 * l - g.cells) / g.cells};
        const double d = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (d >= near && d <= far) out.push_back(p);
      }
  return out;
}

}  // namespace kds
