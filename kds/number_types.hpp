#pragma once
/// \file
/// The three number types a certificate function is evaluated in, and the few
/// operations the framework needs on each of them.
///
/// - `double`: the floating-point-only mode (fast, may be wrong on degenerate input);
/// - `kds::Interval`: the filter (always right when it decides);
/// - `kds::Rational` (GMP rationals): the exact fallback. Every double is a rational, so
///   a certificate function evaluated in Rational over double motion coefficients is exact;
/// - `kds::Dyadic` (kds/dyadic.hpp): exact too, for functions of doubles only, without the
///   gcd of every rational operation: exact evaluations at doubles;
/// - `kds::BoundedDouble` (kds/bounded_double.hpp): a double and a bound on its error, a
///   cheaper enclosure than an interval for short formulas (the pair quartic).

#include <gmpxx.h>

#include <cmath>

#include "kds/bounded_double.hpp"
#include "kds/double_double_ball.hpp"
#include "kds/dyadic.hpp"
#include "kds/interval.hpp"

namespace kds {

using Rational = mpq_class;

/// How failure times are computed and compared.
enum class Exactness {
  filtered,  ///< interval filter first, exact algebraic fallback: always right (the default)
  floating,  ///< doubles only, for comparison: the same algorithms without the guarantee
};

inline bool is_zero(double x) { return x == 0.0; }
inline bool is_zero(const Interval& x) { return x.certainly_zero(); }
inline bool is_zero(const Rational& x) { return sgn(x) == 0; }

inline bool is_finite(double x) { return std::isfinite(x); }
inline bool is_finite(const Interval& x) { return x.is_finite(); }
inline bool is_finite(const Rational&) { return true; }

/// x^2 and 2 x in any number type (kds::Interval has its own, narrower ones).
template <class NT>
NT square(const NT& x) {
  return NT(x * x);
}
template <class NT>
NT twice(const NT& x) {
  return NT(x + x);
}

/// Converts a double to each number type (exactly).
template <class NT>
NT from_double(double x) {
  return NT(x);
}

}  // namespace kds
