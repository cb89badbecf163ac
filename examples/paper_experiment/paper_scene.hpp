#pragma once
/// \file
/// The scene of Kim, Guibas and Shin's experiments (seed 000, section 4.2): n spheres in
/// a 200^3 box, radii uniform in [0.1, 10], initial speeds uniform in
/// [2.5 sqrt(3), 25 sqrt(3)] in random directions, acceleration bounds uniform in
/// [10, 20]. Shared by examples/paper_experiment and bench/tvb_grid, so that the
/// benchmark measures exactly the scene the README demo shows.
///
/// The same seed gives the same scene on every platform: the doubles come from the raw
/// bits of std::mt19937_64, not from a std distribution whose algorithm the standard
/// leaves open.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::paper {

struct PaperScene {
  std::size_t n = 1000;
  std::uint64_t seed = 1;
  /// Side of the cubic box; the paper's is 200. bench/tvb_grid grows it with n beyond
  /// 1000 spheres to keep the volume fraction of the paper's n = 1000 scene (about 13%).
  double box_side = 200;
  double radius_min = 0.1, radius_max = 10;
  double speed_min = 2.5 * std::sqrt(3.0), speed_max = 25 * std::sqrt(3.0);
  double acceleration_min = 10, acceleration_max = 20;
  /// A = 0 for every sphere: known straight-line motions (the ballistic variant).
  bool ballistic = false;
};

/// The side of a box holding n paper spheres at the volume fraction of n = 1000 in 200^3.
inline double box_side_at_paper_density(std::size_t n) {
  return std::max(200.0, 200.0 * std::cbrt(static_cast<double>(n) / 1000.0));
}

inline Box3 cube(double side) { return Box3{{0, 0, 0}, {side, side, side}}; }

namespace detail {

/// Uniform in [0, 1).
inline double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
inline double uniform(std::mt19937_64& rng, double lo, double hi) { return lo + (hi - lo) * unit(rng); }

/// A uniformly random unit vector (rejection from the cube to the ball).
inline Vec<3> direction(std::mt19937_64& rng) {
  for (;;) {
    Vec<3> u{2 * unit(rng) - 1, 2 * unit(rng) - 1, 2 * unit(rng) - 1};
    const double n2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    if (n2 > 1e-6 && n2 <= 1) {
      const double n = std::sqrt(n2);
      return {u[0] / n, u[1] / n, u[2] / n};
    }
  }
}

/// Spheres already placed, bucketed by a uniform grid of cell side 2 radius_max, so that
/// a candidate is tested against the 27 cells around it only.
class Placement {
 public:
  Placement(double cell, const std::vector<Sphere>& placed) : cell_(cell), placed_(placed) {}
  bool free(const Vec<3>& x, double r) const {
    const auto c = cell_of(x);
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          auto it = cells_.find(key(c[0] + dx, c[1] + dy, c[2] + dz));
          if (it == cells_.end()) continue;
          for (std::uint32_t j : it->second) {
            const Sphere& s = placed_[j];
            double d2 = 0;
            for (int k = 0; k < 3; ++k) d2 += (s.position[k] - x[k]) * (s.position[k] - x[k]);
            // A relative margin, so that rounding cannot turn a near-miss into an overlap
            // that the world's exact validation would refuse.
            const double R = (s.radius + r) * (1 + 1e-9);
            if (d2 < R * R) return false;
          }
        }
    return true;
  }
  void add(std::uint32_t id) { cells_[key(cell_of(placed_[id].position))].push_back(id); }

 private:
  std::array<std::int64_t, 3> cell_of(const Vec<3>& x) const {
    return {static_cast<std::int64_t>(std::floor(x[0] / cell_)), static_cast<std::int64_t>(std::floor(x[1] / cell_)),
            static_cast<std::int64_t>(std::floor(x[2] / cell_))};
  }
  static std::uint64_t key(std::int64_t x, std::int64_t y, std::int64_t z) {
    return (static_cast<std::uint64_t>(x & 0x1FFFFF) << 42) | (static_cast<std::uint64_t>(y & 0x1FFFFF) << 21) |
           static_cast<std::uint64_t>(z & 0x1FFFFF);
  }
  static std::uint64_t key(const std::array<std::int64_t, 3>& c) { return key(c[0], c[1], c[2]); }

  double cell_;
  const std::vector<Sphere>& placed_;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> cells_;
};

}  // namespace detail

/// The spheres of the scene, placed at random without overlap: largest first (random
/// sequential addition fills up from the big spheres; small ones find room in the gaps),
/// then renumbered in a random order so that sphere ids say nothing about size. The mass
/// is the volume (unit density). Throws std::runtime_error if the box is too full to place
/// a sphere in a million tries.
inline std::vector<Sphere> paper_spheres(const PaperScene& scene) {
  std::mt19937_64 rng(scene.seed);
  std::vector<Sphere> spheres(scene.n);
  for (Sphere& s : spheres) {
    s.radius = detail::uniform(rng, scene.radius_min, scene.radius_max);
    s.mass = s.radius * s.radius * s.radius;
    const double speed = detail::uniform(rng, scene.speed_min, scene.speed_max);
    const Vec<3> d = detail::direction(rng);
    s.velocity = {speed * d[0], speed * d[1], speed * d[2]};
    s.max_acceleration = scene.ballistic ? 0.0 : detail::uniform(rng, scene.acceleration_min, scene.acceleration_max);
  }
  std::sort(spheres.begin(), spheres.end(), [](const Sphere& a, const Sphere& b) { return a.radius > b.radius; });
  detail::Placement placement(2 * scene.radius_max, spheres);
  for (std::uint32_t i = 0; i < spheres.size(); ++i) {
    Sphere& s = spheres[i];
    bool placed = false;
    for (int attempt = 0; attempt < 1'000'000 && !placed; ++attempt) {
      for (int k = 0; k < 3; ++k) s.position[k] = detail::uniform(rng, s.radius, scene.box_side - s.radius);
      placed = placement.free(s.position, s.radius);
    }
    if (!placed)
      throw std::runtime_error("paper scene: no room for sphere " + std::to_string(i) + " of " + std::to_string(scene.n) +
                               " (radius " + std::to_string(s.radius) + ") in a box of side " +
                               std::to_string(scene.box_side));
    placement.add(i);
  }
  std::vector<std::uint32_t> order(spheres.size());
  std::iota(order.begin(), order.end(), 0u);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  std::vector<Sphere> shuffled;
  shuffled.reserve(spheres.size());
  for (std::uint32_t j : order) shuffled.push_back(spheres[j]);
  return shuffled;
}

/// The sum of the spheres' volumes over the box's volume.
inline double volume_fraction(const std::vector<Sphere>& spheres, const Box3& box) {
  double v = 0;
  for (const Sphere& s : spheres) v += 4.0 / 3.0 * M_PI * s.radius * s.radius * s.radius;
  return v / ((box.hi[0] - box.lo[0]) * (box.hi[1] - box.lo[1]) * (box.hi[2] - box.lo[2]));
}

}  // namespace kds::paper
