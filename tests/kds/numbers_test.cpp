// Interval arithmetic, polynomials and motions: outward rounding contains the exact result,
// exact zeros stay zero, Taylor shift, derivative, degree trimming, degree overflow, and
// motions rejecting NaN and infinite coefficients with a message that names them.
#include <gtest/gtest.h>

#include <bit>

#include <cfenv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "kds/bounded_double.hpp"
#include "kds/errors.hpp"
#include "kds/interval.hpp"
#include "kds/motion.hpp"
#include "kds/polynomial.hpp"
#include "test_functions.hpp"
#include "test_seed.hpp"

namespace {

using kds::Interval;
using kds::Polynomial;
using kds::Rational;
using kds::testing::uniform;
using kds::testing::uniform_int;

/// x contains q (infinite bounds are unbounded; NaN bounds contain nothing).
bool contains(const Interval& x, const Rational& q) {
  if (std::isnan(x.lo()) || std::isnan(x.hi())) return false;
  const bool above_lo = x.lo() == -std::numeric_limits<double>::infinity() ||
                        (x.lo() != std::numeric_limits<double>::infinity() && Rational(x.lo()) <= q);
  const bool below_hi = x.hi() == std::numeric_limits<double>::infinity() ||
                        (x.hi() != -std::numeric_limits<double>::infinity() && q <= Rational(x.hi()));
  return above_lo && below_hi;
}

/// A random double over many magnitudes, with both signs, zero and subnormals now and then.
double random_double(std::mt19937_64& rng) {
  switch (uniform_int(rng, 0, 9)) {
    case 0: return 0.0;
    case 1: return std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -1074, -1020));  // subnormal-ish
    case 2: return std::ldexp(uniform(rng, -1, 1), uniform_int(rng, 900, 1000));     // huge
    case 3: return static_cast<double>(uniform_int(rng, -5, 5));
    default: return std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -60, 60));
  }
}

Interval random_interval(std::mt19937_64& rng) {
  double a = random_double(rng), b = uniform_int(rng, 0, 2) == 0 ? a : random_double(rng);
  if (std::fabs(a) > 1e300 || std::fabs(b) > 1e300) b = a;  // keep the products finite
  return Interval(std::fmin(a, b), std::fmax(a, b));
}

TEST(Interval, NextUpAndDown) {
  EXPECT_GT(kds::next_up(1.0), 1.0);
  EXPECT_EQ(kds::next_up(1.0), std::nextafter(1.0, 2.0));
  EXPECT_EQ(kds::next_down(1.0), std::nextafter(1.0, 0.0));
  EXPECT_EQ(kds::next_up(0.0), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(kds::next_up(-0.0), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(kds::next_down(0.0), -std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(kds::next_up(-1.0), std::nextafter(-1.0, 0.0));
  const double inf = std::numeric_limits<double>::infinity(), max = std::numeric_limits<double>::max();
  EXPECT_EQ(kds::next_up(max), inf);
  EXPECT_EQ(kds::next_up(inf), inf);
  // The next double below +infinity is the largest double (not +infinity itself).
  EXPECT_EQ(kds::next_down(inf), max);
  EXPECT_EQ(kds::next_up(-inf), -max);
  EXPECT_TRUE(std::isnan(kds::next_up(std::numeric_limits<double>::quiet_NaN())));
  // Whatever the rounding mode: -0 is made +0 in the integer, not by adding +0.0 (which
  // rounding down leaves -0, and whose step was then NaN; found by review).
  {
    const int mode = std::fegetround();
    std::fesetround(FE_DOWNWARD);
    volatile double minus_zero = -0.0, plus_zero = 0.0;
    const double up = kds::next_up(minus_zero), down = kds::next_down(plus_zero);
    std::fesetround(mode);
    EXPECT_EQ(up, std::numeric_limits<double>::denorm_min());
    EXPECT_EQ(down, -std::numeric_limits<double>::denorm_min());
  }
  // Every finite double, both signs, subnormals and the ends of the exponent range: the
  // branch-free step is std::nextafter's.
  const double denorm = std::numeric_limits<double>::denorm_min(), tiny = std::numeric_limits<double>::min();
  for (double x : {denorm, 2 * denorm, tiny, kds::next_down(tiny), 0.5, 1.0, 2.0, kds::next_down(2.0), 1e300, max, kds::next_down(max)})
    for (double y : {x, -x}) {
      EXPECT_EQ(kds::next_up(y), std::nextafter(y, inf)) << y;
      EXPECT_EQ(kds::next_down(y), std::nextafter(y, -inf)) << y;
    }
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int i = 0; i < 100000; ++i) {
    const double x = std::bit_cast<double>(rng());  // every exponent and sign alike
    if (std::isnan(x)) continue;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(kds::next_up(x)), std::bit_cast<std::uint64_t>(std::nextafter(x, inf))) << x;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(kds::next_down(x)), std::bit_cast<std::uint64_t>(std::nextafter(x, -inf))) << x;
  }
}

TEST(Interval, ArithmeticContainsTheExactResultOnRandomInput) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int iter = 0; iter < 20000; ++iter) {
    Interval a = random_interval(rng), b = random_interval(rng);
    SCOPED_TRACE(::testing::Message() << "a = " << a << ", b = " << b << ", iteration " << iter);
    const Rational alo(a.lo()), ahi(a.hi()), blo(b.lo()), bhi(b.hi());
    Interval s = a + b, d = a - b, p = a * b;
    ASSERT_LE(s.lo(), s.hi());
    ASSERT_TRUE(contains(s, alo + blo) && contains(s, ahi + bhi));
    ASSERT_TRUE(contains(d, alo - bhi) && contains(d, ahi - blo));
    for (const Rational& x : {alo, ahi})
      for (const Rational& y : {blo, bhi}) ASSERT_TRUE(contains(p, x * y)) << "product of corners";
    ASSERT_TRUE(contains(-a, -alo) && contains(-a, -ahi));
    if (b.lo() > 0 || b.hi() < 0) {
      Interval q = a / b;
      for (const Rational& x : {alo, ahi})
        for (const Rational& y : {blo, bhi}) ASSERT_TRUE(contains(q, x / y)) << "quotient of corners";
    }
    if (a.lo() >= 0 && a.hi() < 1e300) {
      Interval r = sqrt(a);
      // lo^2 <= a.lo and hi^2 >= a.hi, exactly.
      ASSERT_LE(Rational(r.lo()) * Rational(r.lo()), alo);
      ASSERT_GE(Rational(r.hi()) * Rational(r.hi()), ahi);
    }
    // Inexact results must not be points: the point would be a rounded value.
    if (a.is_point() && b.is_point() && std::isfinite(a.lo() * b.lo()) && Rational(a.lo()) * Rational(b.lo()) != Rational(a.lo() * b.lo()))
      ASSERT_FALSE(p.is_point());
  }
}

// BoundedDouble (kds/bounded_double.hpp): random chains of sums, differences, products,
// squares, doublings and cancellations of random doubles over many magnitudes (subnormal
// products included), carried exactly in rationals beside: the enclosure holds the exact value
// whenever it exists, exact zeros stay exact, and an overflow gives no enclosure.
TEST(BoundedDouble, EnclosesTheExactValueOfRandomChains) {
  std::mt19937_64 rng(kds::testing::test_seed());
  int enclosed = 0, overflowed = 0;
  for (int chain = 0; chain < 4000; ++chain) {
    kds::BoundedDouble x = random_double(rng);
    Rational exact(x.v);
    bool finite = true;
    for (int step = 0; step < 12 && finite; ++step) {
      const double y = random_double(rng);
      switch (uniform_int(rng, 0, 5)) {
        case 0: x = x + y, exact += Rational(y); break;
        case 1: x = x - y, exact -= Rational(y); break;
        case 2: x = x * y, exact *= Rational(y); break;
        case 3: x = square(x), exact *= exact; break;
        case 4: x = twice(x), exact *= 2; break;
        default: x = (x + y) - y; break;  // a cancellation: an error near its bound
      }
      finite = std::isfinite(x.v) && std::isfinite(x.e);
      // The exact value of a chain that stays finite in doubles stays representable.
      if (!finite) break;
      SCOPED_TRACE(::testing::Message() << "chain " << chain << ", step " << step << ": " << x.v << " +- " << x.e);
      if (x.exact_zero()) ASSERT_EQ(exact, 0);
      const std::optional<Interval> box = x.enclosure();
      if (!box) {
        ++overflowed;
        break;
      }
      ASSERT_TRUE(contains(*box, exact));
      ++enclosed;
    }
  }
  EXPECT_GT(enclosed, 10000);
  std::printf("[ chains   ] %d enclosures checked, %d overflowed\n", enclosed, overflowed);
}

TEST(BoundedDouble, UnderflowedProductsKeepEnclosingWhenScaledUp) {
  // Found by review: s = ((1 + d) - 1) + d (value d, bound d, exact 2 d) times two small
  // numbers, then a product of the two: its bound terms rounded away below the normal
  // range, and one 2^-1074 did not cover them once the product was doubled or scaled up.
  using B = kds::BoundedDouble;
  const double d = 0x1p-53;
  const B s = ((B(1.0) + d) - 1.0) + d;
  const Rational exact_s = Rational(2) * Rational(d);
  ASSERT_TRUE(contains(*s.enclosure(), exact_s));
  const B a = s * 0x1.ff8p-485, b = s * 0x1.ff8p-486;
  const Rational exact_p = exact_s * Rational(0x1.ff8p-485) * exact_s * Rational(0x1.ff8p-486);
  const B p = a * b;
  EXPECT_TRUE(contains(*p.enclosure(), exact_p));
  EXPECT_TRUE(contains(*twice(p).enclosure(), 2 * exact_p));
  EXPECT_TRUE(contains(*(p + p).enclosure(), 2 * exact_p));
  EXPECT_TRUE(contains(*(p * 0x1p1000).enclosure(), exact_p * Rational(0x1p1000)));
  EXPECT_TRUE(contains(*(square(a) * 0x1p1000).enclosure(), exact_s * Rational(0x1.ff8p-485) * exact_s * Rational(0x1.ff8p-485) * Rational(0x1p1000)));
}

TEST(BoundedDouble, OverflowGivesNoEnclosure) {
  EXPECT_FALSE(twice(kds::BoundedDouble(0x1.8p1023)).enclosure());  // exact bound, infinite value (found by review)
  const kds::BoundedDouble big(1e300);
  EXPECT_FALSE(square(big).enclosure());
  EXPECT_FALSE((big * 1e10).enclosure());
  EXPECT_TRUE((kds::BoundedDouble(3.0) * 0.0).exact_zero());
  EXPECT_TRUE((kds::BoundedDouble(3.0) - 3.0).exact_zero());
  EXPECT_FALSE((kds::BoundedDouble(0x1p-600) * 0x1p-600).exact_zero());  // underflowed, not exact
}

/// The product as first written (a special case for two points, every product's NaN
/// counted as 0): Interval's product must give the same bounds, bit for bit, for the
/// determinism hashes to hold, whatever shortcuts it takes.
Interval reference_product(Interval a, Interval b) {
  if (a.certainly_zero() || b.certainly_zero()) return Interval(0.0);
  if (a.is_point() && b.is_point()) {
    const double p = a.lo() * b.lo();
    return {kds::next_down(p), kds::next_up(p)};
  }
  auto unnan = [](double x) { return x == x ? x : 0.0; };
  const double p[4] = {unnan(a.lo() * b.lo()), unnan(a.lo() * b.hi()), unnan(a.hi() * b.lo()), unnan(a.hi() * b.hi())};
  const double x = p[0] < p[1] ? p[0] : p[1], y = p[2] < p[3] ? p[2] : p[3];
  const double X = p[0] > p[1] ? p[0] : p[1], Y = p[2] > p[3] ? p[2] : p[3];
  return {kds::next_down(x < y ? x : y), kds::next_up(X > Y ? X : Y)};
}

TEST(Interval, ProductIsTheOuterRoundedHullBitForBit) {
  std::mt19937_64 rng(kds::testing::test_seed());
  const double inf = std::numeric_limits<double>::infinity(), max = std::numeric_limits<double>::max();
  std::vector<Interval> special{Interval(0.0), Interval(-0.0), Interval(0.0, inf), Interval(-inf, 0.0), Interval(-inf, inf),
                                Interval(inf), Interval(-inf), Interval(max), Interval(-max, max), Interval(1.0),
                                Interval(-2.0, 3.0), Interval(std::numeric_limits<double>::denorm_min())};
  auto same = [](double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); };
  auto check = [&](Interval a, Interval b) {
    const Interval p = a * b, r = reference_product(a, b);
    ASSERT_TRUE(same(p.lo(), r.lo()) && same(p.hi(), r.hi())) << a << " * " << b << ": " << p << " against " << r;
  };
  for (Interval a : special)
    for (Interval b : special) check(a, b);
  for (int i = 0; i < 200000; ++i) {
    Interval a = random_interval(rng), b = random_interval(rng);
    if (uniform_int(rng, 0, 20) == 0) a = special[static_cast<std::size_t>(uniform_int(rng, 0, 11))];
    check(a, b);
  }
}

TEST(Interval, DividePositiveIsTheQuotientBitForBit) {
  // divide_positive takes two of operator/'s four divisions when both operands are
  // certainly positive, and operator/ otherwise: the bounds must be operator/'s, bit for
  // bit, at every scale and at the ends of the range.
  std::mt19937_64 rng(kds::testing::test_seed());
  const double inf = std::numeric_limits<double>::infinity(), max = std::numeric_limits<double>::max();
  const double denorm = std::numeric_limits<double>::denorm_min();
  std::vector<Interval> special{Interval(denorm),     Interval(denorm, 1.0), Interval(1.0),       Interval(1.0, inf),
                                Interval(inf),        Interval(max),         Interval(max, inf),  Interval(0.5, 2.0),
                                Interval(1e-300, 1e300), Interval(0.0, 1.0), Interval(-1.0, -0.5), Interval(-2.0, 3.0)};
  auto same = [](double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); };
  auto check = [&](Interval a, Interval b) {
    if (b.lo() <= 0 && b.hi() >= 0) return;  // operator/'s divisor must not contain zero
    const Interval q = divide_positive(a, b), r = a / b;
    ASSERT_TRUE(same(q.lo(), r.lo()) && same(q.hi(), r.hi())) << a << " / " << b << ": " << q << " against " << r;
  };
  for (Interval a : special)
    for (Interval b : special) check(a, b);
  int positive = 0;
  for (int i = 0; i < 200000; ++i) {
    Interval a = random_interval(rng), b = random_interval(rng);
    // Mostly positive operands (the case divide_positive computes itself).
    if (uniform_int(rng, 0, 3) != 0) a = Interval(std::fabs(a.lo()) < std::fabs(a.hi()) ? std::fabs(a.lo()) : std::fabs(a.hi()),
                                                  std::fmax(std::fabs(a.lo()), std::fabs(a.hi())));
    if (uniform_int(rng, 0, 3) != 0) b = Interval(std::fabs(b.lo()) < std::fabs(b.hi()) ? std::fabs(b.lo()) : std::fabs(b.hi()),
                                                  std::fmax(std::fabs(b.lo()), std::fabs(b.hi())));
    if (uniform_int(rng, 0, 20) == 0) a = special[static_cast<std::size_t>(uniform_int(rng, 0, 11))];
    positive += a.lo() > 0 && b.lo() > 0;
    check(a, b);
  }
  EXPECT_GT(positive, 50000);
}

TEST(Interval, SquareIsNeverNegativeAndContainsTheExactSquare) {
  std::mt19937_64 rng(kds::testing::test_seed());
  auto same = [](double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); };
  for (int iter = 0; iter < 50000; ++iter) {
    const Interval a = random_interval(rng);
    SCOPED_TRACE(::testing::Message() << "a = " << a << ", iteration " << iter);
    const Interval s = square(a), p = a * a;
    const Rational alo(a.lo()), ahi(a.hi());
    ASSERT_GE(s.lo(), 0.0);
    ASSERT_TRUE(contains(s, alo * alo) && contains(s, ahi * ahi));
    const bool straddles = a.lo() <= 0 && a.hi() >= 0;
    if (straddles) {
      ASSERT_EQ(s.lo(), 0.0) << "x^2 reaches 0 inside a";
    } else {
      // Away from zero a * a is the same hull (its two mixed products lie between the
      // squares), so the square must be it bit for bit: the narrowing is only at zero,
      // and where the smaller square underflows to 0 (a * a then says -denorm_min).
      const double nearer = std::fmin(std::fabs(a.lo()), std::fabs(a.hi()));
      if (nearer * nearer == 0)
        ASSERT_TRUE(s.lo() == 0 && p.lo() < 0 && same(s.hi(), p.hi())) << s << " against " << p;
      else
        ASSERT_TRUE(same(s.lo(), p.lo()) && same(s.hi(), p.hi())) << s << " against " << p;
    }
    ASSERT_TRUE(p.lo() <= s.lo() && s.hi() <= p.hi()) << "never wider than a * a: " << s << " against " << p;
    // Doubling is exact (no rounding, no widening).
    const Interval t = twice(a);
    ASSERT_EQ(Rational(t.lo()), 2 * alo);
    ASSERT_EQ(Rational(t.hi()), 2 * ahi);
  }
  EXPECT_TRUE(square(Interval(0.0)).certainly_zero());
  EXPECT_TRUE(square(Interval(-0.0)).certainly_zero());
  EXPECT_TRUE(twice(Interval(0.0)).certainly_zero());
  // A square that underflows is not an exact zero: [0, denorm_min].
  for (Interval tiny : {Interval(1e-200), Interval(-1e-200), Interval(-1e-200, 1e-200), Interval(0.0, 1e-200)}) {
    const Interval s = square(tiny);
    EXPECT_EQ(s.lo(), 0.0) << tiny;
    EXPECT_EQ(s.hi(), std::numeric_limits<double>::denorm_min()) << tiny;
    EXPECT_FALSE(s.certainly_zero()) << tiny;
  }
  // Overflow: the upper bound is infinite, the lower one still at most the exact square.
  const double max = std::numeric_limits<double>::max();
  const Interval big = square(Interval(-1e200, -1e199));
  EXPECT_EQ(big.hi(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(big.lo(), max);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(twice(Interval(max)).hi(), inf);
  // Doubling past the largest double: the inner bound stays finite (a lower bound of
  // +infinity would exclude the finite value), and what follows still encloses it.
  for (const Interval x : {Interval(0x1p1023), Interval(max), Interval(0x1p1023, max)}) {
    const Interval up = twice(x), down = twice(-x);
    EXPECT_EQ(up.lo(), max) << x;
    EXPECT_EQ(up.hi(), inf) << x;
    EXPECT_EQ(down.lo(), -inf) << x;
    EXPECT_EQ(down.hi(), -max) << x;
  }
  // 1e300 - 2 (2^512 (1 + 2^-31) 2^511): the double product lies above 2^1023, its double
  // beyond the largest double, the difference itself (about -1.7976931257e308) is finite.
  const Interval cross = Interval(0x1p512) * Interval(0x1.00000002p511);
  const Interval difference = Interval(1e300) - twice(cross);
  const Rational exact = Rational(1e300) - 2 * Rational(0x1p512) * Rational(0x1.00000002p511);
  ASSERT_TRUE(std::isfinite(difference.hi())) << difference;
  EXPECT_LE(difference.lo(), -max);
  EXPECT_GE(Rational(difference.hi()), exact) << difference;
}

TEST(Interval, OverflowStillContainsTheExactResult) {
  const double max = std::numeric_limits<double>::max();
  Interval s = Interval(max) + Interval(max);
  // The exact sum 2 max is finite: the lower bound must be finite (at most max) to hold it.
  EXPECT_LE(s.lo(), max) << s;
  EXPECT_EQ(s.hi(), std::numeric_limits<double>::infinity());
  Interval p = Interval(max) * Interval(2.0);
  EXPECT_LE(p.lo(), max) << p;
  Interval n = Interval(-max) - Interval(max);
  EXPECT_GE(n.hi(), -max) << n;
  EXPECT_FALSE(s.is_finite());
}

TEST(Interval, ExactZeroStaysZero) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int iter = 0; iter < 2000; ++iter) {
    double x = random_double(rng);
    EXPECT_TRUE((Interval(x) - Interval(x)).certainly_zero()) << x;
    EXPECT_TRUE((Interval(x) + Interval(-x)).certainly_zero()) << x;
    EXPECT_TRUE((Interval(0.0) * Interval(x - 1, x + 1)).certainly_zero()) << x;
    EXPECT_TRUE((Interval(0.0) / Interval(2.0, 3.0)).certainly_zero());
  }
  // A product that underflows to zero is not an exact zero.
  Interval tiny = Interval(1e-200) * Interval(1e-200);
  EXPECT_FALSE(tiny.certainly_zero());
  EXPECT_TRUE(tiny.lo() <= 0 && tiny.hi() > 0);
  EXPECT_EQ(tiny.sign(), kds::Sign::unknown);
  // A sum that is not exactly zero has a known sign.
  EXPECT_EQ((Interval(1.0) + Interval(-1e-300)).sign(), kds::Sign::positive);
}

TEST(Interval, SignQueries) {
  EXPECT_EQ(Interval(1, 2).sign(), kds::Sign::positive);
  EXPECT_EQ(Interval(-2, -1).sign(), kds::Sign::negative);
  EXPECT_EQ(Interval(0.0).sign(), kds::Sign::zero);
  EXPECT_EQ(Interval(-1, 1).sign(), kds::Sign::unknown);
  EXPECT_EQ(Interval(0, 1).sign(), kds::Sign::unknown);
  EXPECT_FALSE(Interval(0, 1).certainly_positive());
  EXPECT_FALSE(Interval(-1, 0).certainly_negative());
}

// ---------------------------------------------------------------- polynomials

Polynomial<Rational> random_rational_polynomial(std::mt19937_64& rng, int degree) {
  Polynomial<Rational> p;
  for (int i = 0; i <= degree; ++i) p.set(i, Rational(std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -20, 20))));
  return p;
}
Polynomial<Interval> to_interval(const Polynomial<Rational>& p) {
  Polynomial<Interval> q;
  for (int i = p.degree(); i >= 0; --i) q.set(i, kds::testing::enclose(p[i]));
  return q;
}
Polynomial<double> to_double(const Polynomial<Rational>& p) {
  Polynomial<double> q;
  for (int i = p.degree(); i >= 0; --i) q.set(i, p[i].get_d());
  return q;
}

TEST(Polynomial, IntervalEvaluationAndShiftContainTheExactResult) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int iter = 0; iter < 3000; ++iter) {
    const int degree = uniform_int(rng, 0, Polynomial<Rational>::max_degree);
    Polynomial<Rational> p = random_rational_polynomial(rng, degree);
    Polynomial<Interval> pi = to_interval(p);
    const double x = std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -10, 20));
    const double h = std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -10, 20));
    SCOPED_TRACE(::testing::Message() << "degree " << degree << ", x = " << x << ", h = " << h);
    ASSERT_TRUE(contains(pi(Interval(x)), p(Rational(x))));
    Polynomial<Rational> q = p.shifted(Rational(h));
    Polynomial<Interval> qi = pi.shifted(Interval(h));
    ASSERT_EQ(q.degree(), p.degree());
    ASSERT_LE(q.degree(), qi.degree());
    for (int i = 0; i <= q.degree(); ++i) ASSERT_TRUE(contains(qi[i], q[i])) << "coefficient " << i;
    // The exact shift is the same polynomial about a new origin.
    for (int k = 0; k < 3; ++k) {
      Rational s(std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -5, 5)));
      ASSERT_EQ(q(s), p(s + Rational(h)));
    }
    // Double shift is close (relative to the magnitudes involved).
    Polynomial<double> qd = to_double(p).shifted(h);
    for (int i = 0; i <= q.degree(); ++i) {
      double scale = 0;
      for (int j = i; j <= p.degree(); ++j) scale += std::fabs(p[j].get_d()) * std::pow(std::fabs(h), j - i) * 256;
      ASSERT_NEAR(qd[i], q[i].get_d(), 1e-12 * scale + 1e-300) << "coefficient " << i;
    }
  }
}

TEST(Polynomial, SquareIsTheProductWithItself) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int iter = 0; iter < 3000; ++iter) {
    const int degree = uniform_int(rng, -1, Polynomial<Rational>::max_degree / 2);
    Polynomial<Rational> p = degree < 0 ? Polynomial<Rational>() : random_rational_polynomial(rng, degree);
    // Now and then a zero coefficient inside, so that some squares and cross products vanish.
    if (degree > 1 && uniform_int(rng, 0, 3) == 0) p.set(uniform_int(rng, 0, degree - 1), Rational(0));
    SCOPED_TRACE(::testing::Message() << "degree " << degree << ", iteration " << iter);
    const Polynomial<Rational> exact = p * p;
    const Polynomial<Rational> sq = square(p);
    ASSERT_EQ(sq.degree(), exact.degree());
    for (int i = 0; i <= exact.degree(); ++i) ASSERT_EQ(sq[i], exact[i]) << "coefficient " << i;
    const Polynomial<Interval> pi = to_interval(p), si = square(pi);
    ASSERT_EQ(si.degree(), exact.degree());
    for (int i = 0; i <= exact.degree(); ++i)
      ASSERT_TRUE(contains(si[i], exact[i])) << "coefficient " << i << ": " << si[i];
    // The leading and constant coefficients are squares: never below zero.
    if (si.degree() >= 0) ASSERT_GE(si[si.degree()].lo(), 0.0);
    if (si.degree() >= 0) ASSERT_GE(si[0].lo(), 0.0);
  }
  // By hand: (3 + 2 s^2)^2 = 9 + 12 s^2 + 4 s^4, its odd coefficients exactly zero (the
  // interval degree would not drop otherwise) and the others exact points.
  const Polynomial<Interval> e = square(Polynomial<Interval>{Interval(3.0), Interval(0.0), Interval(2.0)});
  ASSERT_EQ(e.degree(), 4);
  EXPECT_TRUE(e[1].certainly_zero() && e[3].certainly_zero());
  EXPECT_TRUE(contains(e[0], Rational(9)) && contains(e[2], Rational(12)) && contains(e[4], Rational(4)));
  EXPECT_TRUE(square(Polynomial<Interval>()).is_zero());
  Polynomial<Rational> too_high;
  too_high.set(Polynomial<Rational>::max_degree / 2 + 1, Rational(1));
  EXPECT_THROW((void)square(too_high), std::length_error);
}

TEST(Polynomial, TaylorShiftByHand) {
  // p(s) = 1 + 2 s + 3 s^2; p(s + 2) = 17 + 14 s + 3 s^2.
  Polynomial<double> p{1.0, 2.0, 3.0};
  Polynomial<double> q = p.shifted(2.0);
  ASSERT_EQ(q.degree(), 2);
  EXPECT_EQ(q[0], 17.0);
  EXPECT_EQ(q[1], 14.0);
  EXPECT_EQ(q[2], 3.0);
  // Shifting back restores p.
  Polynomial<double> r = q.shifted(-2.0);
  EXPECT_EQ(r[0], 1.0);
  EXPECT_EQ(r[1], 2.0);
  EXPECT_EQ(r[2], 3.0);
  // (s - 1)^3 shifted by 1 is s^3: exactly in rationals and doubles; the intervals contain
  // zero (products of points are widened even when exact, so they need not be the point 0).
  Polynomial<Rational> e{Rational(-1), Rational(3), Rational(-3), Rational(1)};
  Polynomial<Rational> es = e.shifted(Rational(1));
  EXPECT_EQ(es.degree(), 3);
  EXPECT_TRUE(sgn(es[0]) == 0 && sgn(es[1]) == 0 && sgn(es[2]) == 0);
  Polynomial<double> d{-1.0, 3.0, -3.0, 1.0};
  Polynomial<double> ds = d.shifted(1.0);
  EXPECT_TRUE(ds[0] == 0 && ds[1] == 0 && ds[2] == 0 && ds[3] == 1);
  Polynomial<Interval> c{Interval(-1.0), Interval(3.0), Interval(-3.0), Interval(1.0)};
  Polynomial<Interval> cs = c.shifted(Interval(1.0));
  EXPECT_EQ(cs.degree(), 3);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(contains(cs[i], Rational(0))) << cs[i];
  EXPECT_TRUE(contains(cs[3], Rational(1)));
  // A shift by zero changes nothing, and keeps exact zeros.
  Polynomial<Interval> z = Polynomial<Interval>{Interval(0.0), Interval(2.0)}.shifted(Interval(0.0));
  EXPECT_TRUE(z[0].certainly_zero());
}

TEST(Polynomial, Derivative) {
  Polynomial<Rational> p{Rational(5), Rational(-1), Rational(1, 2), Rational(2)};
  Polynomial<Rational> d = p.derivative();
  ASSERT_EQ(d.degree(), 2);
  EXPECT_EQ(d[0], -1);
  EXPECT_EQ(d[1], 1);
  EXPECT_EQ(d[2], 6);
  EXPECT_EQ(d.derivative().derivative().degree(), 0);
  EXPECT_EQ(d.derivative().derivative()[0], 12);
  EXPECT_EQ(d.derivative().derivative().derivative().degree(), -1);
  EXPECT_EQ(Polynomial<double>(7.0).derivative().degree(), -1);
  // The derivative of the zero polynomial is the zero polynomial, of degree -1.
  EXPECT_EQ(Polynomial<double>().derivative().degree(), -1);
  EXPECT_EQ(Polynomial<Interval>().derivative().derivative().degree(), -1);
  // Interval derivative contains the exact one.
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int iter = 0; iter < 500; ++iter) {
    Polynomial<Rational> r = random_rational_polynomial(rng, uniform_int(rng, 1, 8));
    Polynomial<Interval> ri = to_interval(r).derivative();
    Polynomial<Rational> rd = r.derivative();
    ASSERT_EQ(ri.degree(), rd.degree());
    for (int i = 0; i <= rd.degree(); ++i) ASSERT_TRUE(contains(ri[i], rd[i]));
  }
}

TEST(Polynomial, DegreeTrimming) {
  EXPECT_EQ(Polynomial<double>().degree(), -1);
  EXPECT_TRUE(Polynomial<double>().is_zero());
  EXPECT_EQ(Polynomial<double>(0.0).degree(), -1);
  EXPECT_EQ((Polynomial<double>{1.0, 2.0, 0.0, 0.0}).degree(), 1);
  EXPECT_EQ((Polynomial<double>{0.0, 0.0, 0.0}).degree(), -1);
  Polynomial<double> p{1.0, 2.0, 3.0};
  p.set(2, 0.0);
  EXPECT_EQ(p.degree(), 1);
  p.set(5, 1.0);
  EXPECT_EQ(p.degree(), 5);
  // Exact cancellation drops the degree, in intervals too.
  Polynomial<Interval> a{Interval(1.0), Interval(0.1), Interval(0.3)};
  Polynomial<Interval> b{Interval(2.0), Interval(0.2), Interval(0.3)};
  EXPECT_EQ((a - b).degree(), 1);
  EXPECT_EQ((a - a).degree(), -1);
  EXPECT_TRUE((a - a).is_zero());
  // A coefficient that only might be zero counts for intervals.
  Polynomial<Interval> c{Interval(1.0), Interval(-1e-300, 1e-300)};
  EXPECT_EQ(c.degree(), 1);
  Polynomial<Rational> r{Rational(1), Rational(1, 3)};
  EXPECT_EQ((r - r).degree(), -1);
  EXPECT_EQ((r * Polynomial<Rational>()).degree(), -1);
  EXPECT_EQ((Rational(0) * r).degree(), -1);
  EXPECT_EQ((-r).degree(), 1);
  EXPECT_EQ((-r)[1], Rational(-1, 3));
}

TEST(Polynomial, ArithmeticAgreesWithRationals) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int iter = 0; iter < 500; ++iter) {
    Polynomial<Rational> a = random_rational_polynomial(rng, uniform_int(rng, 0, 4));
    Polynomial<Rational> b = random_rational_polynomial(rng, uniform_int(rng, 0, 4));
    Polynomial<Interval> ai = to_interval(a), bi = to_interval(b);
    Rational x(uniform(rng, -3, 3));
    EXPECT_EQ((a * b)(x), a(x) * b(x));
    EXPECT_EQ((a + b)(x), a(x) + b(x));
    EXPECT_EQ((a - b)(x), a(x) - b(x));
    Polynomial<Rational> ab = a * b;
    Polynomial<Interval> abi = ai * bi;
    ASSERT_EQ(abi.degree(), ab.degree());
    for (int i = 0; i <= ab.degree(); ++i) ASSERT_TRUE(contains(abi[i], ab[i]));
  }
}

TEST(Polynomial, MaxDegreeOverflowThrows) {
  constexpr int m = Polynomial<double>::max_degree;
  std::vector<double> too_many(m + 2, 1.0);
  EXPECT_THROW(Polynomial<double>::from_range(too_many.begin(), too_many.end()), std::length_error);
  std::vector<double> enough(m + 1, 1.0);
  EXPECT_EQ(Polynomial<double>::from_range(enough.begin(), enough.end()).degree(), m);
  EXPECT_THROW((Polynomial<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), std::length_error);
  Polynomial<double> p;
  EXPECT_THROW(p.set(m + 1, 1.0), std::length_error);
  Polynomial<double> a, b;
  a.set(5, 1.0);
  b.set(4, 1.0);
  try {
    (void)(a * b);
    FAIL() << "a product of degree 9 was accepted";
  } catch (const std::length_error& e) {
    EXPECT_NE(std::string(e.what()).find("degree 9"), std::string::npos) << e.what();
  }
  b.set(4, 0.0);
  b.set(3, 1.0);
  EXPECT_EQ((a * b).degree(), 8);
}

TEST(Polynomial, AllFinite) {
  EXPECT_TRUE((Polynomial<double>{1.0, 2.0}).all_finite());
  EXPECT_FALSE((Polynomial<double>{1.0, std::nan("")}).all_finite());
  EXPECT_FALSE((Polynomial<Interval>{Interval(1.0), Interval(1.0, std::numeric_limits<double>::infinity())}).all_finite());
}

// ---------------------------------------------------------------- motions

TEST(Motion, CoordinateIsTheExactShift) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int iter = 0; iter < 500; ++iter) {
    const double t0 = uniform(rng, -100, 100);
    std::array<kds::Motion<1>::Coefficients, 1> c{};
    for (double& x : c[0]) x = uniform(rng, -10, 10);
    auto m = kds::Motion<1>::polynomial(t0, c);
    const double origin = uniform(rng, -100, 100);
    Polynomial<Rational> exact = m.coordinate<Rational>(0, origin);
    Polynomial<Interval> filt = m.coordinate<Interval>(0, origin);
    for (int i = 0; i <= exact.degree(); ++i) ASSERT_TRUE(contains(filt[i], exact[i]));
    // Exact: x(t) evaluated directly about t0 equals the shifted polynomial at t - origin.
    Rational t(uniform(rng, -100, 100));
    Rational dt = t - Rational(t0), direct = 0;
    for (int k = 3; k >= 0; --k) direct = direct * dt + Rational(c[0][k]);
    ASSERT_EQ(exact(t - Rational(origin)), direct);
    EXPECT_NEAR(m.position(t.get_d())[0], direct.get_d(), 1e-9 * (1 + std::fabs(direct.get_d())) * 1e3);
  }
}

TEST(Motion, FactoriesAndDerivatives) {
  auto m = kds::Motion<2>::accelerated(1.0, {1.0, 2.0}, {3.0, -1.0}, {2.0, 4.0});
  EXPECT_EQ(m.start(), 1.0);
  EXPECT_EQ(m.degree(), 2);
  EXPECT_EQ(m.position(2.0)[0], 1.0 + 3.0 + 1.0);
  EXPECT_EQ(m.position(2.0)[1], 2.0 - 1.0 + 2.0);
  EXPECT_EQ(m.velocity(2.0)[0], 3.0 + 2.0);
  EXPECT_EQ(m.acceleration(5.0)[1], 4.0);
  EXPECT_EQ(kds::Motion<1>::constant({3.0}).degree(), 0);
  EXPECT_EQ(kds::Motion<1>::linear(0, {3.0}, {1.0}).degree(), 1);
}

void expect_invalid(auto&& make, const std::string& fragment) {
  try {
    make();
    ADD_FAILURE() << "no InvalidInput for " << fragment;
  } catch (const kds::InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << "message: " << e.what();
  }
}

TEST(Motion, RejectsNonFiniteCoefficientsNamingThem) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  expect_invalid([&] { kds::Motion<1>::constant({nan}).validate(); }, "coefficient x[t^0] is NaN");
  expect_invalid([&] { kds::Motion<2>::linear(0.0, {0.0, 0.0}, {0.0, inf}).validate(); }, "coefficient y[t^1] is +infinity");
  expect_invalid([&] { kds::Motion<3>::accelerated(0.0, {0, 0, 0}, {0, 0, 0}, {0, 0, -inf}).validate(); },
                 "coefficient z[t^2] is -infinity");
  expect_invalid([&] { kds::Motion<1>::linear(nan, {0.0}, {1.0}).validate(); }, "start time is NaN");
  std::array<kds::Motion<1>::Coefficients, 1> c{{{0.0, 0.0, 0.0, inf}}};
  expect_invalid([&] { kds::Motion<1>::polynomial(0.0, c).validate(); }, "coefficient x[t^3] is +infinity");
  // Finite but huge is fine.
  EXPECT_NO_THROW(kds::Motion<1>::linear(0.0, {1e300}, {-1e300}));
}

}  // namespace
