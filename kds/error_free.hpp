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

/// The sign of the exact sum of `terms` (finite doubles whose partial sums do not
/// overflow): Shewchuk's Grow-Expansion with zero elimination, in a fixed buffer. The
/// expansion's components do not overlap and grow in magnitude, so the last non-zero
/// one has the sum's sign.
template <std::size_t N>
Sign exact_sign_of_sum(const std::array<double, N>& terms) {
  std::array<double, N> expansion{};
  std::size_t length = 0;
  for (double b : terms) {
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

}  // namespace kds
