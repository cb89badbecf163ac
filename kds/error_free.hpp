#pragma once
/// \file
/// Error-free transformations of doubles and the exact sign of a short sum, without
/// allocation: for identities that must hold exactly (two planes through different guards
/// being one plane, say) where building a Rational would cost more than the question.
///
/// Each result is exact under the stated range conditions; a caller that cannot promise
/// them checks `in_error_free_range` first and takes its exact path otherwise.

#include <array>
#include <cmath>
#include <cstddef>

#include "kds/sign.hpp"

namespace kds {

/// s + e = a + b exactly, s = fl(a + b) (Knuth's TwoSum; no overflow).
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bv = s - a;
  e = (a - (s - bv)) + (b - bv);
}

/// p + e = a * b exactly, p = fl(a * b), when the product neither overflows nor is
/// below 2^-969 in magnitude unless it is 0 (then the fma's error term is exact).
inline void two_product(double a, double b, double& p, double& e) {
  p = a * b;
  e = std::fma(a, b, -p);
}

/// Whether a double is finite and either 0 or of magnitude in [2^-450, 2^450]: a product
/// of two such doubles is 0 or in [2^-900, 2^900], exact as two_product's pair, and sums
/// of a few dozen of those products cannot overflow.
inline bool in_error_free_range(double x) {
  const double m = std::fabs(x);
  return x == 0 || (m >= 0x1p-450 && m <= 0x1p450);
}

/// exact_sign_of_sum() below, of the first `count` (at most N) of `terms`.
template <std::size_t N>
Sign exact_sign_of_sum(const double* terms, std::size_t count) {
  std::array<double, N> expansion{};
  std::size_t length = 0;
  for (std::size_t t = 0; t < count; ++t) {
    const double b = terms[t];
    double q = b;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < length; ++i) {
      double s, e;
      two_sum(q, expansion[i], s, e);
      q = s;
      if (e != 0) expansion[kept++] = e;
    }
    if (q != 0) expansion[kept++] = q;
    length = kept;
  }
  if (length == 0) return Sign::zero;
  return expansion[length - 1] > 0 ? Sign::positive : Sign::negative;
}

/// The sign of the exact sum of `terms` (finite doubles whose partial sums do not
/// overflow): Shewchuk's Grow-Expansion with zero elimination, in a fixed buffer. The
/// expansion's components do not overlap and grow in magnitude, so the last non-zero
/// one has the sum's sign.
template <std::size_t N>
Sign exact_sign_of_sum(const std::array<double, N>& terms) {
  return exact_sign_of_sum<N>(terms.data(), N);
}

/// The sign of a[0] b[0] + ... + a[N-1] b[N-1], exactly, for doubles within
/// in_error_free_range (the caller checks). In doubles first: each product and each
/// partial sum rounds by at most 2^-53 of the sum of the products' magnitudes m, so the
/// rounded sum has the exact sign when it lies beyond (2N + 2) 2^-53 m. Otherwise (a sum
/// that cancels: two planes that coincide) the exact sum of the non-zero products' two
/// halves.
template <std::size_t N>
Sign exact_sign_of_dot(const std::array<double, N>& a, const std::array<double, N>& b) {
  double s = 0, m = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const double p = a[i] * b[i];
    s += p;
    m += std::fabs(p);
  }
  const double bound = m * ((2.0 * N + 2) * 0x1p-53);
  if (s > bound) return Sign::positive;
  if (s < -bound) return Sign::negative;
  std::array<double, 2 * N> terms;
  std::size_t count = 0;
  for (std::size_t i = 0; i < N; ++i) {
    if (a[i] == 0 || b[i] == 0) continue;
    two_product(a[i], b[i], terms[count], terms[count + 1]);
    count += 2;
  }
  return exact_sign_of_sum<2 * N>(terms.data(), count);
}

}  // namespace kds
