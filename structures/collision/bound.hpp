#pragma once
/// \file
/// The time-varying bound of a sphere (Kim, Guibas, Shin, eqs. 3-6): a sphere whose
/// centre moves as the last probed state predicts and whose radius grows with the
/// acceleration bound A,
///     centre(t) = x(t0) + v(t0) (t - t0),   radius(t) = r + A/2 (t - t0)^2,
/// so that the real sphere stays inside it whatever it does with |a| <= A (eq. 2).
/// A ballistic sphere is the special case A = 0 with its exact motion as the centre
/// (gravity included): the bound is then the sphere itself.
///
/// The centre is the motion of the sphere's body (kds/bodies.hpp), shared with every
/// structure watching it; the bound adds the radius and when it was last reset. The
/// world keeps one bound per sphere whatever its broad phase: pair and wall
/// certificates are written over bounds, and a broad phase reads them (the grid's cell
/// faces) but never changes them.

#include <cmath>

#include "kds/motion.hpp"
#include "structures/collision/sphere.hpp"

namespace kds {

struct Bound {
  double radius = 0;          ///< r, the sphere's own radius
  double acceleration = 0;    ///< A; 0 for a ballistic sphere
  double reset_time = 0;      ///< t0: when the bound was last made equal to the sphere

  /// r + A/2 (t - t0)^2 as a polynomial in s = t - origin: a Polynomial<NT>, or a
  /// ShortPolynomial<NT> (certificates/short_polynomial.hpp) with the same coefficients.
  template <class NT, class P = Polynomial<NT>>
  P radius_polynomial(double origin) const {
    if (acceleration == 0) return P(NT(radius));
    const NT h = NT(NT(origin) - NT(reset_time));  // t - t0 = s + h
    const NT half_a = NT(NT(acceleration) * NT(0.5));
    // half_a (s + h)^2 + r = half_a s^2 + 2 half_a h s + (half_a h^2 + r)
    return P{NT(half_a * h * h + NT(radius)), NT(NT(2.0) * half_a * h), half_a};
  }
  /// How long after a reset the bound's diameter 2 r + A s^2 reaches `side` (eq. 8,
  /// s = sqrt((L - 2r) / A)): the world resets it then, so that it never outgrows the cells
  /// of its level. Infinite for a ballistic sphere.
  double time_to_fill(double side) const { return std::sqrt((side - 2 * radius) / acceleration); }
  /// Radius at time t, in doubles (for output and tests).
  double radius_at(double t) const { return radius + 0.5 * acceleration * (t - reset_time) * (t - reset_time); }
};

/// Checks the promise |a| <= A of sphere `id` with a state probed at t >= reset_time:
/// the centre within A/2 (t - t0)^2 of the predicted one (eq. 2) and the velocity within
/// A (t - t0) of the predicted one, up to the integrator's own rounding; throws
/// InvalidInput naming the sphere, the time and by how much otherwise.
void check_within_bound(SphereId id, const Bound& bound, const Motion<3>& centre, double t, const SphereState& s);

/// Whether the bound restarted at t from the state s (centre s.position + s.velocity
/// (t' - t), radius r + A/2 (t' - t)^2) lies inside the current one at every t' >= t,
/// proven with every rounding bounded. With tau = t - t0 and u = t' - t, the current
/// bound's radius is r + A/2 (tau + u)^2 = r + A/2 tau^2 + A tau u + A/2 u^2, so it holds
/// when |s.position - centre(t)| <= A/2 tau^2 and |s.velocity - centre'| <= A tau: the
/// centres drift apart by at most the first plus the second times u. A state the sphere
/// reaches with |a| <= A meets both (eq. 2), except for its integrator's rounding at the
/// boundary; a contact's response breaks the second. Then every proof made over the
/// current bound (two bounds apart, a bound clear of a plane) holds of the new one, and
/// the collision world keeps those certificates (CollisionWorld::restart). False for a
/// centre that is not linear, A = 0 or t = t0.
bool restarts_inside(const Bound& bound, const Motion<3>& centre, double t, const SphereState& s);

}  // namespace kds
