#pragma once
/// \file
/// The asteroid field of the guards-and-cones example and `kds generate asteroid-field`:
/// a few large bodies (radius `large_radius`) on a lattice, each with a swarm of small
/// bodies (radii log-uniform in [small_radius, 1.5 small_radius]) around it at distances
/// from touching to sqrt(3) times its radius (inside its bounding box, the region where
/// box overlap pairs every small body with the large one), falling towards it at speeds up
/// to `speed` with a random sideways part. With the defaults the radii span three orders
/// of magnitude (200 against 0.2). Ballistic, masses proportional to volume. Placement by
/// rejection; the doubles come from the raw bits of std::mt19937_64, so a seed gives the
/// same field on every platform.

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::examples {

struct AsteroidFieldSpec {
  std::size_t large = 2;       ///< large bodies, on a row along x
  std::size_t small = 60;      ///< small bodies in all, shared out among the large ones
  double large_radius = 200;
  double small_radius = 0.2;   ///< smallest radius of a small body
  double speed = 20;           ///< largest speed of a small body
};

struct AsteroidField {
  Box3 box;
  std::vector<Sphere> spheres;  ///< the large bodies first
};

inline AsteroidField asteroid_field(const AsteroidFieldSpec& spec, std::uint64_t seed) {
  if (spec.large < 1 || !(spec.large_radius > 0) || !(spec.small_radius > 0) ||
      !(spec.small_radius * 1.5 < spec.large_radius) || !(spec.speed >= 0))
    throw std::invalid_argument("asteroid_field: needs at least one large body, positive radii with "
                                "1.5 small_radius < large_radius, and a speed >= 0");
  std::mt19937_64 rng(seed);
  auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  const double R = spec.large_radius, spacing = 4 * R;
  AsteroidField f;
  f.box = Box3{{0, 0, 0}, {spacing * static_cast<double>(spec.large), spacing, spacing}};
  for (std::size_t i = 0; i < spec.large; ++i) {
    Sphere s;
    s.position = {spacing * (static_cast<double>(i) + 0.5), spacing / 2, spacing / 2};
    s.radius = R;
    s.mass = R * R * R;
    f.spheres.push_back(s);
  }
  for (std::size_t k = 0; k < spec.small; ++k) {
    const Sphere& big = f.spheres[k % spec.large];
    for (int attempt = 0;; ++attempt) {
      if (attempt > 100000) throw std::runtime_error("asteroid_field: too dense to place the small bodies");
      Sphere s;
      s.radius = spec.small_radius * std::pow(1.5, unit());
      // A point of the box around the large body, outside it, within sqrt(3) R of its centre.
      Vec<3> d;
      for (double& x : d) x = (2 * unit() - 1) * R;
      const double dist = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      if (dist <= R + s.radius) continue;
      for (int a = 0; a < 3; ++a) s.position[a] = big.position[a] + d[a];
      bool free = true;
      for (std::size_t j = spec.large; j < f.spheres.size() && free; ++j) {
        const Sphere& o = f.spheres[j];
        const double dx = s.position[0] - o.position[0], dy = s.position[1] - o.position[1],
                     dz = s.position[2] - o.position[2];
        const double reach = (s.radius + o.radius) * (1 + 1e-9);
        free = dx * dx + dy * dy + dz * dz > reach * reach;
      }
      if (!free) continue;
      // Falling towards the large body, with a sideways part.
      const double v = spec.speed * unit();
      for (int a = 0; a < 3; ++a) s.velocity[a] = v * (-d[a] / dist + 0.5 * (2 * unit() - 1));
      s.mass = s.radius * s.radius * s.radius;
      f.spheres.push_back(s);
      break;
    }
  }
  return f;
}

}  // namespace kds::examples
