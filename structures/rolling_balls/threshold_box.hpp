#pragma once
/// \file
/// Threshold disks and threshold boxes (seed 003, section 2.1). At a node whose larger
/// half has smallest radius r_min, a ball B_j of the smaller half (r_j <= r_min) can touch
/// a ball B_i of the larger half only when its tangency point t_j lies in the threshold
/// disk of B_i: centre t_i, radius 2 sqrt(r_i r_min). (Two balls tangent to a plane touch
/// exactly when their tangency points are 2 sqrt(r_i r_j) apart.) The disk is replaced
/// by its axis-aligned bounding box, whose sides are x_i +- h and y_i +- h.
///
/// The half-width h is a double, and 2 sqrt(r_i r_min) rarely is, so h is rounded up and
/// checked in exact rationals: the box always contains the closed disk. It is also made
/// strictly larger (by a relative 2^-30): a tangency point at touching distance is then
/// strictly inside the box, so the sorted-list swap that lets it in always comes strictly
/// before the contact, never at the same instant (equal radii would otherwise put the
/// touching point on a side).

#include <cmath>
#include <limits>

#include "kds/number_types.hpp"

namespace kds {

/// Radius of the threshold disk of a ball of radius r at a node whose B_L has smallest
/// radius r_min, in doubles (for drawings and reports; the structure uses the box below).
inline double threshold_disk_radius(double r, double r_min) { return 2 * std::sqrt(r * r_min); }

/// Half-width of the threshold box: the smallest double at or above
/// 2 sqrt(r r_min) (1 + 2^-30), and certainly (in exact arithmetic) above 2 sqrt(r r_min).
inline double threshold_half_width(double r, double r_min) {
  double h = threshold_disk_radius(r, r_min) * (1 + 0x1p-30);
  const Rational four_r_rmin = Rational(4) * Rational(r) * Rational(r_min);
  while (!(Rational(h) * Rational(h) > four_r_rmin)) h = std::nextafter(h, std::numeric_limits<double>::infinity());
  return h;
}

}  // namespace kds
