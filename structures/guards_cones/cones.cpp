#include "structures/guards_cones/cones.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace kds {
namespace {

IntVec cross(const IntVec& a, const IntVec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
long dot(const IntVec& a, const IntVec& b) { return long(a[0]) * b[0] + long(a[1]) * b[1] + long(a[2]) * b[2]; }

}  // namespace

namespace {

/// The largest angle between two rays of one cone for m cells per face side: the angle
/// between two vertices of a triangle (a cone is convex), over one face (all faces are
/// alike).
double widest_cone(int m) {
  double widest = 0;
  auto angle = [](double ax, double ay, double bx, double by, double h) {
    const double d = ax * bx + ay * by + h * h;
    const double la = std::sqrt(ax * ax + ay * ay + h * h), lb = std::sqrt(bx * bx + by * by + h * h);
    return std::acos(std::min(1.0, d / (la * lb)));
  };
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const double x0 = -m + 2.0 * i, y0 = -m + 2.0 * j, x1 = x0 + 2, y1 = y0 + 2;
      // The diagonal is the longest side of both triangles; the legs are shorter than it
      // but may lie nearer the face's centre, so all three pairs are measured.
      widest = std::max({widest, angle(x0, y0, x1, y1, m), angle(x0, y0, x1, y0, m), angle(x1, y0, x1, y1, m),
                         angle(x0, y0, x0, y1, m), angle(x0, y1, x1, y1, m)});
    }
  return widest;
}

}  // namespace

int ConeSet::cells_for(double rho) {
  // The paper's cell side 1 / (2 sqrt(6) rho) does not give Lemma 8's bound: the faces of
  // the unit cube are at distance 1/2 from its centre, and for rho = 1 the 5 x 5 grid has
  // cones 0.55 rad wide against arctan(1 / (2 sqrt(3))) = 0.28. The grid is refined from
  // there until every cone meets the bound (10 x 10 for rho = 1), which Lemma 9 needs.
  const double bound = std::atan(1 / (2 * std::sqrt(3.0) * rho));
  int m = static_cast<int>(std::ceil(2 * std::sqrt(6.0) * rho));
  while (widest_cone(m) > bound) ++m;
  return m;
}

ConeSet::ConeSet(double rho) : m_(cells_for(rho)) {
  // Faces in the order of locate(): face = 2 * axis + (positive side); cells (i, j) along
  // the face's axes u = axis + 1, v = axis + 2 (mod 3); two triangles per cell.
  for (int axis = 0; axis < 3; ++axis)
    for (int positive = 0; positive < 2; ++positive)
      for (int i = 0; i < m_; ++i)
        for (int j = 0; j < m_; ++j) {
          auto corner = [&](int di, int dj) {
            IntVec p{};
            p[axis] = positive ? m_ : -m_;
            p[(axis + 1) % 3] = -m_ + 2 * (i + di);
            p[(axis + 2) % 3] = -m_ + 2 * (j + dj);
            return p;
          };
          const IntVec p00 = corner(0, 0), p10 = corner(1, 0), p01 = corner(0, 1), p11 = corner(1, 1);
          for (const auto& tri : {std::array<IntVec, 3>{p00, p10, p11}, std::array<IntVec, 3>{p00, p11, p01}}) {
            Cone c;
            c.vertex = tri;
            for (int f = 0; f < 3; ++f) {
              IntVec n = cross(tri[(f + 1) % 3], tri[(f + 2) % 3]);
              if (dot(n, tri[f]) < 0) n = {-n[0], -n[1], -n[2]};
              c.normal[f] = n;
            }
            cones_.push_back(c);
          }
        }
}

ConeIndex ConeSet::locate(const Vec<3>& d) const {
  int axis = 0;
  for (int k = 1; k < 3; ++k)
    if (std::abs(d[k]) > std::abs(d[axis])) axis = k;
  const double a = std::abs(d[axis]);
  if (!(a > 0)) return 0;
  const int positive = d[axis] > 0 ? 1 : 0;
  // Position on the face in cell units: (u / a + 1) * m / 2 in [0, m].
  auto cell = [&](int k, double& frac) {
    const double x = (d[k] / a + 1) * m_ / 2;
    int i = static_cast<int>(std::floor(x));
    i = std::clamp(i, 0, m_ - 1);
    frac = x - i;
    return i;
  };
  double fu = 0, fv = 0;
  const int i = cell((axis + 1) % 3, fu), j = cell((axis + 2) % 3, fv);
  const int lower = fv <= fu ? 0 : 1;  // triangle (p00, p10, p11) lies below the diagonal
  return static_cast<ConeIndex>((((2 * axis + positive) * m_ + i) * m_ + j) * 2 + lower);
}

bool ConeSet::contains(ConeIndex i, const Vec<3>& d, double slack) const {
  const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  for (const IntVec& n : cones_[i].normal) {
    const double v = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
    const double nl = std::sqrt(double(n[0]) * n[0] + double(n[1]) * n[1] + double(n[2]) * n[2]);
    if (v < -slack * nl * len) return false;
  }
  return true;
}

std::vector<IntVec> ConeSet::orientations() const {
  std::set<IntVec> seen;
  for (const Cone& c : cones_)
    for (IntVec n : c.normal) {
      const int g = std::gcd(std::gcd(std::abs(n[0]), std::abs(n[1])), std::abs(n[2]));
      for (int& x : n) x /= g;
      // One sign per orientation: the first non-zero coordinate positive.
      const int first = n[0] != 0 ? n[0] : n[1] != 0 ? n[1] : n[2];
      if (first < 0) n = {-n[0], -n[1], -n[2]};
      seen.insert(n);
    }
  return {seen.begin(), seen.end()};
}

}  // namespace kds
