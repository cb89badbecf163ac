#pragma once
/// \file
/// A closed interval of doubles with outward rounding: the number type of the filter.
///
/// Every operation returns an interval guaranteed to contain the exact result for all
/// values in its operands. Rounding is outward by one ulp after each inexact operation
/// (no rounding-mode switches, so it is cheap and portable). A sum that is exactly zero
/// stays the point zero (x + y rounds to 0 only when x == -y, gradual underflow included),
/// and so does a product with an exactly zero factor, so a coefficient that cancels
/// exactly is recognised as zero and the degree of a polynomial drops.

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>

#include "kds/sign.hpp"

namespace kds {

/// The next double above x; used for outward rounding (next_up(-inf) is the lowest double).
/// One step of the bit pattern of x, read as a signed integer: up when it is >= +0, down
/// when it is < 0, taken without a branch on the sign (1 or -1 from the sign bit): in
/// interval arithmetic the signs of the bounds are a coin toss, and a branch on them
/// mispredicted often. -0 is made +0 first (in the integer, so that no rounding mode or
/// compiler flag on signed zeros changes it), so both zeros step to the smallest subnormal;
/// -inf steps down to the lowest double; only +inf and NaN (returned as they are) branch.
/// (Zeros and infinities used to take a call out of line: bounds of exactly zero and
/// infinite limits were frequent enough in the filter that the call took about 4% of the
/// Kim-Guibas-Shin scene with unknown trajectories.)
[[gnu::always_inline]] inline double next_up(double x) {
  if (!(x < std::numeric_limits<double>::infinity())) [[unlikely]]
    return x;  // +inf, NaN
  auto bits = std::bit_cast<std::int64_t>(x);
  constexpr std::int64_t minus_zero = std::numeric_limits<std::int64_t>::min();
  bits &= ~(std::int64_t{bits == minus_zero} << 63);
  return std::bit_cast<double>(bits + (1 | (bits >> 63)));
}
/// The next double below x (next_down(+inf) is the largest double).
[[gnu::always_inline]] inline double next_down(double x) { return -next_up(-x); }

class Interval {
 public:
  constexpr Interval() = default;
  constexpr Interval(double x) : lo_(x), hi_(x) {}  // NOLINT: implicit, like a number type
  constexpr Interval(double lo, double hi) : lo_(lo), hi_(hi) {}

  constexpr double lo() const { return lo_; }
  constexpr double hi() const { return hi_; }
  constexpr double width() const { return hi_ - lo_; }
  constexpr double mid() const { return 0.5 * (lo_ + hi_); }
  constexpr bool is_point() const { return lo_ == hi_; }

  bool certainly_positive() const { return lo_ > 0; }
  bool certainly_negative() const { return hi_ < 0; }
  bool certainly_zero() const { return lo_ == 0 && hi_ == 0; }
  bool sign_known() const { return lo_ > 0 || hi_ < 0 || certainly_zero(); }
  /// The sign, or Sign::unknown when the interval straddles zero.
  Sign sign() const {
    return lo_ > 0 ? Sign::positive : hi_ < 0 ? Sign::negative : certainly_zero() ? Sign::zero : Sign::unknown;
  }
  bool is_finite() const { return std::isfinite(lo_) && std::isfinite(hi_); }

  friend Interval operator-(Interval a) { return {-a.hi_, -a.lo_}; }
  // Always inlined, like the product below: GCC kept sum and difference out of line in the
  // order certificate's function (5% of the sorted list's instructions).
  [[gnu::always_inline]] friend inline Interval operator+(Interval a, Interval b) {
    return {round_down(a.lo_ + b.lo_), round_up(a.hi_ + b.hi_)};
  }
  [[gnu::always_inline]] friend inline Interval operator-(Interval a, Interval b) {
    return {round_down(a.lo_ - b.hi_), round_up(a.hi_ - b.lo_)};
  }
  // Always inlined: it is the inner loop of every interval polynomial (a call per product
  // cost the sorted list 7% of its instructions when the compiler stopped inlining it).
  [[gnu::always_inline]] friend inline Interval operator*(Interval a, Interval b) {
    if (a.certainly_zero() || b.certainly_zero()) return Interval(0.0);
    // Two points too (the four products are then one): a branch on is_point() cost more
    // than the three products it saved, points and intervals being mixed in polynomials.
    // A product that underflowed to 0 still becomes [-denorm_min, denorm_min].
    const double p1 = a.lo_ * b.lo_, p2 = a.lo_ * b.hi_, p3 = a.hi_ * b.lo_, p4 = a.hi_ * b.hi_;
    // NaN only from 0 * inf: one test of the sum (NaN also when infinities of both signs
    // add up, which is rare and fine) instead of a NaN test per product.
    const double sum = p1 + p2 + p3 + p4;
    if (sum != sum) [[unlikely]]
      return {next_down(min4(p1, p2, p3, p4)), next_up(max4(p1, p2, p3, p4))};
    const double x = p1 < p2 ? p1 : p2, y = p3 < p4 ? p3 : p4, X = p1 > p2 ? p1 : p2, Y = p3 > p4 ? p3 : p4;
    return {next_down(x < y ? x : y), next_up(X > Y ? X : Y)};
  }
  /// x^2: never negative, and one rounding per bound (x * x is a general product: four
  /// products, and a negative lower bound when x straddles zero).
  [[gnu::always_inline]] friend inline Interval square(Interval a) {
    if (a.certainly_zero()) return Interval(0.0);
    const double l = a.lo_ * a.lo_, h = a.hi_ * a.hi_;
    const double big = l > h ? l : h, small = l < h ? l : h;
    // A product that underflowed to 0 still gets the upper bound denorm_min.
    const bool straddles = !(a.lo_ > 0 || a.hi_ < 0);
    return {straddles || small == 0 ? 0.0 : next_down(small), next_up(big)};
  }
  /// 2 x, exactly (a doubling only changes the exponent). On overflow the outer bound is
  /// infinite and the inner one the largest double, as the other operations round it: a
  /// lower bound of +infinity would not contain the finite value.
  friend Interval twice(Interval a) {
    constexpr double max = std::numeric_limits<double>::max();
    const double l = 2 * a.lo_, h = 2 * a.hi_;
    return {l > max ? max : l, h < -max ? -max : h};
  }
  /// Division; the divisor must not contain zero (the caller checks).
  friend Interval operator/(Interval a, Interval b) {
    if (a.certainly_zero()) return Interval(0.0);
    double q1 = a.lo_ / b.lo_, q2 = a.lo_ / b.hi_, q3 = a.hi_ / b.lo_, q4 = a.hi_ / b.hi_;
    return {next_down(min4(q1, q2, q3, q4)), next_up(max4(q1, q2, q3, q4))};
  }
  /// a / b for a and b certainly positive: operator/'s bounds, bit for bit, from two of
  /// its four divisions (the quotient is least at a.lo / b.hi and greatest at a.hi / b.lo,
  /// rounding being monotonic). Other operands take operator/.
  friend Interval divide_positive(Interval a, Interval b) {
    if (!(a.lo_ > 0 && b.lo_ > 0)) return a / b;
    return {next_down(unnan(a.lo_ / b.hi_)), next_up(unnan(a.hi_ / b.lo_))};
  }
  Interval& operator+=(Interval b) { return *this = *this + b; }
  Interval& operator-=(Interval b) { return *this = *this - b; }
  Interval& operator*=(Interval b) { return *this = *this * b; }

  /// Square root of the non-negative part.
  friend Interval sqrt(Interval a) {
    double lo = a.lo_ <= 0 ? 0.0 : round_down(std::sqrt(a.lo_));
    return {lo < 0 ? 0.0 : lo, round_up(std::sqrt(std::fmax(a.hi_, 0.0)))};
  }
  /// The convex hull of two intervals.
  friend Interval hull(Interval a, Interval b) { return {std::fmin(a.lo_, b.lo_), std::fmax(a.hi_, b.hi_)}; }
  friend std::ostream& operator<<(std::ostream& os, Interval a) { return os << '[' << a.lo_ << ", " << a.hi_ << ']'; }

 private:
  // Plain comparisons (std::fmin is a library call). 0 * inf is NaN; in interval
  // arithmetic that product is 0 (the zero bound wins), so NaN counts as 0.
  static double unnan(double x) { return x == x ? x : 0.0; }
  static double min4(double a, double b, double c, double d) {
    a = unnan(a), b = unnan(b), c = unnan(c), d = unnan(d);
    double x = a < b ? a : b, y = c < d ? c : d;
    return x < y ? x : y;
  }
  static double max4(double a, double b, double c, double d) {
    a = unnan(a), b = unnan(b), c = unnan(c), d = unnan(d);
    double x = a > b ? a : b, y = c > d ? c : d;
    return x > y ? x : y;
  }
  // An exact zero stays zero; any other result is widened by one ulp.
  // Always inlined: GCC made them out-of-line clones, 5% of the sorted list's instructions
  // after the lean path (docs/benchmarks/event-cost.md, "After the lean core path").
  [[gnu::always_inline]] static double round_down(double x) { return x == 0 ? 0.0 : next_down(x); }
  [[gnu::always_inline]] static double round_up(double x) { return x == 0 ? 0.0 : next_up(x); }
  double lo_ = 0, hi_ = 0;
};

}  // namespace kds
