#pragma once
/// \file
/// What the audits of both guards-and-cones broad phases compute statically at the
/// audit's time: every centre exactly (and in doubles, to skip the clearly apart), a
/// guard's exact position, and the boxes that hold a guard. Included by
/// guards_cones_audit.cpp and guards_cones_lists_audit.cpp only.

#include <array>
#include <cmath>
#include <vector>

#include "kds/structure.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/guards_cones/cones.hpp"
#include "structures/guards_cones/fat_object.hpp"

namespace kds::guard_audit {

using Point = std::array<Rational, 3>;

inline Rational dot_exact(const IntVec& n, const Point& d) {
  Rational s = 0;
  for (int i = 0; i < 3; ++i) s += Rational(n[i]) * d[i];
  return s;
}

/// Every centre at the audit's time: exactly, and in doubles.
struct Centres {
  std::vector<Point> exact;
  std::vector<Vec<3>> approx;
};

inline Centres centres_at(const CollisionWorld& world, const AuditContext& ctx) {
  const Rational t = ctx.exact_time();
  Centres c;
  c.exact.resize(world.size());
  c.approx.resize(world.size());
  for (SphereId i = 0; i < world.size(); ++i) {
    c.approx[i] = world.centre_motion(i).position(ctx.time);
    for (int k = 0; k < 3; ++k) c.exact[i][k] = world.centre<Rational>(world.body(i), k, 0.0)(t);
  }
  return c;
}

inline Point guard_position(const Centres& c, SphereId owner, const Vec<3>& offset) {
  Point gp;
  for (int k = 0; k < 3; ++k) gp[k] = c.exact[owner][k] + Rational(offset[k]);
  return gp;
}

/// The objects other than `owner` whose closed boxes hold the guard at `gp` (offset
/// `offset` from its owner), in id order. A guard exactly on a box side on axis a is
/// decided by `on_side(a, k)`: the broad phase's lists say what holds just after now, and
/// the lists audit their order themselves.
template <class OnSide>
void boxes_holding(const Centres& c, const std::vector<FatObject>& objects, SphereId owner, const Vec<3>& offset,
                   const Point& gp, std::vector<SphereId>& out, OnSide on_side) {
  out.clear();
  for (SphereId k = 0; k < objects.size(); ++k) {
    if (k == owner) continue;
    bool inside = true;
    for (int a = 0; a < 3 && inside; ++a) {
      const double h = objects[k].box_half_width[a];
      const double gd = c.approx[owner][a] + offset[a];
      const double slack = 1e-6 * (std::abs(gd) + std::abs(c.approx[k][a]) + h + 1);
      if (std::abs(gd - c.approx[k][a]) > h + slack) {
        inside = false;
        break;
      }
      const Rational hr(h);
      const int s1 = sgn(gp[a] - (c.exact[k][a] - hr)), s2 = sgn(c.exact[k][a] + hr - gp[a]);
      if (s1 < 0 || s2 < 0) inside = false;
      else if (s1 == 0 || s2 == 0) inside = on_side(a, k);
    }
    if (inside) out.push_back(k);
  }
}

}  // namespace kds::guard_audit
