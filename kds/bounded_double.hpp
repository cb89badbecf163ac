#pragma once
/// \file
/// A double with a bound on its distance to the exact value of the expression it was
/// computed by: a cheaper enclosure than interval arithmetic for a short formula whose
/// inputs are exact doubles. Each operation rounds once to nearest and adds a first-order
/// bound on that rounding to the bounds it inherits; `enclosure()` turns the result into
/// an Interval, with a safety factor for the bound's own roundings and one outward step.
/// An interval operation rounds both ends outward and multiplies four pairs of ends; this
/// rounds one value and keeps one bound (about a third of the instructions).
///
/// The bound of a rounded result s is u |s| (u = 2^-53): round to nearest gives
/// fl(x) = x / (1 + d) with |d| <= u wherever x is in the normal range (Higham,
/// "Accuracy and Stability of Numerical Algorithms", theorem 2.3), so |fl(x) - x| <= u |s|;
/// for |s| >= 2^-1021, u |s| is itself rounded to a double at least half an ulp of s (a
/// power of two, representable there), which is all a sum can lose. A sum below 2^-1021 is
/// exact (its ulp is the smallest subnormal, of which both terms are multiples). Below the normal range a
/// product loses up to half the smallest subnormal (2^-1075) in its own rounding and in
/// each of the three products and the u |p| of its bound, which round to nearest too: every
/// product of two non-zero values adds 2^-1072 > 4 * 2^-1075 for them (a review found that
/// one 2^-1074 was not enough: a bound of 2^-1074 on an error of almost 2^-1073, doubled
/// then, missed). Exact zeros stay exact (a zero bound), as interval arithmetic keeps
/// [0, 0], so that polynomials built from either trim the same zero leading coefficients.
///
/// Overflow gives an infinite value or bound; `enclosure()` then reports failure and the
/// caller uses intervals.

#include <cmath>
#include <limits>
#include <optional>

#include "kds/interval.hpp"

namespace kds {

struct BoundedDouble {
  static constexpr double u = 0x1p-53;
  static constexpr double underflow = 0x1p-1072;  // what a product's roundings may lose below the normal range

  double v = 0;  ///< the value computed in doubles
  double e = 0;  ///< |v - exact| <= e, up to the bound's own first-order roundings

  constexpr BoundedDouble() = default;
  constexpr BoundedDouble(double x) : v(x) {}  // NOLINT: implicit, like a number type; exact
  constexpr BoundedDouble(double value, double bound) : v(value), e(bound) {}

  bool exact_zero() const { return v == 0 && e == 0; }

  // Always inlined: a call per operation would cost as much as the operation.
  [[gnu::always_inline]] friend inline BoundedDouble operator+(BoundedDouble a, BoundedDouble b) {
    const double s = a.v + b.v;
    return {s, a.e + b.e + u * std::fabs(s)};
  }
  [[gnu::always_inline]] friend inline BoundedDouble operator-(BoundedDouble a, BoundedDouble b) {
    const double s = a.v - b.v;
    return {s, a.e + b.e + u * std::fabs(s)};
  }
  [[gnu::always_inline]] friend inline BoundedDouble operator-(BoundedDouble a) { return {-a.v, a.e}; }
  [[gnu::always_inline]] friend inline BoundedDouble operator*(BoundedDouble a, BoundedDouble b) {
    if (a.exact_zero() || b.exact_zero()) return {};
    const double p = a.v * b.v;
    return {p, std::fabs(a.v) * b.e + std::fabs(b.v) * a.e + a.e * b.e + u * std::fabs(p) + underflow};
  }

  /// An interval that contains the exact value, or nothing when the value or its bound
  /// overflowed. The factor 1.0625 covers the roundings of the bound itself (each a
  /// relative u, fewer than 10^13 of them) and the second-order terms left out above.
  /// Always inlined: with a third caller (PlaneSide::clearance) GCC put it out of line,
  /// and the pair's separation test took 1.7% more instructions (callgrind, paper's scene).
  [[gnu::always_inline]] std::optional<Interval> enclosure() const {
    if (e == 0) {  // exact, unless 2 x overflowed (found by review)
      if (!(std::fabs(v) <= std::numeric_limits<double>::max())) return std::nullopt;
      return Interval(v);
    }
    const double E = 1.0625 * e;
    const double lo = v - E, hi = v + E;
    if (!(std::fabs(lo) <= std::numeric_limits<double>::max() && std::fabs(hi) <= std::numeric_limits<double>::max()))
      return std::nullopt;
    return Interval(next_down(lo), next_up(hi));
  }
};

// Free functions (not hidden friends), so that kds::square, kds::twice and kds::is_zero
// called by qualified name in the polynomial templates find them.
[[gnu::always_inline]] inline BoundedDouble square(BoundedDouble a) {
  if (a.exact_zero()) return {};
  const double p = a.v * a.v;
  return {p, (2 * std::fabs(a.v) + a.e) * a.e + BoundedDouble::u * p + BoundedDouble::underflow};
}
/// 2 x: exact (an overflow shows in the value).
[[gnu::always_inline]] inline BoundedDouble twice(BoundedDouble a) { return {2 * a.v, 2 * a.e}; }
inline bool is_zero(BoundedDouble a) { return a.exact_zero(); }

}  // namespace kds
