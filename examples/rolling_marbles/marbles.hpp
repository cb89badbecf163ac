#pragma once
/// \file
/// The rolling-marbles scene: marbles of mixed sizes (radii log-uniform from 6 mm to 25 mm,
/// masses proportional to r^3) resting on a table with cushions (the box walls), each
/// rolling at up to 1 m/s. Seeded, so a run can be replayed.

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::marbles {

struct Scene {
  Box3 table;
  std::vector<Sphere> marbles;
};

inline Scene scatter(std::size_t n, double length, double width, std::uint64_t seed) {
  constexpr double r_small = 0.006, r_large = 0.025;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Scene s;
  s.table = Box3{{0, 0, 0}, {length, width, 2 * r_large}};
  for (std::size_t tries = 0; s.marbles.size() < n; ++tries) {
    if (tries > 10000 * n) throw std::runtime_error("the table is too small for " + std::to_string(n) + " marbles");
    const double r = r_small * std::pow(r_large / r_small, u(rng));
    const double x = r + (length - 2 * r) * u(rng), y = r + (width - 2 * r) * u(rng);
    bool free = true;
    for (const Sphere& m : s.marbles)  // resting balls touch at tangency distance 2 sqrt(r r')
      free = free && std::hypot(x - m.position[0], y - m.position[1]) > 2 * std::sqrt(r * m.radius) * 1.001;
    if (!free) continue;
    const double speed = u(rng), angle = 2 * 3.141592653589793 * u(rng);
    Sphere m;
    m.position = {x, y, r};  // on the table: the centre exactly one radius above it
    m.velocity = {speed * std::cos(angle), speed * std::sin(angle), 0};
    m.radius = r;
    m.mass = 2500 * 4.18879 * r * r * r;  // glass, kg
    s.marbles.push_back(m);
  }
  return s;
}

}  // namespace kds::marbles
