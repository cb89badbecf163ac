#include "structures/guards_cones/cone_geometry.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "kds/error_free.hpp"
#include "kds/function.hpp"
#include "kds/solver.hpp"

namespace kds {

namespace {

long long dot(const IntVec& a, const IntVec& b) {
  return static_cast<long long>(a[0]) * b[0] + static_cast<long long>(a[1]) * b[1] +
         static_cast<long long>(a[2]) * b[2];
}

/// The sign of the slope of n . (c_object - g) when the function is certainly of degree 1
/// (the coefficients above the first vanish exactly: ballistic centres under one gravity),
/// else unknown.
Sign certain_slope(const CollisionWorld& world, const GuardPoint& g, SphereId object, const IntVec& n) {
  const Polynomial<Interval> f = facet_polynomial<Interval>(world, g, object, n, 0.0);
  if (f.degree() != 1) return Sign::unknown;
  return f[1].certainly_positive() ? Sign::positive : f[1].certainly_negative() ? Sign::negative : Sign::unknown;
}

}  // namespace

bool parallel_normals(const IntVec& a, const IntVec& b) {
  const auto cross = [&](int i, int j) {
    return static_cast<long long>(a[i]) * b[j] - static_cast<long long>(a[j]) * b[i];
  };
  const IntVec zero{0, 0, 0};
  return a != zero && b != zero && cross(1, 2) == 0 && cross(2, 0) == 0 && cross(0, 1) == 0;
}

bool same_facet_line(const CollisionWorld& world, const FacetOf& a, const FacetOf& b) {
  // With na = lambda nb: the same owner and object give f_a = lambda (f_b + nb . (b.offset -
  // a.offset)); swapped ones give f_a = -lambda (f_b + nb . (b.offset + a.offset)).
  double sign_of_b;
  if (a.guard.owner == b.guard.owner && a.object == b.object) sign_of_b = -1;
  else if (a.guard.owner == b.object && a.object == b.guard.owner) sign_of_b = 1;
  else return false;
  if (!parallel_normals(a.normal, b.normal)) return false;
  // nb . a.offset + sign_of_b nb . b.offset = 0, as a sum of twelve exact doubles.
  std::array<double, 12> terms;
  for (int k = 0; k < 3; ++k) {
    const double n = b.normal[k];
    if (!in_error_free_range(n) || !in_error_free_range(a.guard.offset[k]) ||
        !in_error_free_range(b.guard.offset[k]))
      return false;
    two_product(n, a.guard.offset[k], terms[4 * k], terms[4 * k + 1]);
    two_product(sign_of_b * n, b.guard.offset[k], terms[4 * k + 2], terms[4 * k + 3]);
  }
  if (exact_sign_of_sum(terms) != Sign::zero) return false;
  return certain_slope(world, b.guard, b.object, b.normal) != Sign::unknown;
}

std::optional<PlaneCrossing> plane_crossing(const CollisionWorld& world, const GuardPoint& g, SphereId object,
                                            const IntVec& n) {
  const Sign s = certain_slope(world, g, object, n);
  if (s == Sign::unknown) return std::nullopt;
  return PlaneCrossing{n, s};
}

bool centre_in_cone(const CollisionWorld& world, const ConeSet& cones, const GuardPoint& g, SphereId k, ConeIndex c,
                    const PlaneCrossing* crossing) {
  const Simulator& sim = world.simulator();
  for (const IntVec& n : cones.cone(c).normal) {
    if (crossing != nullptr && parallel_normals(n, crossing->normal)) {
      // n . (c_k - g) is a multiple of the crossed plane's function, which is 0 now: its
      // sign just after now is its slope's, times the multiple's sign.
      const Sign s = dot(n, crossing->normal) > 0 ? crossing->slope : -crossing->slope;
      if (s == Sign::negative) return false;
      continue;
    }
    auto f = make_function([&]<class NT>(double origin) { return facet_polynomial<NT>(world, g, k, n, origin); });
    if (sign_just_after(f, sim.now(), sim.exactness()) == Sign::negative) return false;
  }
  return true;
}

ConeIndex locate_centre(const CollisionWorld& world, const ConeSet& cones, const GuardPoint& g, SphereId k,
                        const PlaneCrossing* crossing) {
  const double t = world.simulator().now().hi();
  const Vec<3> ck = world.centre_motion(k).position(t), co = world.centre_motion(g.owner).position(t);
  Vec<3> d;
  for (int i = 0; i < 3; ++i) d[i] = ck[i] - co[i] - g.offset[i];
  const ConeIndex guess = cones.locate(d);
  if (centre_in_cone(world, cones, g, k, guess, crossing)) return guess;
  ConeIndex past = guess;
  if (crossing != nullptr) {
    // The centre is on the crossed plane now, where doubles guess either side: guess again
    // a little further along the relative velocity.
    const Vec<3> vk = world.centre_motion(k).velocity(t), vo = world.centre_motion(g.owner).velocity(t);
    Vec<3> v;
    for (int i = 0; i < 3; ++i) v[i] = vk[i] - vo[i];
    const double dl = std::hypot(d[0], d[1], d[2]), vl = std::hypot(v[0], v[1], v[2]);
    if (vl > 0 && dl > 0) {
      const double h = 1e-6 * dl / vl;
      for (int i = 0; i < 3; ++i) d[i] += h * v[i];
      past = cones.locate(d);
      if (past != guess && centre_in_cone(world, cones, g, k, past, crossing)) return past;
    }
  }
  // The guesses were wrong (a centre on or near a facet): try every cone, in order.
  for (ConeIndex c = 0; c < cones.size(); ++c)
    if (c != guess && c != past && centre_in_cone(world, cones, g, k, c, crossing)) return c;
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
