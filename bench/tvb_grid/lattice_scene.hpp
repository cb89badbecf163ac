#pragma once
/// \file
/// Equal hard spheres at a given volume fraction, started on a simple cubic lattice:
/// random placement cannot reach 0.4 without overlaps (random sequential addition jams
/// near 0.38), a lattice can (simple cubic holds up to pi/6 = 0.52). Velocities are
/// uniform in [-1, 1]^3 per component, from the raw bits of std::mt19937_64.

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::bench {

struct LatticeScene {
  Box3 box;
  std::vector<Sphere> spheres;
};

/// n spheres of radius 1 and mass 1 in a cube whose side makes their volume fraction `phi`.
/// The lattice has ceil(cbrt(n)) sites per axis, the first n of them filled.
inline LatticeScene lattice_spheres(std::size_t n, double phi, std::uint64_t seed) {
  const double r = 1;
  const double side = std::cbrt(static_cast<double>(n) * 4.0 / 3.0 * M_PI * r * r * r / phi);
  std::size_t m = static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(n)) - 1e-9));
  while (m * m * m < n) ++m;
  const double spacing = side / static_cast<double>(m);
  if (!(spacing > 2 * r * (1 + 1e-9)))
    throw std::invalid_argument("lattice: volume fraction too high for a simple cubic start of this n");
  std::mt19937_64 rng(seed);
  auto velocity = [&] { return 2 * (static_cast<double>(rng() >> 11) * 0x1.0p-53) - 1; };
  LatticeScene s;
  s.box = Box3{{0, 0, 0}, {side, side, side}};
  s.spheres.reserve(n);
  for (std::size_t i = 0; i < m && s.spheres.size() < n; ++i)
    for (std::size_t j = 0; j < m && s.spheres.size() < n; ++j)
      for (std::size_t k = 0; k < m && s.spheres.size() < n; ++k) {
        Sphere sp;
        sp.position = {(i + 0.5) * spacing, (j + 0.5) * spacing, (k + 0.5) * spacing};
        sp.velocity = {velocity(), velocity(), velocity()};
        sp.radius = r;
        sp.mass = 1;
        s.spheres.push_back(sp);
      }
  return s;
}

}  // namespace kds::bench
