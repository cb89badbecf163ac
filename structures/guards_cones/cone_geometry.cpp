#include "structures/guards_cones/cone_geometry.hpp"

#include <stdexcept>
#include <string>

#include "kds/function.hpp"
#include "kds/solver.hpp"

namespace kds {

bool centre_in_cone(const CollisionWorld& world, const ConeSet& cones, const GuardPoint& g, SphereId k, ConeIndex c) {
  const Simulator& sim = world.simulator();
  for (const IntVec& n : cones.cone(c).normal) {
    auto f = make_function([&]<class NT>(double origin) { return facet_polynomial<NT>(world, g, k, n, origin); });
    if (sign_just_after(f, sim.now(), sim.exactness()) == Sign::negative) return false;
  }
  return true;
}

ConeIndex locate_centre(const CollisionWorld& world, const ConeSet& cones, const GuardPoint& g, SphereId k) {
  const double t = world.simulator().now().hi();
  const Vec<3> ck = world.centre_motion(k).position(t), co = world.centre_motion(g.owner).position(t);
  Vec<3> d;
  for (int i = 0; i < 3; ++i) d[i] = ck[i] - co[i] - g.offset[i];
  const ConeIndex guess = cones.locate(d);
  if (centre_in_cone(world, cones, g, k, guess)) return guess;
  // The guess was wrong (a centre on or near a facet): try every cone, in order.
  for (ConeIndex c = 0; c < cones.size(); ++c)
    if (c != guess && centre_in_cone(world, cones, g, k, c)) return c;
  throw std::logic_error("guards-cones: no cone of a guard of sphere " + std::to_string(g.owner) +
                         " holds the centre of sphere " + std::to_string(k));
}

bool projects_before(const CollisionWorld& world, const ConeSet& cones, ConeIndex c, SphereId k, SphereId j) {
  const Simulator& sim = world.simulator();
  const IntVec& a = cones.cone(c).representative();
  const BodyId bk = world.body(k), bj = world.body(j);
  // a . (c_j - c_k): positive just after now when k projects before j.
  auto f = make_function([&]<class NT>(double origin) {
    Polynomial<NT> s(NT(0));
    for (int i = 0; i < 3; ++i)
      if (a[i] != 0) s += NT(a[i]) * (world.centre<NT>(bj, i, origin) - world.centre<NT>(bk, i, origin));
    return s;
  });
  const Sign s = sign_just_after(f, sim.now(), sim.exactness());
  if (s == Sign::zero) return k < j;
  return s == Sign::positive;
}

}  // namespace kds
