#pragma once
/// \file
/// A polynomial of degree at most 4 on the stack, with exactly kds::Polynomial's
/// operations (the same coefficient loops in the same order, the same trimming of zero
/// leading coefficients), so that a function built from it is bit for bit the one built
/// from Polynomial: the same failure times, the same isolating intervals (the determinism
/// hashes compare them). It exists for speed: BoundSeparation's quartic (eq. 10 of Kim,
/// Guibas, Shin) built from Polynomial temporaries of nine coefficients each, their
/// zeroing and copies, took about a fifth of the unknown-trajectory scene's time
/// (docs/benchmarks/event-cost.md, "After item 4, second round").

#include <algorithm>
#include <array>
#include <initializer_list>

#include "kds/line.hpp"
#include "kds/number_types.hpp"
#include "kds/polynomial.hpp"

namespace kds {

template <class NT>
struct ShortPolynomial {
  static constexpr int max_degree = 4;
  std::array<NT, max_degree + 1> c{};
  int degree = -1;

  ShortPolynomial() = default;
  /// Polynomial(c): a constant.
  explicit ShortPolynomial(const NT& c0) {
    c[0] = c0;
    trim(0);
  }
  /// Polynomial{c0, c1, ...}: at most three coefficients here (a bound's radius).
  ShortPolynomial(std::initializer_list<NT> coeffs) {
    int i = 0;
    for (const NT& x : coeffs) c[i++] = x;
    trim(i - 1);
  }
  explicit ShortPolynomial(const Line<NT>& l) {
    c[0] = l.c0;
    c[1] = l.c1;
    degree = l.degree;
  }

  /// As kds::Polynomial's: added up to the lower degree, the longer one's copied above it.
  friend ShortPolynomial operator+(const ShortPolynomial& a, const ShortPolynomial& b) {
    ShortPolynomial q;
    const int common = std::min(a.degree, b.degree), d = std::max(a.degree, b.degree);
    for (int i = 0; i <= common; ++i) q.c[i] = NT(a.c[i] + b.c[i]);
    const ShortPolynomial& longer = a.degree >= b.degree ? a : b;
    for (int i = common + 1; i <= d; ++i) q.c[i] = longer.c[i];
    q.trim(d);
    return q;
  }
  friend ShortPolynomial operator-(const ShortPolynomial& a, const ShortPolynomial& b) {
    ShortPolynomial q;
    const int common = std::min(a.degree, b.degree), d = std::max(a.degree, b.degree);
    for (int i = 0; i <= common; ++i) q.c[i] = NT(a.c[i] - b.c[i]);
    for (int i = common + 1; i <= d; ++i) q.c[i] = a.degree >= b.degree ? a.c[i] : NT(-b.c[i]);
    q.trim(d);
    return q;
  }
  /// The caller keeps the degree of the product within max_degree.
  friend ShortPolynomial operator*(const ShortPolynomial& a, const ShortPolynomial& b) {
    ShortPolynomial q;
    if (a.degree < 0 || b.degree < 0) return q;
    for (int i = 0; i <= a.degree; ++i)
      for (int j = 0; j <= b.degree; ++j) q.c[i + j] = NT(q.c[i + j] + a.c[i] * b.c[j]);
    q.trim(a.degree + b.degree);
    return q;
  }

  /// p * p as kds::Polynomial's square(), bit for bit. The caller keeps 2 degree within
  /// max_degree.
  friend ShortPolynomial square(const ShortPolynomial& a) {
    ShortPolynomial q;
    if (a.degree < 0) return q;
    square_coefficients<NT>(a.c, a.degree, q.c);
    q.trim(2 * a.degree);
    return q;
  }

  Polynomial<NT> polynomial() const { return Polynomial<NT>::from_range(c.begin(), c.begin() + (degree + 1)); }

 private:
  void trim(int d) {
    while (d >= 0 && kds::is_zero(c[d])) --d;
    degree = d < 0 ? -1 : d;
  }
};

}  // namespace kds
