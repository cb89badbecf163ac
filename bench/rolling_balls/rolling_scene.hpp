#pragma once
/// \file
/// Random scenes of balls rolling on a square table for the rolling-tree benchmark: radii
/// log-uniform in [1, spread], centres at height r on the floor z = 0, horizontal
/// velocities uniform in [-1, 1]^2, the table's side chosen for a given area fraction
/// (sum of pi r^2 over the table's area). Placement by rejection with a cell list, so that
/// 10^5 balls take a moment, not an hour.

#include <cmath>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::bench {

struct RollingScene {
  Box3 box;
  std::vector<Sphere> balls;
};

inline RollingScene rolling_scene(std::size_t n, double spread, double area_fraction, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> radii(n);
  double area = 0;
  for (double& r : radii) {
    r = std::pow(spread, u(rng));
    area += 3.141592653589793 * r * r;
  }
  const double side = std::sqrt(area / area_fraction);
  RollingScene s;
  s.box = Box3{{0, 0, 0}, {side, side, 2 * spread + 1}};
  // Two balls touch at tangency distance 2 sqrt(r_i r_j) <= 2 * spread: cells of that side.
  const double cell = 2 * spread;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> grid;
  auto key = [](std::int64_t i, std::int64_t j) { return (static_cast<std::uint64_t>(i) << 32) ^ static_cast<std::uint64_t>(j); };
  for (std::size_t k = 0; k < n; ++k) {
    const double r = radii[k];
    for (int attempt = 0;; ++attempt) {
      if (attempt > 100000) throw std::runtime_error("rolling_scene: too dense to place the balls");
      const double x = r + (side - 2 * r) * u(rng), y = r + (side - 2 * r) * u(rng);
      const auto ci = static_cast<std::int64_t>(x / cell), cj = static_cast<std::int64_t>(y / cell);
      bool ok = true;
      for (std::int64_t di = -1; di <= 1 && ok; ++di)
        for (std::int64_t dj = -1; dj <= 1 && ok; ++dj) {
          auto it = grid.find(key(ci + di, cj + dj));
          if (it == grid.end()) continue;
          for (std::uint32_t o : it->second) {
            const Sphere& b = s.balls[o];
            if (std::hypot(x - b.position[0], y - b.position[1]) <= 2 * std::sqrt(r * b.radius) * (1 + 1e-9)) {
              ok = false;
              break;
            }
          }
        }
      if (!ok) continue;
      Sphere b;
      b.position = {x, y, r};
      b.velocity = {2 * u(rng) - 1, 2 * u(rng) - 1, 0};
      b.radius = r;
      b.mass = r * r * r;
      grid[key(ci, cj)].push_back(static_cast<std::uint32_t>(s.balls.size()));
      s.balls.push_back(b);
      break;
    }
  }
  return s;
}

}  // namespace kds::bench
