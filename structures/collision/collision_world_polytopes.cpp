// CollisionWorld: the narrow phase of convex polytopes moving by translation, certified by
// separating planes (docs/structures/collision.md, "Convex polytopes").
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "kds/errors.hpp"
#include "kds/solver.hpp"
#include "structures/collision/approach.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/collision/polytope.hpp"
#include "structures/collision/tie_keys.hpp"

namespace kds {
namespace {

constexpr const char* kSeparatingPlane = "separating plane";

// n . (pb - pa) - h for a plane and two centres, in NT.
template <class NT>
NT plane_value(const ExactPlane& plane, const std::array<NT, 3>& pa, const std::array<NT, 3>& pb) {
  NT f = -plane.template h<NT>();
  for (int k = 0; k < 3; ++k) f += plane.template n<NT>(k) * (pb[k] - pa[k]);
  return f;
}

}  // namespace

Sphere polytope_body(std::shared_ptr<const ConvexPolytope> shape, const Vec<3>& position, const Vec<3>& velocity,
                     double mass) {
  Sphere s;
  s.position = position;
  s.velocity = velocity;
  s.mass = mass;
  s.radius = shape ? shape->bounding_radius() : 1;
  s.polytope = std::move(shape);
  return s;
}

double CollisionWorld::wall_reach(SphereId id, Wall w) const {
  const Sphere& s = spheres_[id].spec;
  return s.polytope ? s.polytope->reach(wall_axis(w), !wall_is_low(w)) : s.radius;
}

const MinkowskiDifference& CollisionWorld::difference_of(const ConvexPolytope& a, const ConvexPolytope& b) const {
  auto& slot = minkowski_[{&a, &b}];
  if (!slot) slot = std::make_unique<MinkowskiDifference>(a, b);
  return *slot;
}

const MinkowskiDifference& CollisionWorld::minkowski(SphereId a, SphereId b) const {
  return difference_of(*spheres_[a].spec.polytope, *spheres_[b].spec.polytope);
}

void CollisionWorld::validate_polytopes(const std::vector<Sphere>& spheres) {
  std::size_t first_ball = spheres.size(), first_polytope = spheres.size();
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    const Sphere& s = spheres[i];
    if (!s.polytope) {
      first_ball = std::min(first_ball, i);
      continue;
    }
    first_polytope = std::min(first_polytope, i);
    const std::string name = "sphere " + std::to_string(i) + " (a polytope)";
    if (s.radius < s.polytope->bounding_radius())
      throw InvalidInput(name + ", radius: must be at least the polytope's bounding radius " +
                         text::shortest(s.polytope->bounding_radius()) + ", got " + text::shortest(s.radius) +
                         " (polytope_body sets it)");
  }
  if (first_polytope == spheres.size()) return;
  if (first_ball < spheres.size())
    throw InvalidInput("sphere " + std::to_string(first_ball) + " is a ball and sphere " +
                       std::to_string(first_polytope) +
                       " a polytope: a world holds balls or polytopes, not both (ball-polytope contacts are not "
                       "supported yet)");
  // Overlaps at the start, exactly: c_b - c_a strictly inside every facet plane of
  // A (+) -B. Pairs found by a sweep over x of the bounding spheres.
  std::vector<std::size_t> order(spheres.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto lo = [&](std::size_t i) { return spheres[i].position[0] - spheres[i].radius; };
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return lo(x) < lo(y) || (lo(x) == lo(y) && x < y); });
  for (std::size_t u = 0; u < order.size(); ++u) {
    const Sphere& sa = spheres[order[u]];
    // Bounding spheres rounded up by a relative 1e-12: only the exact test below decides.
    for (std::size_t v = u + 1; v < order.size() && lo(order[v]) <= (sa.position[0] + sa.radius) * (1 + 1e-12) + 1e-300;
         ++v) {
      std::size_t i = order[u], j = order[v];
      if (i > j) std::swap(i, j);
      const Sphere &a = spheres[i], &b = spheres[j];
      const Vec<3> d = sub(b.position, a.position);
      const double reach = (a.radius + b.radius) * (1 + 1e-12);
      if (dot(d, d) > reach * reach) continue;
      std::array<Rational, 3> pa, pb;
      for (int k = 0; k < 3; ++k) {
        pa[k] = a.position[k];
        pb[k] = b.position[k];
      }
      bool inside = true;
      for (const ExactPlane& f : difference_of(*a.polytope, *b.polytope).facets())
        if (sgn(plane_value<Rational>(f, pa, pb)) >= 0) {
          inside = false;
          break;
        }
      if (inside)
        throw InvalidInput("spheres " + std::to_string(i) + " and " + std::to_string(j) +
                           " overlap: the two polytopes intersect at the start (touching is allowed, overlapping is "
                           "not)");
    }
  }
}

CollisionWorld::FacetChoice CollisionWorld::choose_facet(SphereId a, SphereId b, double t) {
  const std::vector<ExactPlane>& facets = minkowski(a, b).facets();
  std::array<Interval, 3> ia, ib;
  for (int k = 0; k < 3; ++k) {
    ia[k] = centre<Interval>(body_[a], k, t)(Interval(0.0));
    ib[k] = centre<Interval>(body_[b], k, t)(Interval(0.0));
  }
  // The score of a facet: how far outside its plane p lies, in doubles (its distance).
  auto score = [&](std::size_t i, const Interval& f) { return 0.5 * (f.lo() + f.hi()) / facets[i].norm; };
  FacetChoice best, separating;
  double best_score = -std::numeric_limits<double>::infinity(), sep_score = best_score;
  std::vector<std::uint32_t> undecided;
  for (std::size_t i = 0; i < facets.size(); ++i) {
    const Interval f = plane_value<Interval>(facets[i], ia, ib);
    const double sc = score(i, f);
    if (sc > best_score) {
      best_score = sc;
      best.facet = static_cast<std::uint32_t>(i);
    }
    if (f.certainly_positive() && sc > sep_score) {
      sep_score = sc;
      separating = {static_cast<std::uint32_t>(i), true};
    } else if (!f.certainly_negative() && !f.certainly_positive()) {
      undecided.push_back(static_cast<std::uint32_t>(i));
    }
  }
  if (separating.separating) return separating;
  // The filter could not decide (p on or near the boundary of M): exactly.
  if (!undecided.empty()) {
    std::array<Rational, 3> ra, rb;
    for (int k = 0; k < 3; ++k) {
      ra[k] = centre<Rational>(body_[a], k, 0.0)(Rational(t));
      rb[k] = centre<Rational>(body_[b], k, 0.0)(Rational(t));
    }
    for (std::uint32_t i : undecided)
      if (sgn(plane_value<Rational>(facets[i], ra, rb)) > 0) return {i, true};
  }
  return best;
}

Vec<3> CollisionWorld::polytope_normal(SphereId a, SphereId b, double t) {
  const ExactPlane& f = minkowski(a, b).facets()[choose_facet(a, b, t).facet];
  return {f.normal_double[0] / f.norm, f.normal_double[1] / f.norm, f.normal_double[2] / f.norm};
}

void CollisionWorld::create_polytope_pair(SphereId a, SphereId b) {
  // The clock, or just after it when it is irrational (a broad phase's event): any facet
  // that separates the pair there certifies it, and one that fails before fails at once.
  const double t = sim_.now().hi();
  const FacetChoice choice = choose_facet(a, b, t);
  const ExactPlane& plane = minkowski(a, b).facets()[choice.facet];
  FacetCertificate* c =
      sim_.create<FacetCertificate>(*this, body_[a], body_[b], plane, choice.facet, kSeparatingPlane, tie_key::pair(a, b));
  pairs_.insert(a, b, c);
  const bool instant = touching_at_instant(tie_key::pair(a, b), t);
  if (choice.separating && !instant) return;
  // Touching (within the rounding of positions at a rounded clock), as in create_pair.
  const SphereState sa = local_state(a, t), sb = local_state(b, t);
  if (approach_beyond_rounding(sa, sb, plane.normal_double)) {
    // Approaching while in contact (one of the contacts of this instant): it fails now.
    const Rational f0 = c->exact_value_at(t);
    if (instant || sgn(f0) <= 0) c->set_allowance(-ceil_to_double(f0));
    return;
  }
  if (choice.separating) return;
  // In contact, at rest or moving apart (after a response at a rounded time the pair may
  // overlap by a few ulps): the allowance covers that overlap.
  const double allowance = allowance_at(*c, t, response_rounding(sa, sb, plane.normal_double));
  const double depth = allowance / plane.norm;
  if (depth > settings_.contact_tolerance + clock_rounding_depth(t, norm(sa.velocity) + norm(sb.velocity)))
    throw std::logic_error("CollisionWorld: polytopes " + std::to_string(a) + " and " + std::to_string(b) +
                           " overlap by " + text::shortest(depth) + " at t = " + text::shortest(t) +
                           ", beyond the contact tolerance");
  c->set_allowance(allowance);
}

}  // namespace kds
