#pragma once
/// \file
/// A lower bound on when a quadratic first reaches a level, for the holds_before proofs of
/// the certificates over time-varying bounds (certificates/bound_separation.hpp,
/// certificates/plane_side.hpp): from exact double coefficients, a double that is never
/// above the exact root, computed without interval arithmetic where no cancellation can
/// occur.

#include <cmath>
#include <limits>

#include "kds/interval.hpp"

namespace kds {

/// A lower bound on the first s > 0 with a s^2 + b s = g, for exact doubles g > 0, a and b
/// (so a s^2 + b s < g on [0, returned value)): infinity when there is none, 0 when
/// nothing is proven (g <= 0, values that might be subnormal, g above 2^1000, an
/// overflow, NaN).
///  - a >= 0, b >= 0: 2 g / (b + sqrt(b^2 + 4 a g)) in doubles. On non-negative normal
///    values each of its six operations (4 a g is exact) rounds by at most u = 2^-53
///    relative, with no cancellation, so the quotient is at most (1 + u) / (1 - u)^3 times
///    the exact one; the product by 1 - 2^-50, rounded, lies below it. (Infinity when
///    a = b = 0.)
///  - a > 0, b < 0: (|b| + sqrt(b^2 + 4 a g)) / (2 a), the same form without cancellation:
///    at most (1 + u)^4 times the exact root (each sum and the square root add one
///    factor, 2 a is exact), and (1 + u)^5 (1 - 2^-50) < 1. Inputs up to 2^500, so that
///    nothing overflows.
///  - a = 0 and b < 0, or a < 0 and b <= 0: no root (the left side never grows).
///  - a < 0, b > 0: the smaller root of |a| s^2 - b s + g, 2 g / (b + sqrt(b^2 - 4 |a| g)),
///    in intervals (the discriminant may cancel); none if it is certainly negative.
/// Values below 2^-400 (other than 0) prove nothing, so that no product or quotient leaves
/// the normal range; a bound below 2^-900 is answered 0.
[[gnu::always_inline]] inline double first_root_below(double a, double b, double g);

namespace detail {
/// first_root_below for a < 0 < b, in intervals (out of line: the rare case).
[[gnu::noinline]] inline double first_root_below_concave(double a, double b, double g) {
  const Interval B(b), G(g);
  const Interval disc = square(B) - Interval(4) * (Interval(-a) * G);
  if (disc.hi() < 0) return std::numeric_limits<double>::infinity();
  const double q = (twice(G) / (B + sqrt(disc))).lo();
  return q >= 0x1p-900 ? q : 0.0;
}
}  // namespace detail

// Always inlined, as the lambda of BoundSeparation::separation it replaces was: out of line
// (with BoundedDouble::enclosure), that test took 1.7% more instructions on the paper's scene.
[[gnu::always_inline]] inline double first_root_below(double a, double b, double g) {
  constexpr double small = 0x1p-400, nothing = 0.0, never = std::numeric_limits<double>::infinity();
  if (!(g >= small) || !(g <= 0x1p1000)) return nothing;
  if (!(a == 0 || std::fabs(a) >= small) || !(b == 0 || std::fabs(b) >= small)) return nothing;
  double q = 0;
  if (a >= 0 && b >= 0) {
    q = (2 * g) / (b + std::sqrt(b * b + 4 * a * g));
  } else if (a <= 0 && b <= 0) {
    return never;
  } else if (b < 0) {  // a > 0
    if (!(a <= 0x1p500 && -b <= 0x1p500 && g <= 0x1p500)) return nothing;
    q = (-b + std::sqrt(b * b + 4 * a * g)) / (2 * a);
  } else {  // a < 0 < b
    return detail::first_root_below_concave(a, b, g);
  }
  if (!(q >= 0x1p-900)) return nothing;
  return q * (1 - 0x1p-50);
}

}  // namespace kds
