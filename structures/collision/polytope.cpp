#include "structures/collision/polytope.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "kds/errors.hpp"
#include "kds/interval.hpp"
#include "structures/collision/io/number_text.hpp"

namespace kds {
namespace {

// The sign of the determinant [b - a, c - a, d - a] (positive: d lies on the side of the
// plane a b c that its normal (b - a) x (c - a) points to). Intervals first; rationals when
// they cannot decide (coplanar points, the usual case on the facets of a die).
int orient(const Vec<3>& a, const Vec<3>& b, const Vec<3>& c, const Vec<3>& d) {
  auto det = [&](auto tag) {
    using NT = decltype(tag);
    NT u[3], v[3], w[3];
    for (int k = 0; k < 3; ++k) {
      u[k] = NT(b[k]) - NT(a[k]);
      v[k] = NT(c[k]) - NT(a[k]);
      w[k] = NT(d[k]) - NT(a[k]);
    }
    return NT(u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
              u[2] * (v[0] * w[1] - v[1] * w[0]));
  };
  const Interval f = det(Interval{});
  if (f.certainly_positive()) return 1;
  if (f.certainly_negative()) return -1;
  if (f.certainly_zero()) return 0;
  return sgn(det(Rational{}));
}

bool collinear(const Vec<3>& a, const Vec<3>& b, const Vec<3>& c) {
  // Collinear iff (b - a) x (c - a) = 0, exactly.
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const Rational x = (Rational(b[i]) - a[i]) * (Rational(c[j]) - a[j]) - (Rational(b[j]) - a[j]) * (Rational(c[i]) - a[i]);
    if (sgn(x) != 0) return false;
  }
  return true;
}


// A supporting plane through three of the points: the points on it (sorted), a triple
// spanning it, and whether the others lie on the side its normal (b - a) x (c - a)
// points to. Found by testing every triple: O(n^4), for the small vertex counts of
// rigid bodies. Each plane is listed once however many triples span it.
struct SupportingPlane {
  std::vector<std::uint32_t> on;
  std::array<std::size_t, 3> triple;
  bool others_above;
};

std::vector<SupportingPlane> supporting_planes(const std::vector<Vec<3>>& p) {
  const std::size_t n = p.size();
  std::set<std::vector<std::uint32_t>> seen;
  std::vector<SupportingPlane> out;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k) {
        if (collinear(p[i], p[j], p[k])) continue;
        int above = 0, below = 0;
        std::vector<std::uint32_t> on;
        for (std::size_t m = 0; m < n && !(above > 0 && below > 0); ++m) {
          const int s = (m == i || m == j || m == k) ? 0 : orient(p[i], p[j], p[k], p[m]);
          if (s > 0) ++above;
          if (s < 0) ++below;
          if (s == 0) on.push_back(static_cast<std::uint32_t>(m));
        }
        if (above > 0 && below > 0) continue;
        if (!seen.insert(on).second) continue;
        out.push_back({std::move(on), {i, j, k}, above > 0});
      }
  return out;
}

// How many supporting planes hold each point: a corner of the hull lies on at least
// three, a point in the middle of a facet on one, of an edge on two, inside on none.
std::vector<int> facet_counts(const std::vector<SupportingPlane>& planes, std::size_t n) {
  std::vector<int> count(n, 0);
  for (const SupportingPlane& f : planes)
    for (std::uint32_t v : f.on) ++count[v];
  return count;
}

}  // namespace

ConvexPolytope::ConvexPolytope(std::vector<Vec<3>> vertices, const std::string& name) : vertices_(std::move(vertices)) {
  const std::size_t n = vertices_.size();
  const auto fail = [&](const std::string& problem) { throw InvalidInput(name + ": " + problem); };
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(vertices_[i][k]))
        fail("vertex " + std::to_string(i) + " has a NaN or infinite coordinate");
  if (n < 4) fail("has " + std::to_string(n) + " vertices; a solid needs at least 4");
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (vertices_[i] == vertices_[j])
        fail("duplicate vertices " + std::to_string(i) + " and " + std::to_string(j));

  // Flat: no three vertices span a plane, or every vertex lies on that plane.
  std::size_t a = 0, b = 1, c = n;
  for (std::size_t k = 2; k < n && c == n; ++k)
    if (!collinear(vertices_[a], vertices_[b], vertices_[k])) c = k;
  bool solid = false;
  for (std::size_t m = 0; m < n && c < n && !solid; ++m) solid = orient(vertices_[a], vertices_[b], vertices_[c], vertices_[m]) != 0;
  if (!solid) fail("is flat: all its vertices lie in one plane, it has no volume");

  // Facets: the supporting planes through three vertices, with exact outward normals.
  const std::vector<SupportingPlane> planes = supporting_planes(vertices_);
  for (const SupportingPlane& plane : planes) {
    const auto [i, j, k] = plane.triple;
    Facet f;
    f.vertices = plane.on;
    std::array<Rational, 3> u, v;
    for (int q = 0; q < 3; ++q) {
      u[q] = Rational(vertices_[j][q]) - vertices_[i][q];
      v[q] = Rational(vertices_[k][q]) - vertices_[i][q];
    }
    for (int q = 0; q < 3; ++q) {
      const int r = (q + 1) % 3, s = (q + 2) % 3;
      f.normal[q] = u[r] * v[s] - u[s] * v[r];
      // (b - a) x (c - a) points to the other vertices: the outward normal is opposite.
      if (plane.others_above) f.normal[q] = -f.normal[q];
    }
    f.offset = 0;
    for (int q = 0; q < 3; ++q) f.offset += f.normal[q] * vertices_[i][q];
    facets_.push_back(std::move(f));
  }

  // Convex: every vertex is a corner of the hull.
  const std::vector<int> count = facet_counts(planes, n);
  for (std::size_t i = 0; i < n; ++i)
    if (count[i] < 3)
      fail("is not convex: vertex " + std::to_string(i) +
           (count[i] == 0   ? " lies inside the convex hull of the others"
            : count[i] == 1 ? " lies in the middle of a facet of the convex hull"
                            : " lies in the middle of an edge of the convex hull"));

  // Edges: two facets sharing two vertices share an edge.
  for (std::size_t i = 0; i < facets_.size(); ++i)
    for (std::size_t j = i + 1; j < facets_.size(); ++j) {
      std::vector<std::uint32_t> common;
      std::set_intersection(facets_[i].vertices.begin(), facets_[i].vertices.end(), facets_[j].vertices.begin(),
                            facets_[j].vertices.end(), std::back_inserter(common));
      if (common.size() == 2) edges_.push_back({common[0], common[1]});
    }

  for (int k = 0; k < 3; ++k) {
    low_[k] = high_[k] = 0;
    bool first = true;
    for (const Vec<3>& v : vertices_) {
      low_[k] = first ? -v[k] : std::max(low_[k], -v[k]);
      high_[k] = first ? v[k] : std::max(high_[k], v[k]);
      first = false;
    }
  }
  for (const Vec<3>& v : vertices_) {
    const double r = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    // A few ulps up: sqrt and the sum round to nearest.
    bounding_radius_ = std::max(bounding_radius_, r * (1 + 4 * std::numeric_limits<double>::epsilon()));
  }
}

std::shared_ptr<const ConvexPolytope> ConvexPolytope::cube(double h) {
  std::vector<Vec<3>> v;
  for (int i = 0; i < 8; ++i) v.push_back({(i & 1) ? h : -h, (i & 2) ? h : -h, (i & 4) ? h : -h});
  return std::make_shared<const ConvexPolytope>(std::move(v), "cube");
}

std::shared_ptr<const ConvexPolytope> ConvexPolytope::octahedron(double s) {
  return std::make_shared<const ConvexPolytope>(
      std::vector<Vec<3>>{{s, 0, 0}, {-s, 0, 0}, {0, s, 0}, {0, -s, 0}, {0, 0, s}, {0, 0, -s}}, "octahedron");
}

std::shared_ptr<const ConvexPolytope> ConvexPolytope::tetrahedron(double s) {
  const double h = s / std::sqrt(3.0);
  return std::make_shared<const ConvexPolytope>(std::vector<Vec<3>>{{h, h, h}, {h, -h, -h}, {-h, h, -h}, {-h, -h, h}},
                                                "tetrahedron");
}

std::shared_ptr<const ConvexPolytope> ConvexPolytope::random_hull(int points, double size, std::uint64_t seed) {
  if (points < 4) throw InvalidInput("random_hull: needs at least 4 points, got " + std::to_string(points));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (;;) {
    std::vector<Vec<3>> p;
    while (static_cast<int>(p.size()) < points) {
      const Vec<3> x{u(rng), u(rng), u(rng)};
      const double r2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
      if (r2 > 1 || r2 < 0.04) continue;
      p.push_back({x[0] * size, x[1] * size, x[2] * size});
    }
    std::vector<Vec<3>> corners = hull_corners(p);
    try {
      return std::make_shared<const ConvexPolytope>(std::move(corners), "random hull (seed " + std::to_string(seed) + ")");
    } catch (const InvalidInput&) {
      // Degenerate draw (flat, or fewer than 4 corners): draw again from the same stream.
    }
  }
}

std::vector<Vec<3>> hull_corners(const std::vector<Vec<3>>& points) {
  std::vector<Vec<3>> unique;
  for (const Vec<3>& p : points)
    if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(p);
  const std::size_t n = unique.size();
  if (n < 4) return unique;
  const std::vector<SupportingPlane> planes = supporting_planes(unique);
  // Flat: one plane holds every point.
  for (const SupportingPlane& f : planes)
    if (f.on.size() == n) return unique;
  const std::vector<int> count = facet_counts(planes, n);
  std::vector<Vec<3>> out;
  for (std::size_t i = 0; i < n; ++i)
    if (count[i] >= 3) out.push_back(unique[i]);
  return out;
}

}  // namespace kds
