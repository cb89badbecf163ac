#pragma once
// What the degenerate and grazing tests of guards and cones share: the world's settings
// (a power-of-two contact tolerance) and the audited run beside all-pairs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "collision_world_support.hpp"

namespace kds::testing {

/// A power of two, so that box extremes are exact sums.
inline constexpr double kGuardsTolerance = 0x1p-20;

inline CollisionWorldSettings guards_settings(double box = 100, const std::string& broad_phase = "guards-cones") {
  auto s = world_settings(cube(box), broad_phase);
  s.contact_tolerance = kGuardsTolerance;
  return s;
}

/// `big` and up to `count` balls of radius 0.05 grazing it at t = 1 from random directions
/// (each at depth 0 or 1e-3 i below tangency, moving orthogonally to the radius there),
/// those that start clear of the others. Shared by both variants' grazing tests.
inline std::vector<Sphere> grazing_ring(const Sphere& big, std::mt19937_64& rng, int count) {
  std::vector<Sphere> ring{big};
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < count; ++i) {
    Vec<3> u{nd(rng), nd(rng), nd(rng)};
    const double l = norm3(u);
    for (double& x : u) x /= l;
    Vec<3> v{nd(rng), nd(rng), nd(rng)};
    const double along = dot3(v, u);
    for (int k = 0; k < 3; ++k) v[k] -= along * u[k];
    const double depth = i % 3 == 0 ? 0 : 1e-3 * i;
    Vec<3> p;
    for (int k = 0; k < 3; ++k) p[k] = big.position[k] + (big.radius + 0.05 - depth) * u[k] - v[k];
    bool free = true;
    for (const Sphere& o : ring)
      free = free && norm3({p[0] - o.position[0], p[1] - o.position[1], p[2] - o.position[2]}) >
                         o.radius + (o.radius > 1 ? 0.06 : 0.2);
    if (free) ring.push_back(ball(p, v, 0.05, 0.01));
  }
  return ring;
}

/// Guards-cones (or another broad phase) audited after every event, and all-pairs: the
/// same contacts; returns them.
inline std::vector<Contact> guards_twins(const std::vector<Sphere>& spheres, double t_end, double box = 100,
                                         const std::string& broad_phase = "guards-cones") {
  SimulatorSettings audited;
  audited.audit = true;
  TwinResult r;
  EXPECT_NO_THROW(r = run_twins(spheres, guards_settings(box, broad_phase), t_end, audited, broad_phase));
  EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
  return r.tested;
}

}  // namespace kds::testing
