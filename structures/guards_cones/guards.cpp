#include "structures/guards_cones/guards.hpp"

#include <algorithm>
#include <cmath>

namespace kds {

namespace {

/// x rounded up to 24 significant bits.
double round_up_to_24_bits(double x) {
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m 2^e, m in [1/2, 1)
  return std::ldexp(std::ceil(std::ldexp(m, 24)), e - 24);
}

}  // namespace

GuardGrid guard_grid(double inner_radius, double rho) {
  // The paper's largest cell side, and the fewest cells per side that meet it. A half cell
  // of 24 significant bits makes every offset an integer times it, exactly: guards that lie
  // on one plane of a facet orientation (integer normal) lie on it exactly, so their cone
  // facets' certificates are one function (cone_geometry.hpp's same_facet_line) and not
  // two that differ by rounding, which only the exact path could order. The half cell is
  // rounded up, so the grid still covers the cube C; if that breaks the side's bound (it
  // has no room to spare), one more cell per side.
  const double largest = 2 * inner_radius / (std::sqrt(3.0) * (rho + 1));
  GuardGrid g;
  g.cells = static_cast<int>(std::ceil(std::sqrt(3.0) * (rho + 1) * (rho + 1)));
  for (;; ++g.cells) {
    g.spacing = 2 * round_up_to_24_bits((rho + 1) * inner_radius / g.cells);
    if (g.spacing <= largest) return g;
  }
}

std::vector<Vec<3>> guard_offsets(double inner_radius, double rho) {
  return guard_offsets(inner_radius, rho, rho * inner_radius);
}

std::vector<Vec<3>> guard_offsets(const FatObject& object, double rho) {
  return guard_offsets(object.inner_radius, rho, object.outer_radius);
}

std::vector<Vec<3>> guard_offsets(double inner_radius, double rho, double outer_radius) {
  const GuardGrid g = guard_grid(inner_radius, rho);
  const double half = (rho + 1) * inner_radius, half_cell = g.spacing / 2;
  // The shell r .. R + r (guards.hpp), never beyond the cube C (R <= rho r).
  const double near = inner_radius * (1 - 1e-9), far = std::min(half, outer_radius + inner_radius) * (1 + 1e-9);
  std::vector<Vec<3>> out;
  for (int i = 0; i <= g.cells; ++i)
    for (int j = 0; j <= g.cells; ++j)
      for (int l = 0; l <= g.cells; ++l) {
        // (2 index - cells) half cells: exact, and symmetric about the centre.
        const Vec<3> p{(2.0 * i - g.cells) * half_cell, (2.0 * j - g.cells) * half_cell,
                       (2.0 * l - g.cells) * half_cell};
        const double d = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (d >= near && d <= far) out.push_back(p);
      }
  return out;
}

}  // namespace kds
