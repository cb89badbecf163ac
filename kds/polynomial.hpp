#pragma once
/// \file
/// Univariate polynomials in time, generic in the number type.
///
/// Coefficients live in a fixed array (degree at most `Polynomial::max_degree`), so that
/// building a certificate function allocates nothing when the number type does not.
/// A polynomial knows nothing of its variable: the framework evaluates certificate
/// functions in a local variable s = t - origin (see kds/function.hpp).

#include <algorithm>
#include <array>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "kds/number_types.hpp"

namespace kds {

namespace detail {
/// square_coefficients' loop; D is the degree, or -1 when it is only known at run time
/// (then d). With D known the compiler unrolls it: the loop bounds and the "any" flags
/// vanish (the out-of-line loop was 10% of the unknown-trajectory scene's samples).
template <class NT, int D, class In, class Out>
[[gnu::always_inline]] inline void square_loop(const In& c, int d, Out& out) {
  if constexpr (D >= 0) d = D;
  for (int k = 0; k <= 2 * d; ++k) {
    NT cross{};
    bool any = false;
    for (int i = std::max(0, k - d); 2 * i < k; ++i) {
      const NT p = NT(c[i] * c[k - i]);
      cross = any ? NT(cross + p) : p;
      any = true;
    }
    if (k % 2 == 1) out[k] = twice(cross);
    else if (any) out[k] = NT(twice(cross) + square(c[k / 2]));
    else out[k] = square(c[k / 2]);
  }
}
}  // namespace detail

/// The coefficients of p^2 from p's coefficients c[0..d] into out[0..2d]: each square
/// once and each cross product once, doubled (p * p makes (d + 1)^2 products and as many
/// sums; this makes (d + 1)(d + 2) / 2 products). In intervals it is also narrower: a
/// square is never negative, c_i c_j + c_j c_i is one product doubled exactly, and no
/// sum starts from zero. Polynomial and ShortPolynomial both square through it, so that
/// their results are the same bit for bit (the unrolled degrees do the same operations in
/// the same order as the general loop).
template <class NT, class In, class Out>
void square_coefficients(const In& c, int d, Out& out) {
  switch (d) {
    case 0: return detail::square_loop<NT, 0>(c, d, out);
    case 1: return detail::square_loop<NT, 1>(c, d, out);
    case 2: return detail::square_loop<NT, 2>(c, d, out);
    default: return detail::square_loop<NT, -1>(c, d, out);
  }
}

template <class NT>
class Polynomial {
 public:
  static constexpr int max_degree = 8;

  /// The zero polynomial.
  Polynomial() = default;
  /// A constant.
  Polynomial(const NT& c) { c_[0] = c; trim(0); }  // NOLINT: implicit, like a number
  /// Coefficients from the constant term up: {c0, c1, c2} is c0 + c1 s + c2 s^2.
  Polynomial(std::initializer_list<NT> coeffs) {
    if (coeffs.size() > max_degree + 1) throw std::length_error("kds::Polynomial: degree above max_degree");
    int i = 0;
    for (const NT& c : coeffs) c_[i++] = c;
    trim(i - 1);
  }
  /// c0 + c1 s, without the loop of the list constructor (the hot path of linear motions).
  [[gnu::always_inline]] static Polynomial linear(const NT& c0, const NT& c1) {
    Polynomial p;
    p.c_[0] = c0;
    p.c_[1] = c1;
    p.trim(1);
    return p;
  }
  template <class It>
  static Polynomial from_range(It first, It last) {
    Polynomial p;
    int i = 0;
    for (; first != last; ++first, ++i) {
      if (i > max_degree) throw std::length_error("kds::Polynomial: degree above max_degree");
      p.c_[i] = NT(*first);
    }
    p.trim(i - 1);
    return p;
  }

  /// Degree; -1 for the zero polynomial. For intervals, a coefficient that is not
  /// certainly zero counts, so the degree is an upper bound of the exact degree.
  int degree() const { return degree_; }
  bool is_zero() const { return degree_ < 0; }
  const NT& operator[](int i) const { return c_[i]; }
  const NT& leading() const { return c_[std::max(degree_, 0)]; }
  void set(int i, const NT& v) {
    if (i > max_degree) throw std::length_error("kds::Polynomial: degree above max_degree");
    c_[i] = v;
    trim(std::max(degree_, i));
  }

  /// Value at x, by Horner's rule.
  template <class X>
  NT operator()(const X& x) const {
    if (degree_ < 0) return NT(0);
    NT r = c_[degree_];
    for (int i = degree_ - 1; i >= 0; --i) r = NT(r * x + c_[i]);
    return r;
  }

  Polynomial derivative() const {
    Polynomial d;
    for (int i = 1; i <= degree_; ++i) d.c_[i - 1] = NT(c_[i] * NT(double(i)));
    d.trim(degree_ - 1);
    return d;
  }

  /// q(s) = p(s + h): the same polynomial about a new origin (Taylor shift).
  Polynomial shifted(const NT& h) const {
    Polynomial q = *this;
    for (int k = 0; k < degree_; ++k)
      for (int i = degree_ - 1; i >= k; --i) q.c_[i] = NT(q.c_[i] + h * q.c_[i + 1]);
    q.trim(degree_);
    return q;
  }

  friend Polynomial operator-(const Polynomial& p) {
    Polynomial q;
    for (int i = 0; i <= p.degree_; ++i) q.c_[i] = NT(-p.c_[i]);
    q.degree_ = p.degree_;
    return q;
  }
  /// Sums and differences add coefficients up to the lower degree and copy the others:
  /// an interval plus an exact zero would be widened by an ulp (kds/interval.hpp widens
  /// every sum), and then two keys of one acceleration, each a motion plus a constant
  /// offset, would leave a t^2 term of two ulps in their difference that the filter
  /// cannot call zero. kds/line.hpp does the same.
  friend Polynomial operator+(const Polynomial& a, const Polynomial& b) {
    Polynomial q;
    const int common = std::min(a.degree_, b.degree_), d = std::max(a.degree_, b.degree_);
    for (int i = 0; i <= common; ++i) q.c_[i] = NT(a.c_[i] + b.c_[i]);
    const Polynomial& longer = a.degree_ >= b.degree_ ? a : b;
    for (int i = common + 1; i <= d; ++i) q.c_[i] = longer.c_[i];
    q.trim(d);
    return q;
  }
  friend Polynomial operator-(const Polynomial& a, const Polynomial& b) {
    Polynomial q;
    const int common = std::min(a.degree_, b.degree_), d = std::max(a.degree_, b.degree_);
    for (int i = 0; i <= common; ++i) q.c_[i] = NT(a.c_[i] - b.c_[i]);
    for (int i = common + 1; i <= d; ++i) q.c_[i] = a.degree_ >= b.degree_ ? a.c_[i] : NT(-b.c_[i]);
    q.trim(d);
    return q;
  }
  friend Polynomial operator*(const Polynomial& a, const Polynomial& b) {
    Polynomial q;
    if (a.degree_ < 0 || b.degree_ < 0) return q;
    int d = a.degree_ + b.degree_;
    if (d > max_degree)
      throw std::length_error("kds::Polynomial: product of degree " + std::to_string(d) + " above max_degree");
    for (int i = 0; i <= a.degree_; ++i)
      for (int j = 0; j <= b.degree_; ++j) q.c_[i + j] = NT(q.c_[i + j] + a.c_[i] * b.c_[j]);
    q.trim(d);
    return q;
  }
  /// p * p, with half the products (square_coefficients).
  friend Polynomial square(const Polynomial& p) {
    Polynomial q;
    if (p.degree_ < 0) return q;
    if (2 * p.degree_ > max_degree)
      throw std::length_error("kds::Polynomial: square of degree " + std::to_string(2 * p.degree_) + " above max_degree");
    square_coefficients<NT>(p.c_, p.degree_, q.c_);
    q.trim(2 * p.degree_);
    return q;
  }
  friend Polynomial operator*(const NT& k, const Polynomial& p) {
    Polynomial q;
    for (int i = 0; i <= p.degree_; ++i) q.c_[i] = NT(k * p.c_[i]);
    q.trim(p.degree_);
    return q;
  }
  Polynomial& operator+=(const Polynomial& b) { return *this = *this + b; }
  Polynomial& operator-=(const Polynomial& b) { return *this = *this - b; }
  Polynomial& operator*=(const Polynomial& b) { return *this = *this * b; }

  /// True when every coefficient is finite (NaN and infinities are bad input).
  bool all_finite() const {
    for (int i = 0; i <= degree_; ++i)
      if (!kds::is_finite(c_[i])) return false;
    return true;
  }

 private:
  void trim(int d) {
    while (d >= 0 && kds::is_zero(c_[d])) --d;
    degree_ = d < 0 ? -1 : d;  // the zero polynomial (also for the derivative of a constant or zero)
  }
  std::array<NT, max_degree + 1> c_{};
  int degree_ = -1;
};

/// Converts the coefficients of a double polynomial to another number type, exactly.
template <class NT>
Polynomial<NT> convert(const Polynomial<double>& p) {
  Polynomial<NT> q;
  for (int i = p.degree(); i >= 0; --i) q.set(i, NT(p[i]));
  return q;
}

/// The exact value of a dyadic polynomial as a rational one. Certificate and key functions
/// of double motions are dyadic: computing them in Dyadic (no gcd, no allocation for a
/// zero) and converting once is several times cheaper than computing them in mpq, whose
/// every operation canonicalizes (FunctionOf::exact_polynomial, KeyOf::rational_function).
inline Polynomial<Rational> to_rational(const Polynomial<Dyadic>& p) {
  Polynomial<Rational> q;
  for (int i = p.degree(); i >= 0; --i) q.set(i, p[i].to_rational());
  return q;
}

}  // namespace kds
