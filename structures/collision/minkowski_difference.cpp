#include "structures/collision/minkowski_difference.hpp"

#include <algorithm>
#include <map>

namespace kds {
namespace {

using RVec = std::array<Rational, 3>;

RVec rational(const Vec<3>& v) { return {Rational(v[0]), Rational(v[1]), Rational(v[2])}; }
RVec minus(const RVec& a, const RVec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Rational dot(const RVec& a, const RVec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
RVec cross(const RVec& a, const RVec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
bool is_zero(const RVec& a) { return sgn(a[0]) == 0 && sgn(a[1]) == 0 && sgn(a[2]) == 0; }

// The direction scaled so that its largest component is 1 in magnitude: parallel
// directions of the same sense become equal, and the planes' numbers stay small.
RVec canonical(RVec n) {
  Rational m = 0;
  for (const Rational& x : n) m = std::max(m, Rational(abs(x)));
  for (Rational& x : n) x /= m;
  return n;
}

struct Less {
  bool operator()(const RVec& a, const RVec& b) const {
    for (int k = 0; k < 3; ++k) {
      if (a[k] < b[k]) return true;
      if (b[k] < a[k]) return false;
    }
    return false;
  }
};

// The largest value of n . v over `points` and the points reaching it.
Rational support(const RVec& n, const std::vector<RVec>& points, std::vector<const RVec*>& reaching) {
  Rational best = dot(n, points[0]);
  reaching.assign(1, &points[0]);
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Rational x = dot(n, points[i]);
    if (x > best) {
      best = x;
      reaching.assign(1, &points[i]);
    } else if (x == best) {
      reaching.push_back(&points[i]);
    }
  }
  return best;
}

}  // namespace

MinkowskiDifference::MinkowskiDifference(const ConvexPolytope& a, const ConvexPolytope& b) : a_(&a), b_(&b) {
  std::vector<RVec> pa, pb;  // the vertices of A and of -B
  for (const Vec<3>& v : a.vertices()) pa.push_back(rational(v));
  for (const Vec<3>& v : b.vertices()) pb.push_back({Rational(-v[0]), Rational(-v[1]), Rational(-v[2])});

  std::map<RVec, bool, Less> tried;  // canonical direction -> is a facet
  std::vector<const RVec*> sa, sb;
  std::vector<RVec> directions;
  auto consider = [&](const RVec& raw) {
    if (is_zero(raw)) return;
    const RVec n = canonical(raw);
    if (tried.count(n)) return;
    const Rational h = support(n, pa, sa) + support(n, pb, sb);
    // The points of M on the plane are sa (+) sb: a facet iff two of their differences
    // are not parallel (they all lie in the plane, so they span at most a plane).
    std::vector<RVec> d;
    for (const RVec* x : sa) d.push_back(minus(*x, *sa[0]));
    for (const RVec* y : sb) d.push_back(minus(*y, *sb[0]));
    bool spans = false;
    for (std::size_t i = 0; i < d.size() && !spans; ++i)
      for (std::size_t j = i + 1; j < d.size() && !spans; ++j) spans = !is_zero(cross(d[i], d[j]));
    tried[n] = spans;
    if (spans) facets_.emplace_back(n, h);
  };
  for (const auto& f : a.facets()) consider(f.normal);
  for (const auto& f : b.facets()) consider({-f.normal[0], -f.normal[1], -f.normal[2]});
  for (const auto& ea : a.edges()) {
    const RVec da = minus(pa[ea[1]], pa[ea[0]]);
    for (const auto& eb : b.edges()) {
      const RVec n = cross(da, minus(pb[eb[1]], pb[eb[0]]));
      consider(n);
      consider({-n[0], -n[1], -n[2]});
    }
  }
}

}  // namespace kds
