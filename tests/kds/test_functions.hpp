#pragma once
// Test functions of time for the solver and the simulator tests: a polynomial with exact
// rational coefficients about its own origin t0, seen by the framework through the three
// number types (an outward interval enclosure, rounded doubles, and the exact rationals).

#include <gmpxx.h>

#include <random>
#include <vector>

#include "kds/function.hpp"
#include "kds/interval.hpp"
#include "kds/polynomial.hpp"
#include "kds/sign.hpp"

namespace kds::testing {

/// The sign of a rational, to compare with the framework's exact signs.
inline Sign exact_sign(const Rational& q) { return q > 0 ? Sign::positive : q < 0 ? Sign::negative : Sign::zero; }

/// An interval that contains the rational q (the point q when q is a double).
inline Interval enclose(const Rational& q) {
  const double d = q.get_d();
  if (Rational(d) == q) return Interval(d);
  return Interval(next_down(d), next_up(d));
}

/// f(t) = sum_k c_k (t - t0)^k with rational c_k.
class RationalFunction final : public Function {
 public:
  RationalFunction() = default;
  RationalFunction(Polynomial<Rational> local, double t0 = 0.0) : local_(std::move(local)), t0_(t0) {}

  Polynomial<Interval> interval_polynomial(double origin) const override {
    Polynomial<Interval> p;
    for (int i = local_.degree(); i >= 0; --i) p.set(i, enclose(local_[i]));
    if (origin == t0_) return p;
    return p.shifted(Interval(origin) - Interval(t0_));
  }
  Polynomial<double> double_polynomial(double origin) const override {
    Polynomial<double> p;
    for (int i = local_.degree(); i >= 0; --i) p.set(i, local_[i].get_d());
    if (origin == t0_) return p;
    return p.shifted(origin - t0_);
  }
  Polynomial<Rational> exact_polynomial() const override { return local_.shifted(Rational(-t0_)); }

  const Polynomial<Rational>& local() const { return local_; }

 private:
  Polynomial<Rational> local_;
  double t0_ = 0.0;
};

/// (t - r) as a polynomial in t.
inline Polynomial<Rational> linear_factor(const Rational& r) { return Polynomial<Rational>{Rational(-r), Rational(1)}; }

/// A random double in [lo, hi].
inline double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
inline int uniform_int(std::mt19937_64& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

/// A random rational p/q with small p, q.
inline Rational small_rational(std::mt19937_64& rng, int num = 40, int den = 13) {
  Rational r(uniform_int(rng, -num, num), uniform_int(rng, 1, den));
  r.canonicalize();
  return r;
}

}  // namespace kds::testing
