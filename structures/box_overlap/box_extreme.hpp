#pragma once
/// \file
/// The extremes of the boxes that kinetic box overlap keeps sorted: on every axis, each
/// sphere has a low extreme x - h and a high extreme x + h, two keys of one sorted list
/// (Key::coordinate with offsets -h and +h over the sphere's body).
///
/// The half width h is the sphere's radius grown by the world's contact tolerance, so
/// that two spheres whose boxes are apart are at least twice the tolerance apart on that
/// axis: two balls can only touch once their boxes overlap with room to spare, and the
/// swap that makes them candidates is always strictly earlier than their contact (never
/// a simultaneous event whose order would matter).

#include <cmath>
#include <cstdint>
#include <limits>

#include "structures/collision/sphere.hpp"

namespace kds {

/// What an entry of a box-extreme list stands for.
struct BoxExtreme {
  SphereId sphere = no_sphere;
  bool high = false;  ///< x + h (else x - h)
};

/// r + tolerance, rounded so that it is strictly above r (the box contains the sphere
/// with a positive margin even when the tolerance is below half an ulp of r).
inline double box_half_width(double radius, double tolerance) {
  const double h = radius + tolerance;
  return h > radius ? h : std::nextafter(radius, std::numeric_limits<double>::infinity());
}

}  // namespace kds
