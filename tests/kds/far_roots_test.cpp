// Failure times at the far end of the doubles (issue 12, item 1): a wall reached at a
// subnormal speed lies beyond the largest double, which must read as "never" without
// converting an infinite bound to a rational (GMP raises SIGFPE on it); a root just
// inside the doubles is still found, with a finite isolating interval; and the exact path
// steps over roots beyond the doubles.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kds/solver.hpp"
#include "test_functions.hpp"

namespace kds::testing {
namespace {

constexpr double kLargest = std::numeric_limits<double>::max();

Polynomial<Rational> linear(const Rational& c0, const Rational& c1) {
  Polynomial<Rational> p;
  p.set(0, c0);
  p.set(1, c1);
  return p;
}

TEST(FarRoots, AFailureBeyondTheDoublesIsNever) {
  for (double speed : {5e-324, 1e-323, 2.2250738585072014e-308 / 4}) {
    const RationalFunction f(linear(4, -Rational(speed)));  // 4 - speed t: root near 1e324
    for (Exactness mode : {Exactness::filtered, Exactness::floating}) {
      const Root r = first_failure(f, Root::at(0.0), Birth::generic, mode);
      EXPECT_TRUE(r.is_infinite()) << "speed " << speed << ": " << r;
    }
  }
}

TEST(FarRoots, AFailureJustInsideTheDoublesIsFoundWithAFiniteInterval) {
  // 1 - t / x with x = 1.5 * 2^1023, a double near 1.35e308: the root is x exactly.
  const Rational x = Rational(std::ldexp(1.5, 1023));
  const RationalFunction f(linear(1, -1 / x));  // 1 - t / x
  const Root r = first_failure(f, Root::at(0.0));
  ASSERT_FALSE(r.is_infinite());
  EXPECT_TRUE(std::isfinite(r.hi())) << r;
  EXPECT_EQ(ceil_to_double(r), std::ldexp(1.5, 1023));
  EXPECT_LT(compare(Root::at(1e308), r), 0);
  EXPECT_EQ(compare(r, Root::at(std::ldexp(1.5, 1023))), 0);
  // A root between the last two doubles: still a failure, before the largest one.
  const Rational y = (Rational(kLargest) + Rational(next_down(kLargest))) / 2;
  const RationalFunction g(linear(1, -1 / y));
  const Root s = first_failure(g, Root::at(0.0));
  ASSERT_FALSE(s.is_infinite());
  EXPECT_LE(s.hi(), kLargest);
  EXPECT_EQ(ceil_to_double(s), kLargest);
}

TEST(FarRoots, TheExactPathStepsOverRootsBeyondTheDoubles) {
  // (t - 1)^2 (1 - t / 10^400): touches zero at t = 1 (no failure; the filter cannot
  // decide a double root), then fails at 10^400, beyond the doubles: never.
  mpz_class big;
  mpz_ui_pow_ui(big.get_mpz_t(), 10, 400);
  const Rational inv = Rational(1) / Rational(big);
  Polynomial<Rational> p;  // (t^2 - 2 t + 1) (1 - inv t)
  p.set(0, 1);
  p.set(1, -2 - inv);
  p.set(2, 1 + 2 * inv);
  p.set(3, -inv);
  const RationalFunction f(p);
  EXPECT_TRUE(first_failure(f, Root::at(0.0)).is_infinite());
  EXPECT_EQ(sign_just_after(f, Root::at(2.0)), Sign::positive);
  // The same with a failure inside the doubles after the far root is irrelevant: the
  // first failure is at 3 when the factor (3 - t) is added.
  Polynomial<Rational> q;
  for (int i = 0; i <= 3; ++i) {
    q.set(i, q[i] + 3 * p[i]);
    q.set(i + 1, q[i + 1] - p[i]);
  }
  const RationalFunction g(q);
  const Root r = first_failure(g, Root::at(0.0));
  ASSERT_FALSE(r.is_infinite());
  EXPECT_EQ(compare(r, Root::at(3.0)), 0) << r;
}

}  // namespace
}  // namespace kds::testing
