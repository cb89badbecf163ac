#pragma once
/// \file
/// Double-double balls: a number known to lie within r of h + l (two doubles, about 106
/// bits, and a radius). The filter between intervals and exact dyadic arithmetic for the
/// signs of certificate functions at doubles.
///
/// Why: rounding the clock to a double (Simulator::round_clock, ceil_to_double) bisects
/// on doubles around a root, where interval arithmetic (53 bits) can no longer tell the
/// sign; each undecided step used to evaluate the exact polynomial in kds::Dyadic (GMP
/// integers, an allocation per operation), and that was 12% of the instructions of the
/// Kim-Guibas-Shin scene. A certificate's function in double-double balls, built with the
/// same template as its other number types, decides those signs unless the double is
/// within about 2^-100 (relative to the terms that cancel) of the root: only exact roots
/// at doubles are left to the exact path.
///
/// The arithmetic is rigorous, not just accurate. Sums and products of the leading parts
/// are exact (two_sum, and two_prod by fma); the rest is rounded to nearest, and every
/// rounding error is bounded (|fl(x) - x| <= 2^-53 |fl(x)| for normal results, plus
/// 2^-1075 for a product that underflows) and added to the radius, with the radius's own
/// rounding covered by a relative margin of 2^-48 and an absolute one of 2^-1064. An
/// overflow makes the ball non-finite, and its sign unknown.
///
/// Only +, - and * (what certificate functions are made of, as for Dyadic); a function
/// whose Dyadic version is not exact (exact_in_dyadic false) is not exact here either.

#include <cmath>

#include "kds/error_free.hpp"
#include "kds/sign.hpp"

namespace kds {

class DoubleDoubleBall {
 public:
  constexpr DoubleDoubleBall() = default;
  DoubleDoubleBall(double x) : h_(x) {}  // NOLINT: implicit, like a number type; exact
  /// x - y, exactly.
  static DoubleDoubleBall difference(double x, double y) {
    DoubleDoubleBall d;
    two_sum(x, -y, d.h_, d.l_);
    return d;
  }

  double head() const { return h_; }
  double tail() const { return l_; }
  double radius() const { return r_; }
  bool finite() const { return std::isfinite(h_) && std::isfinite(l_) && std::isfinite(r_); }
  /// The sign of every number in the ball, or Sign::unknown.
  Sign sign() const {
    if (!finite()) return Sign::unknown;
    if (h_ == 0 && l_ == 0 && r_ == 0) return Sign::zero;
    // h + l - r >= h - (|l| + r) > 0 when the rounded |l| + r is below h / 2.
    if (std::fabs(l_) + r_ < 0.5 * std::fabs(h_)) return h_ > 0 ? Sign::positive : Sign::negative;
    return Sign::unknown;
  }

  // Always inlined: a call per operation cost the written-out functions
  // (BoundSeparation::stored_ball_function) and the Horner evaluations of the clock's
  // rounding 1.3% of the unknown-trajectory scene's instructions (callgrind).
  [[gnu::always_inline]] friend DoubleDoubleBall operator-(const DoubleDoubleBall& a) { return {-a.h_, -a.l_, a.r_}; }
  [[gnu::always_inline]] friend DoubleDoubleBall operator+(const DoubleDoubleBall& a, const DoubleDoubleBall& b) {
    double s, e;
    two_sum(a.h_, b.h_, s, e);  // s + e = a.h + b.h
    const double t = a.l_ + b.l_, t2 = t + e;  // two roundings
    DoubleDoubleBall c;
    two_sum(s, t2, c.h_, c.l_);
    c.r_ = bound(a.r_ + b.r_ + u * (std::fabs(t) + std::fabs(t2)));
    return c;
  }
  [[gnu::always_inline]] friend DoubleDoubleBall operator-(const DoubleDoubleBall& a, const DoubleDoubleBall& b) {
    return a + (-b);
  }
  [[gnu::always_inline]] friend DoubleDoubleBall operator*(const DoubleDoubleBall& a, const DoubleDoubleBall& b) {
    const double p = a.h_ * b.h_;
    const double e = std::fma(a.h_, b.h_, -p);  // p + e = a.h b.h (up to 2^-1075 if it underflows)
    const double c1 = a.h_ * b.l_, c2 = a.l_ * b.h_, c3 = a.l_ * b.l_;  // c3 is dropped, and bounded
    const double c = c1 + c2, t = e + c;
    DoubleDoubleBall q;
    two_sum(p, t, q.h_, q.l_);
    const double rounding = u * (std::fabs(c1) + std::fabs(c2) + std::fabs(c) + std::fabs(t)) + std::fabs(c3);
    const double spread = (std::fabs(a.h_) + std::fabs(a.l_)) * b.r_ + (std::fabs(b.h_) + std::fabs(b.l_)) * a.r_ + a.r_ * b.r_;
    q.r_ = bound(spread + rounding);
    return q;
  }
  /// a b for a double b, exact as given: the general product less the terms of b's tail
  /// and radius (zero), which IEEE arithmetic cannot fold away by itself.
  [[gnu::always_inline]] friend DoubleDoubleBall operator*(const DoubleDoubleBall& a, double b) {
    const double p = a.h_ * b;
    const double e = std::fma(a.h_, b, -p);  // p + e = a.h b (up to 2^-1075 if it underflows)
    const double c = a.l_ * b, t = e + c;
    DoubleDoubleBall q;
    two_sum(p, t, q.h_, q.l_);
    q.r_ = bound(std::fabs(b) * a.r_ + u * (std::fabs(c) + std::fabs(t)));
    return q;
  }
  DoubleDoubleBall& operator+=(const DoubleDoubleBall& b) { return *this = *this + b; }
  DoubleDoubleBall& operator-=(const DoubleDoubleBall& b) { return *this = *this - b; }
  DoubleDoubleBall& operator*=(const DoubleDoubleBall& b) { return *this = *this * b; }

 private:
  DoubleDoubleBall(double h, double l, double r) : h_(h), l_(l), r_(r) {}
  static constexpr double u = 0x1p-53;
  /// An upper bound of a non-negative error sum computed with a dozen roundings to
  /// nearest, some of them possibly in the subnormal range.
  static double bound(double x) { return x * (1 + 0x1p-48) + 0x1p-1064; }

  double h_ = 0, l_ = 0, r_ = 0;
};

inline bool is_zero(const DoubleDoubleBall& x) { return x.sign() == Sign::zero; }
inline bool is_finite(const DoubleDoubleBall& x) { return x.finite(); }

}  // namespace kds
