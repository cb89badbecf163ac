#pragma once
/// \file
/// Collision response: the impulse along the line of centres between two spheres with
/// masses ("Pool Hall Lessons", seed 001), with an optional coefficient of restitution,
/// and the reflection of a sphere off a box wall.

#include <array>
#include <cmath>
#include <utility>

#include "kds/motion.hpp"
#include "structures/collision/wall.hpp"

namespace kds {

/// New velocities of spheres a and b in contact at positions xa, xb. The impulse acts
/// along n = (xb - xa) / |xb - xa|; only an approaching pair (relative normal velocity
/// (va - vb) . n > 0) is changed. restitution = 1 is elastic: kinetic energy and momentum
/// are kept; restitution in [0, 1) loses energy.
inline std::pair<Vec<3>, Vec<3>> collision_response(const Vec<3>& xa, const Vec<3>& va, double ma, const Vec<3>& xb,
                                                    const Vec<3>& vb, double mb, double restitution = 1.0) {
  Vec<3> n{xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
  const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(len > 0)) return {va, vb};
  for (double& c : n) c /= len;
  const double approach = (va[0] - vb[0]) * n[0] + (va[1] - vb[1]) * n[1] + (va[2] - vb[2]) * n[2];
  if (approach <= 0) return {va, vb};
  // The impulse J = (1 + e) * approach / (1/ma + 1/mb), written with masses as in 001.
  const double p = (1.0 + restitution) * approach / (ma + mb);
  Vec<3> ua = va, ub = vb;
  for (int k = 0; k < 3; ++k) {
    ua[k] -= p * mb * n[k];
    ub[k] += p * ma * n[k];
  }
  return {ua, ub};
}

/// Where a sphere of radius r touches the plane of a wall without crossing it, exactly:
/// the smallest double x with x - r >= plane for a low wall, the largest with
/// x + r <= plane for a high one. After a bounce at a rounded time the sphere is put there
/// if it went beyond (CollisionWorld::separate).
inline double touching_coordinate(double plane, double r, bool low) {
  const double b = low ? r : -r;
  const double x = plane + b;
  // The rounding error of that sum, exactly (Knuth's two-sum): plane + b = x + err.
  const double bv = x - plane, av = x - bv;
  const double err = (plane - av) + (b - bv);
  if (low && err > 0) return std::nextafter(x, HUGE_VAL);
  if (!low && err < 0) return std::nextafter(x, -HUGE_VAL);
  return x;
}

/// Moves two spheres that overlap (centres closer than ra + rb) apart until they touch,
/// each by a share inverse to its mass (the centre of mass stays). After a response at a
/// rounded time the pair overlaps by the distance it approached during the rounding; up
/// to the rounding of this arithmetic, it is gone. Only the axes in `movable` change: an
/// axis in which neither sphere moves (balls rolling on a plane have no vertical motion)
/// keeps its coordinates exactly, and the centres part along the projection of the line
/// of centres onto the other axes. With every axis movable, that is the line of centres.
inline void separate_pair(Vec<3>& xa, double ra, double ma, Vec<3>& xb, double rb, double mb,
                          const std::array<bool, 3>& movable = {true, true, true}) {
  const Vec<3> d{xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
  double free2 = 0, fixed2 = 0;
  for (int k = 0; k < 3; ++k) (movable[k] ? free2 : fixed2) += d[k] * d[k];
  const double reach = (ra + rb) * (ra + rb) - fixed2;  // what the movable axes must span, squared
  const double len = std::sqrt(free2);
  if (!(reach > 0 && len > 0)) return;
  const double overlap = std::sqrt(reach) - len;
  if (!(overlap > 0)) return;
  const double wa = mb / (ma + mb), wb = ma / (ma + mb);
  for (int k = 0; k < 3; ++k) {
    if (!movable[k]) continue;
    xa[k] -= overlap * wa * d[k] / len;
    xb[k] += overlap * wb * d[k] / len;
  }
}

/// The velocity after bouncing off wall w: the normal component is reversed (scaled by
/// the restitution) if the sphere moves into the wall, else unchanged.
inline Vec<3> wall_response(Wall w, const Vec<3>& v, double restitution = 1.0) {
  Vec<3> u = v;
  const int k = wall_axis(w);
  const bool into = wall_is_low(w) ? v[k] < 0 : v[k] > 0;
  if (into) u[k] = -restitution * v[k];
  return u;
}

}  // namespace kds
