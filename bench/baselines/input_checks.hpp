#pragma once
/// \file
/// What the plain codes share: a dot product and the checks of their input, which throw
/// std::invalid_argument naming the sphere and the problem.

#include <cmath>
#include <stdexcept>
#include <string>

#include "bench/baselines/cell_list_spheres.hpp"

namespace kds::baseline {

inline double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

[[noreturn]] inline void reject(std::size_t i, const std::string& problem) {
  throw std::invalid_argument("sphere " + std::to_string(i) + ": " + problem);
}

inline void check_finite(std::size_t i, const char* field, const Vec3& v) {
  for (double c : v)
    if (!std::isfinite(c)) reject(i, std::string(field) + " must be finite");
}

/// A finite position and velocity, a positive finite radius and mass, inside [lo, hi].
inline void check_ball(std::size_t i, const Vec3& position, const Vec3& velocity, double radius, double mass,
                       const Vec3& lo, const Vec3& hi) {
  check_finite(i, "position", position);
  check_finite(i, "velocity", velocity);
  if (!(radius > 0) || !std::isfinite(radius)) reject(i, "radius must be positive and finite");
  if (!(mass > 0) || !std::isfinite(mass)) reject(i, "mass must be positive and finite");
  for (int k = 0; k < 3; ++k)
    if (!(position[k] - radius >= lo[k] && position[k] + radius <= hi[k])) reject(i, "not inside the box");
}

}  // namespace kds::baseline
