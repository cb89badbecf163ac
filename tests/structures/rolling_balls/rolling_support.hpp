#pragma once
// Helpers of the rolling-ball tests: random scenes of balls on the floor z = 0, and the
// same scene run with a rolling tree and with the all-pairs reference, both with the
// planar response.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "collision_world_support.hpp"
#include "structures/rolling_balls/planar_response.hpp"
#include "structures/rolling_balls/rolling_tree.hpp"

namespace kds::testing {

/// A ball resting on the floor z = 0 at (x, y), moving with (vx, vy).
inline Sphere rolling_ball(double x, double y, double vx, double vy, double r = 1, double m = 1) {
  return ball({x, y, r}, {vx, vy, 0}, r, m);
}

/// A table [0, side]^2, tall enough for every ball.
inline Box3 table(double side, double height = 1000) { return Box3{{0, 0, 0}, {side, side, height}}; }

struct RollingSpec {
  int n = 50;
  double side = 100;
  double r_min = 1, r_max = 1;  ///< radii log-uniform in [r_min, r_max]
  double speed = 10;            ///< each velocity component uniform in [-speed, speed]
  double mass_min = 1, mass_max = 1;
};

/// Non-overlapping balls on the floor (tangency points at least 2 sqrt(r_i r_j) apart,
/// with a margin), placed by rejection sampling.
inline std::vector<Sphere> random_rolling_scene(std::mt19937_64& rng, const RollingSpec& spec) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Sphere> s;
  int attempts = 0;
  while (static_cast<int>(s.size()) < spec.n) {
    if (++attempts > 1000 * spec.n) throw std::runtime_error("random_rolling_scene: too dense");
    const double r = spec.r_min * std::pow(spec.r_max / spec.r_min, u(rng));
    const double x = r + (spec.side - 2 * r) * u(rng), y = r + (spec.side - 2 * r) * u(rng);
    bool ok = true;
    for (const Sphere& o : s)
      if (std::hypot(x - o.position[0], y - o.position[1]) <= 2 * std::sqrt(r * o.radius) * (1 + 1e-9)) ok = false;
    if (!ok) continue;
    const double m = spec.mass_min + (spec.mass_max - spec.mass_min) * u(rng);
    s.push_back(rolling_ball(x, y, spec.speed * (2 * u(rng) - 1), spec.speed * (2 * u(rng) - 1), r, m));
  }
  return s;
}

/// A world with the planar response, run to t_end; its contacts.
struct RollingRun : WorldRun {
  RollingRun(const std::vector<Sphere>& balls, const CollisionWorldSettings& settings, SimulatorSettings sim = {})
      : WorldRun(balls, settings, sim) {
    use_planar_response(*world);
  }
  const RollingTree& tree() const { return dynamic_cast<const RollingTree&>(world->broad_phase()); }
};

inline TwinResult run_rolling_twins(const std::vector<Sphere>& balls, const Box3& box, const std::string& broad_phase,
                                    double t_end, SimulatorSettings sim = {}, double restitution = 1.0,
                                    Vec<3> gravity = {0, 0, 0}) {
  return run_twins(balls, world_settings(box, broad_phase, restitution, gravity), t_end, sim, broad_phase,
                   [](CollisionWorld& w) { use_planar_response(w); });
}

inline std::size_t pair_contacts(const std::vector<Contact>& c) {
  std::size_t k = 0;
  for (const Contact& x : c) k += !x.with_wall;
  return k;
}

/// Both layouts of the tree.
inline const std::vector<std::string>& rolling_layouts() {
  static const std::vector<std::string> names{"rolling-tree", "rolling-tree-global"};
  return names;
}

}  // namespace kds::testing
