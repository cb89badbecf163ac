#pragma once
/// \file
/// Random scenes of balls rolling on the floor of a box, for the rolling-marbles example
/// and the rolling-tree benchmark: radii log-uniform in [r_small, r_large], centres one
/// radius above the floor (tangent to it), horizontal velocities of uniform direction and
/// speed up to max_speed, masses of a uniform density. Placement by rejection with a cell
/// list (two balls on the floor touch at tangency distance 2 sqrt(r r'), at most
/// 2 r_large), so that 10^5 balls take a moment. The doubles come from the raw bits of
/// std::mt19937_64, so a seed gives the same scene on every platform.

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::examples {

struct RollingSceneSpec {
  std::size_t n = 60;
  double r_small = 1, r_large = 1;
  double max_speed = 1;
  double density = 1;  ///< mass = density * 4/3 pi r^3
};

/// Uniform in [0, 1) from 53 raw bits.
inline double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1p-53; }

/// `spec.n` balls without overlap on the floor z = table.lo.z of `table`, inside its x-y
/// extent. std::runtime_error if they do not fit.
inline std::vector<Sphere> scatter_rolling_balls(const RollingSceneSpec& spec, const Box3& table, std::uint64_t seed) {
  constexpr double pi = 3.141592653589793;
  std::mt19937_64 rng(seed);
  const double cell = 2 * spec.r_large;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> grid;
  auto key = [](std::int64_t i, std::int64_t j) {
    return (static_cast<std::uint64_t>(i) << 32) ^ static_cast<std::uint64_t>(j);
  };
  std::vector<Sphere> balls;
  balls.reserve(spec.n);
  for (std::size_t tries = 0; balls.size() < spec.n; ++tries) {
    if (tries > 10000 * (spec.n + 10))
      throw std::runtime_error("the table is too small for " + std::to_string(spec.n) + " balls");
    const double r = spec.r_small * std::pow(spec.r_large / spec.r_small, unit(rng));
    const double x = table.lo[0] + r + (table.hi[0] - table.lo[0] - 2 * r) * unit(rng);
    const double y = table.lo[1] + r + (table.hi[1] - table.lo[1] - 2 * r) * unit(rng);
    const auto ci = static_cast<std::int64_t>(std::floor(x / cell)), cj = static_cast<std::int64_t>(std::floor(y / cell));
    bool free = true;
    for (std::int64_t di = -1; di <= 1 && free; ++di)
      for (std::int64_t dj = -1; dj <= 1 && free; ++dj) {
        const auto it = grid.find(key(ci + di, cj + dj));
        if (it == grid.end()) continue;
        for (std::uint32_t o : it->second) {
          const Sphere& b = balls[o];
          free = free && std::hypot(x - b.position[0], y - b.position[1]) > 2 * std::sqrt(r * b.radius) * 1.001;
        }
      }
    if (!free) continue;
    const double speed = spec.max_speed * unit(rng), angle = 2 * pi * unit(rng);
    Sphere b;
    b.position = {x, y, table.lo[2] + r};  // tangent to the floor
    b.velocity = {speed * std::cos(angle), speed * std::sin(angle), 0};
    b.radius = r;
    b.mass = spec.density * 4.0 / 3.0 * pi * r * r * r;
    grid[key(ci, cj)].push_back(static_cast<std::uint32_t>(balls.size()));
    balls.push_back(b);
  }
  return balls;
}

}  // namespace kds::examples
