#pragma once
/// \file
/// A collision response that keeps rolling balls on their plane.
///
/// Two balls of different radii resting on a plane have their centres at different
/// heights, so the line of centres at a contact has a vertical part, and the world's
/// default response (an impulse along that line, response.hpp) would give them vertical
/// velocities: they would leave the plane (the rolling tree refuses that, naming the
/// ball). Here the impulse acts along the line of centres projected into the plane z =
/// const: the horizontal unit vector n from a's centre towards b's. Both velocities stay
/// horizontal; planar momentum is kept, and with restitution 1 so is kinetic energy (the
/// impulse is the elastic one of 001 along n). The pair is left not approaching along n,
/// hence not along the 3D line of centres either (whose horizontal part is n, scaled).

#include <cmath>
#include <utility>

#include "kds/motion.hpp"
#include "structures/collision/collision_world.hpp"

namespace kds {

/// New velocities of balls a and b (centres xa, xb, masses ma, mb) after a contact: the
/// impulse along the horizontal direction from xa to xb; only an approaching pair changes.
inline std::pair<Vec<3>, Vec<3>> planar_collision_response(const Vec<3>& xa, const Vec<3>& va, double ma,
                                                           const Vec<3>& xb, const Vec<3>& vb, double mb,
                                                           double restitution = 1.0) {
  const double nx = xb[0] - xa[0], ny = xb[1] - xa[1];
  const double len = std::hypot(nx, ny);
  if (!(len > 0)) return {va, vb};
  const double ux = nx / len, uy = ny / len;
  const double approach = (va[0] - vb[0]) * ux + (va[1] - vb[1]) * uy;
  if (approach <= 0) return {va, vb};
  const double p = (1.0 + restitution) * approach / (ma + mb);
  Vec<3> a = va, b = vb;
  a[0] -= p * mb * ux;
  a[1] -= p * mb * uy;
  b[0] += p * ma * ux;
  b[1] += p * ma * uy;
  return {a, b};
}

/// Makes `world` answer ball contacts with planar_collision_response (its masses and
/// restitution). Walls need nothing: the x and y walls reflect a horizontal component.
inline void use_planar_response(CollisionWorld& world) {
  world.set_pair_response([&world](const Contact& c, SphereState& a, SphereState& b) {
    auto [va, vb] = planar_collision_response(a.position, a.velocity, world.sphere(c.a).mass, b.position, b.velocity,
                                              world.sphere(c.b).mass, world.settings().restitution);
    a.velocity = va;
    b.velocity = vb;
  });
}

}  // namespace kds
