#pragma once
/// \file
/// Random ballistic spheres for the box-overlap benchmark: radii log-uniform in
/// [1, spread], or (large_fraction > 0) a bimodal mix: that fraction of the spheres of
/// radius `spread` among spheres of radii in [1, 1.5], the case where a large box meets
/// many small ones (the paper's reason for guards, section 3.2); mass proportional to volume, velocity components uniform in [-1, 1],
/// placed without overlap at random in a cube sized for volume fraction `phi`. Placement
/// is by rejection, largest spheres first, against a hash grid of cell 2 * spread, so
/// that 10^5 spheres place in a moment. Raw mt19937_64 bits, no standard distribution:
/// the same scene on every platform.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::bench {

struct RandomSpheres {
  Box3 box;
  std::vector<Sphere> spheres;
};

inline RandomSpheres random_spheres(std::size_t n, double spread, double phi, std::uint64_t seed,
                                    double large_fraction = 0) {
  std::mt19937_64 rng(seed);
  auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  std::vector<double> radii(n);
  double volume = 0;
  const auto large = static_cast<std::size_t>(std::ceil(large_fraction * static_cast<double>(n)));
  for (std::size_t i = 0; i < n; ++i) {
    double& r = radii[i];
    r = large_fraction > 0 ? (i < large ? spread : std::pow(1.5, unit())) : std::pow(spread, unit());
    volume += 4.0 / 3.0 * M_PI * r * r * r;
  }
  std::sort(radii.begin(), radii.end(), std::greater<>());
  const double side = std::max(std::cbrt(volume / phi), 4 * spread);
  const double cell = 2 * spread;
  const auto cells = static_cast<std::int64_t>(std::ceil(side / cell)) + 1;
  std::unordered_map<std::int64_t, std::vector<std::uint32_t>> grid;
  auto key = [&](std::int64_t i, std::int64_t j, std::int64_t k) { return (i * cells + j) * cells + k; };
  RandomSpheres out;
  out.box = Box3{{0, 0, 0}, {side, side, side}};
  out.spheres.reserve(n);
  for (double r : radii) {
    for (int attempt = 0;; ++attempt) {
      if (attempt > 100000) throw std::runtime_error("random_spheres: too dense to place the spheres");
      Sphere s;
      s.radius = r;
      for (int a = 0; a < 3; ++a) s.position[a] = r + (side - 2 * r) * unit();
      const auto ci = static_cast<std::int64_t>(s.position[0] / cell), cj = static_cast<std::int64_t>(s.position[1] / cell),
                 ck = static_cast<std::int64_t>(s.position[2] / cell);
      bool free = true;
      for (std::int64_t i = ci - 1; i <= ci + 1 && free; ++i)
        for (std::int64_t j = cj - 1; j <= cj + 1 && free; ++j)
          for (std::int64_t k = ck - 1; k <= ck + 1 && free; ++k) {
            const auto it = grid.find(key(i, j, k));
            if (it == grid.end()) continue;
            for (std::uint32_t o : it->second) {
              const Sphere& t = out.spheres[o];
              const double dx = s.position[0] - t.position[0], dy = s.position[1] - t.position[1],
                           dz = s.position[2] - t.position[2];
              const double reach = (s.radius + t.radius) * (1 + 1e-9);
              if (dx * dx + dy * dy + dz * dz <= reach * reach) {
                free = false;
                break;
              }
            }
          }
      if (!free) continue;
      for (int a = 0; a < 3; ++a) s.velocity[a] = 2 * unit() - 1;
      s.mass = r * r * r;
      grid[key(ci, cj, ck)].push_back(static_cast<std::uint32_t>(out.spheres.size()));
      out.spheres.push_back(s);
      break;
    }
  }
  return out;
}

}  // namespace kds::bench
