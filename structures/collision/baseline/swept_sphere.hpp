#pragma once
/// \file
/// The swept-sphere test of "Simple Bounding-Sphere Collision Detection" (seed 002): do two
/// spheres moving in straight lines come into contact within a frame, and when?
///
/// With p = x_b - x_a, v = v_b - v_a and r = r_a + r_b, contact is |p + v s| = r, i.e.
/// vv s^2 + 2 pv s + pp = 0 with pp = p.p - r^2, pv = p.v, vv = v.v. The spheres meet iff
/// the discriminant pv^2 - pp vv is positive. Computed so, it is a difference of two
/// products of size |p|^4 |v|^2 whose result can be as small as r^2 |v|^2: far-apart small
/// spheres lose every digit and the sign comes out wrong (002, "One more improvement").
/// 002's fix divides by vv: with s* = -pv / vv, the time of closest approach,
///     (pv^2 - pp vv) / vv = -(pp + pv s*) = r^2 - |p + v s*|^2,
/// and the right-hand form evaluates it as the radius against the closest-approach
/// distance, with errors relative to |p| |v| s* ~ |p|, not |p|^2: the safe form used here.
/// (002's last snippet returns `pp + pv * tmin > 0` as a hit; by the identity above a hit
/// is `< 0`, as the comments under the article point out.)
/// The contact time is then pp / (-pv + sqrt(vv (r^2 - |p + v s*|^2))), the smaller root
/// written without cancellation. Two spheres under the same gravity keep a linear relative
/// motion, so the test holds with gravity too.

#include <optional>

#include "kds/motion.hpp"

namespace kds {

/// The safe form of 002's discriminant divided by vv: r^2 - |p + v s*|^2 (vv > 0).
/// Positive iff the lines of motion bring the spheres closer than r.
double swept_discriminant(const Vec<3>& p, const Vec<3>& v, double r);

/// The first time s in [0, duration] at which the spheres touch while approaching; 0 if
/// they already overlap and approach; empty if they do not meet in the frame, if they
/// only graze (discriminant zero), or if they overlap but separate.
std::optional<double> swept_sphere_contact(const Vec<3>& p, const Vec<3>& v, double r, double duration);

/// The first time s in [0, duration] at which a sphere of radius r, centre coordinate
/// x + v s + a/2 s^2 along one axis, reaches the plane `wall` while moving into it; `low`
/// is true for a wall below the sphere. 0 if it already pokes through and moves in.
std::optional<double> wall_contact(double x, double v, double a, double r, double wall, bool low, double duration);

}  // namespace kds
