#include "structures/guards_cones/fat_object.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kds/errors.hpp"
#include "kds/number_types.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/collision/polytope.hpp"

namespace kds {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The square root of a non-negative rational, rounded down (d * d <= q exactly).
double sqrt_down(const Rational& q) {
  double d = std::sqrt(q.get_d());
  while (d > 0 && Rational(d) * Rational(d) > q) d = std::nextafter(d, 0.0);
  return d;
}

/// The square root of a non-negative rational, rounded up (d * d >= q exactly).
double sqrt_up(const Rational& q) {
  double d = std::sqrt(q.get_d());
  while (Rational(d) * Rational(d) < q) d = std::nextafter(d, kInf);
  return d;
}

/// x + margin, strictly above x (a margin below half an ulp of x is rounded away).
double grown(double x, double margin) {
  const double h = x + margin;
  return h > x ? h : std::nextafter(x, kInf);
}

/// The points of Lemma 7's guard grid at fatness rho: (k + 1)^3, k = ceil(sqrt(3) (rho + 1)^2).
double grid_points(double rho) {
  const double k = std::ceil(std::sqrt(3.0) * (rho + 1) * (rho + 1));
  return (k + 1) * (k + 1) * (k + 1);
}

}  // namespace

FatObject fat_ball(double radius, double box_margin) {
  FatObject o;
  o.inner_radius = o.outer_radius = radius;
  // Strictly above r even when the margin is below half an ulp of r (as box_half_width in
  // structures/box_overlap/box_extreme.hpp).
  const double h = grown(radius, box_margin);
  o.box_half_width = {h, h, h};
  return o;
}

FatObject fat_polytope(const ConvexPolytope& shape, double box_margin, std::size_t id) {
  const std::string who = "object " + std::to_string(id) + " (a polytope): ";
  // Inner radius: the distance from the reference point (the origin) to the nearest facet
  // plane n . x = offset (n outward), offset / |n|, compared squared and exactly. The
  // origin is strictly inside iff every offset is positive.
  Rational inner2 = -1;
  for (std::size_t f = 0; f < shape.facets().size(); ++f) {
    const ConvexPolytope::Facet& facet = shape.facets()[f];
    const int s = sgn(facet.offset);
    if (s <= 0)
      throw InvalidInput(who + "its reference point (the origin of its vertices, which its motion moves) lies " +
                         (s < 0 ? "outside the polytope" : "on its boundary") + " (facet " + std::to_string(f) +
                         "): guards and cones need a ball about that point inside the object; give the vertices "
                         "relative to a point strictly inside, the centroid say");
    Rational n2 = 0;
    for (const Rational& c : facet.normal) n2 += c * c;
    const Rational d2 = facet.offset * facet.offset / n2;
    if (inner2 < 0 || d2 < inner2) inner2 = d2;
  }
  Rational outer2 = 0;
  for (const Vec<3>& v : shape.vertices()) {
    Rational d2 = 0;
    for (double c : v) d2 += Rational(c) * Rational(c);
    if (d2 > outer2) outer2 = d2;
  }
  FatObject o;
  o.inner_radius = sqrt_down(inner2);
  o.outer_radius = sqrt_up(outer2);
  for (int k = 0; k < 3; ++k)
    o.box_half_width[k] = grown(std::max(shape.reach(k, true), shape.reach(k, false)), box_margin);
  return o;
}

void check_fat_object(const FatObject& o, std::size_t id) {
  const std::string who = "object " + std::to_string(id) + ": ";
  auto bad = [](double x) { return !std::isfinite(x) || x <= 0; };
  if (bad(o.inner_radius))
    throw InvalidInput(who + "inner radius must be finite and positive, not " + text::shortest(o.inner_radius));
  if (bad(o.outer_radius))
    throw InvalidInput(who + "outer radius must be finite and positive, not " + text::shortest(o.outer_radius));
  if (o.outer_radius < o.inner_radius)
    throw InvalidInput(who + "outer radius " + text::shortest(o.outer_radius) + " is below the inner radius " +
                       text::shortest(o.inner_radius));
  if (o.fatness() > max_fatness)
    throw InvalidInput(who + "fatness " + text::shortest(o.fatness()) + " (outer / inner radius) is beyond the limit " +
                       text::shortest(max_fatness) +
                       " of guards and cones: Lemma 7's guard grid grows as rho^6 (" +
                       text::shortest(std::round(grid_points(o.fatness()))) + " grid points per object at this fatness, " +
                       text::shortest(grid_points(max_fatness)) + " at the limit) and Lemma 8's cones as rho^2");
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(o.box_half_width[k]) || o.box_half_width[k] < o.inner_radius)
      throw InvalidInput(who + "box half width " + text::shortest(o.box_half_width[k]) + " on axis " +
                         std::to_string(k) + " is below the inner radius " + text::shortest(o.inner_radius) +
                         ": the box cannot hold the object");
}

}  // namespace kds
