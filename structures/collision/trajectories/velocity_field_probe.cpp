#include "structures/collision/trajectories/velocity_field_probe.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "kds/errors.hpp"

namespace kds {

Vec<3> circulation_velocity(const CirculationField& f, const Vec<3>& x) {
  const double pi = std::numbers::pi;
  const double cx = 0.5 * (f.box.lo[0] + f.box.hi[0]), cy = 0.5 * (f.box.lo[1] + f.box.hi[1]);
  const double radius = 0.5 * std::min(f.box.hi[0] - f.box.lo[0], f.box.hi[1] - f.box.lo[1]);
  const double height = f.box.hi[2] - f.box.lo[2];
  const double dx = x[0] - cx, dy = x[1] - cy;
  const double rho = std::hypot(dx, dy);
  const double q = std::min(rho / radius, 1.0);
  const double z = std::clamp((x[2] - f.box.lo[2]) / height, 0.0, 1.0);
  const double up = f.speed * std::cos(pi * q) * std::sin(pi * z);
  const double out = -f.speed * (radius / height) * std::sin(pi * q) * std::cos(pi * z);
  if (rho == 0) return {0, 0, up};
  return {out * dx / rho, out * dy / rho, up};
}

VelocityFieldProbe::VelocityFieldProbe(const std::vector<Sphere>& spheres, const CirculationField& field,
                                       double piece_length, double rate, double start)
    : PiecewiseProbe(spheres, piece_length, start), field_(field), rate_(rate) {
  if (!(rate > 0) || !std::isfinite(rate)) throw InvalidInput("velocity field probe: rate must be positive and finite");
  for (int k = 0; k < 3; ++k)
    if (!(field.box.lo[k] < field.box.hi[k])) throw InvalidInput("velocity field probe: the box is empty");
  for (const Sphere& s : spheres) bound_.push_back(s.max_acceleration);
}

Vec<3> VelocityFieldProbe::acceleration(SphereId sphere, std::uint64_t, double, const SphereState& s) {
  const Vec<3> u = circulation_velocity(field_, s.position);
  Vec<3> a{};
  for (int k = 0; k < 3; ++k) a[k] = rate_ * (u[k] - s.velocity[k]);
  const double norm = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  // Clamp with a margin of 1e-12 so that rounding cannot lift |a| above the bound.
  const double limit = bound_[sphere] * (1 - 1e-12);
  if (norm > limit) {
    const double scale = limit / norm;
    for (double& c : a) c *= scale;
  }
  return a;
}

}  // namespace kds
