// CollisionWorld::audit: every invariant of the world checked against a static, exact
// computation at the audit's rational time (docs/architecture.md, section 8).
#include <vector>

#include "kds/errors.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/io/number_text.hpp"

namespace kds {

void CollisionWorld::polytopes_apart(SphereId i, SphereId j, const std::vector<std::array<Rational, 3>>& c,
                                     const Rational& tol, const std::string& when) const {
  // Overlapping by more than tol: c_j - c_i lies deeper than tol inside every facet plane
  // of the Minkowski difference (n . p - h < -tol |n|, squared to stay rational).
  for (const ExactPlane& f : minkowski(i, j).facets()) {
    Rational v = -f.offset, n2 = 0;
    for (int k = 0; k < 3; ++k) {
      v += f.normal[k] * (c[j][k] - c[i][k]);
      n2 += f.normal[k] * f.normal[k];
    }
    if (sgn(v) >= 0 || v * v <= tol * tol * n2) return;
  }
  throw AuditFailure(when + " polytopes " + std::to_string(i) + " and " + std::to_string(j) +
                     " overlap by more than the contact tolerance");
}

bool CollisionWorld::polytopes_meet(SphereId i, SphereId j, const std::vector<std::array<Rational, 3>>& c) const {
  // Touching or intersecting: c_j - c_i lies in the closed Minkowski difference.
  for (const ExactPlane& f : minkowski(i, j).facets()) {
    Rational v = -f.offset;
    for (int k = 0; k < 3; ++k) v += f.normal[k] * (c[j][k] - c[i][k]);
    if (sgn(v) > 0) return false;
  }
  return true;
}

void CollisionWorld::audit(const AuditContext& ctx) const {
  const Rational t = ctx.exact_time();
  const std::size_t n = spheres_.size();
  const std::string when = "collision world: at t = " + text::shortest(ctx.time);
  std::vector<Box3> extent(n);
  std::vector<std::array<Rational, 3>> c(n);
  std::vector<Rational> rad(n);
  for (SphereId i = 0; i < n; ++i) {
    rad[i] = radius<Rational>(body_[i], 0.0)(t);
    for (int k = 0; k < 3; ++k) {
      c[i][k] = centre<Rational>(body_[i], k, 0.0)(t);
      extent[i].lo[k] = Rational(c[i][k] - rad[i]).get_d();
      extent[i].hi[k] = Rational(c[i][k] + rad[i]).get_d();
    }
    // Eq. (8): a bound is reset when its diameter reaches its sphere's cell side, so it never
    // outgrows it (the grid's regions span at most two cells per axis). The slack covers the
    // rounding of the deadline, a few ulps of its time.
    if (!ballistic(i) && 2 * rad[i] > Rational(cell_sides_.side(spheres_[i].level) * (1 + 1e-9)))
      throw AuditFailure(when + " the bound of sphere " + std::to_string(i) + " is " +
                         text::shortest(Rational(2 * rad[i]).get_d()) + " across, more than its cell side " +
                         text::shortest(cell_sides_.side(spheres_[i].level)) + ": it was not reset in time (eq. 8)");
  }
  // Pairs: bounds that meet must have a certificate, whatever the broad phase (the
  // contract, broad_phase.hpp: exactly, not their bounding boxes, which the rolling tree
  // does not certify); ballistic spheres must not overlap beyond the tolerance. O(n^2):
  // audits are for tests. The tolerance, and what the rounding of the clock may add at
  // an instant of several contacts (CollisionWorld::create_pair).
  const Rational tol(settings_.contact_tolerance + clock_rounding_depth(ctx.time, 0));
  std::vector<char> paired(n, 0);
  for (SphereId i = 0; i < n; ++i) {
    std::fill(paired.begin(), paired.end(), 0);
    for (const auto& e : pairs_.of(i)) paired[e.other] = 1;
    for (SphereId j = i + 1; j < n; ++j) {
      if (!boxes_meet(extent[i], extent[j])) continue;
      Rational d2 = 0;
      for (int k = 0; k < 3; ++k) d2 += (c[i][k] - c[j][k]) * (c[i][k] - c[j][k]);
      // Polytopes: their bounding spheres may meet without a certificate as long as the
      // polytopes themselves do not (a broad phase may read the shape: guards-cones does).
      if (d2 <= (rad[i] + rad[j]) * (rad[i] + rad[j]) && !paired[j] && (!is_polytope(i) || polytopes_meet(i, j, c)))
        throw AuditFailure(when + " the bounds of spheres " + std::to_string(i) + " and " + std::to_string(j) +
                           " meet but have no certificate");
      if (is_polytope(i)) {
        polytopes_apart(i, j, c, tol, when);
      } else if (ballistic(i) && ballistic(j)) {
        const Rational R = rad[i] + rad[j] - tol;
        if (R > 0 && d2 < R * R)
          throw AuditFailure(when + " spheres " + std::to_string(i) + " and " + std::to_string(j) +
                             " overlap by more than the contact tolerance");
      }
    }
    if (ballistic(i))
      for (int k = 0; k < 3; ++k)
        if (c[i][k] - wall_reach(i, wall_of(k, true)) < Rational(box_.lo[k]) - tol ||
            c[i][k] + wall_reach(i, wall_of(k, false)) > Rational(box_.hi[k]) + tol)
          throw AuditFailure(when + " sphere " + std::to_string(i) +
                             " is outside the box by more than the contact tolerance");
  }
  broad_phase_->audit(ctx);
}

}  // namespace kds
