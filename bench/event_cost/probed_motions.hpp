#pragma once
/// \file
/// The bridge from kds's unknown trajectories to the plain unknown-trajectory code
/// (bench/baselines/bound_spheres.hpp), which uses no kds type: kds's probe behind the
/// plain code's `TrueMotions`, and kds's spheres as its balls. The benchmark and the plain
/// code's test both hand it the scene this way, so that both codes see the same forces.

#include <cstdint>
#include <vector>

#include "bench/baselines/bound_spheres.hpp"
#include "structures/collision/sphere.hpp"
#include "structures/collision/trajectory_probe.hpp"

namespace kds::bench {

/// A kds probe as the plain code asks for its trajectories.
class ProbedMotions final : public baseline::TrueMotions {
 public:
  explicit ProbedMotions(TrajectoryProbe& probe) : probe_(&probe) {}
  void state(std::uint32_t sphere, double t, baseline::Vec3& position, baseline::Vec3& velocity) override {
    const SphereState s = probe_->state(sphere, t);
    position = s.position;
    velocity = s.velocity;
  }
  void set_velocity(std::uint32_t sphere, double t, const baseline::Vec3& velocity) override {
    probe_->set_velocity(sphere, t, velocity);
  }

 private:
  TrajectoryProbe* probe_;
};

/// kds's spheres as the plain code's balls (same order: sphere i is ball i).
inline std::vector<baseline::BoundBall> bound_balls_of(const std::vector<Sphere>& spheres) {
  std::vector<baseline::BoundBall> balls;
  balls.reserve(spheres.size());
  for (const Sphere& s : spheres)
    balls.push_back(baseline::BoundBall{s.position, s.velocity, s.radius, s.mass, s.max_acceleration});
  return balls;
}

}  // namespace kds::bench
