#include "structures/collision/baseline/swept_sphere.hpp"

#include <cmath>

namespace kds {
namespace {

double dot(const Vec<3>& a, const Vec<3>& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

}  // namespace

double swept_discriminant(const Vec<3>& p, const Vec<3>& v, double r) {
  const double s = -dot(p, v) / dot(v, v);
  const Vec<3> closest{p[0] + v[0] * s, p[1] + v[1] * s, p[2] + v[2] * s};
  return std::fma(r, r, -dot(closest, closest));
}

std::optional<double> swept_sphere_contact(const Vec<3>& p, const Vec<3>& v, double r, double duration) {
  const double pp = std::fma(-r, r, dot(p, p));
  const double pv = dot(p, v);
  if (pv >= 0) return std::nullopt;  // separating or at rest: no contact, even if overlapping
  if (pp < 0) return 0.0;            // overlapping and approaching: the contact is now
  const double vv = dot(v, v);
  // 002's early out: still approaching at the end of the frame and apart there (002
  // writes >= 0; touching at the very end is kept here, as a contact of this frame).
  if (pv + vv * duration <= 0) {
    const Vec<3> end{p[0] + v[0] * duration, p[1] + v[1] * duration, p[2] + v[2] * duration};
    if (dot(end, end) > r * r) return std::nullopt;
  }
  const double disc = swept_discriminant(p, v, r);
  if (!(disc > 0)) return std::nullopt;
  const double s = pp / (-pv + std::sqrt(vv) * std::sqrt(disc));
  if (s > duration) return std::nullopt;
  return s;
}

std::optional<double> wall_contact(double x, double v, double a, double r, double wall, bool low, double duration) {
  // Gap to the wall g(s) = c + b s + q s^2, positive while the sphere is inside.
  const double sign = low ? 1.0 : -1.0;
  const double c = sign * (x - wall) - r, b = sign * v, q = sign * 0.5 * a;
  if (c <= 0) {
    if (b < 0 || (b == 0 && q < 0)) return 0.0;
    if (b > 0 || q > 0) return std::nullopt;  // touching or through, but leaving
  }
  // First root s > 0 of q s^2 + b s + c with c > 0, by the stable quadratic formula.
  std::optional<double> root;
  if (q == 0) {
    if (b < 0) root = -c / b;
  } else {
    const double disc = b * b - 4 * q * c;
    if (disc >= 0) {
      const double m = -0.5 * (b + std::copysign(std::sqrt(disc), b));
      const double r1 = m / q, r2 = m != 0 ? c / m : r1;
      for (double s : {r1, r2})
        if (s > 0 && (!root || s < *root)) root = s;
    }
  }
  if (!root || *root > duration) return std::nullopt;
  return root;
}

}  // namespace kds
