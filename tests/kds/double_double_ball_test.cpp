// Double-double balls (kds/double_double_ball.hpp): every ball contains the exact result of
// the same +, -, * in kds::Dyadic, on random expressions over many magnitudes (subnormals,
// cancellation, huge values); a decided sign is the exact sign; overflow leaves the sign
// unknown; and next to a root at a double, where intervals cannot tell, the ball can.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kds/double_double_ball.hpp"
#include "kds/dyadic.hpp"
#include "kds/interval.hpp"
#include "kds/polynomial.hpp"
#include "test_functions.hpp"
#include "test_seed.hpp"

namespace {

using kds::DoubleDoubleBall;
using kds::Dyadic;
using kds::Rational;
using kds::Sign;
using kds::testing::exact_sign;
using kds::testing::uniform;
using kds::testing::uniform_int;

/// |h + l - exact| <= r, in rationals.
bool encloses(const DoubleDoubleBall& b, const Rational& exact) {
  Rational gap = Rational(b.head()) + Rational(b.tail()) - exact;
  return abs(gap) <= Rational(b.radius());
}

/// A double over many magnitudes, with both signs, zero and subnormals now and then.
double random_double(std::mt19937_64& rng) {
  switch (uniform_int(rng, 0, 9)) {
    case 0: return 0.0;
    case 1: return std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -1074, -1000));
    case 2: return std::ldexp(uniform(rng, -1, 1), uniform_int(rng, 400, 1000));
    case 3: return static_cast<double>(uniform_int(rng, -5, 5));
    default: return std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -60, 60));
  }
}

/// A ball and its exact value side by side.
struct Both {
  DoubleDoubleBall ball;
  Dyadic exact;
};

TEST(DoubleDoubleBall, ContainsTheExactResultOfRandomExpressions) {
  std::mt19937_64 rng(kds::testing::test_seed());
  int decided = 0, checked = 0, overflowed = 0;
  for (int expression = 0; expression < 3000; ++expression) {
    std::vector<Both> pool;
    for (int i = 0; i < 6; ++i) {
      const double x = random_double(rng);
      pool.push_back({x, x});
    }
    // Exact differences of doubles, as the clock's s = t - origin is made.
    const double x = random_double(rng), y = random_double(rng);
    pool.push_back({DoubleDoubleBall::difference(x, y), Dyadic(x) - Dyadic(y)});
    for (int step = 0; step < 12; ++step) {
      const Both& a = pool[uniform_int(rng, 0, static_cast<int>(pool.size()) - 1)];
      const Both& b = pool[uniform_int(rng, 0, static_cast<int>(pool.size()) - 1)];
      Both c;
      switch (uniform_int(rng, 0, 3)) {
        case 0: c = {a.ball + b.ball, a.exact + b.exact}; break;
        case 1: c = {a.ball - b.ball, a.exact - b.exact}; break;
        case 2: c = {a.ball * b.ball, a.exact * b.exact}; break;
        default: {  // a cancellation: (a + b)(a - b) - (a a - b b), exactly 0
          c = {(a.ball + b.ball) * (a.ball - b.ball) - (a.ball * a.ball - b.ball * b.ball),
               (a.exact + b.exact) * (a.exact - b.exact) - (a.exact * a.exact - b.exact * b.exact)};
        }
      }
      pool.push_back(c);
      SCOPED_TRACE(::testing::Message() << "expression " << expression << ", step " << step);
      if (!c.ball.finite()) {
        ++overflowed;
        ASSERT_EQ(c.ball.sign(), Sign::unknown);
        continue;
      }
      const Rational q = c.exact.to_rational();
      ASSERT_TRUE(encloses(c.ball, q)) << "ball " << c.ball.head() << " + " << c.ball.tail() << " +- " << c.ball.radius();
      ++checked;
      const Sign s = c.ball.sign();
      if (s != Sign::unknown) {
        ++decided;
        ASSERT_EQ(s, exact_sign(q));
      }
    }
  }
  // The campaign is not vacuous: most balls are checked, most signs are decided, and
  // some expressions overflow.
  EXPECT_GT(checked, 20000);
  EXPECT_GT(decided, checked / 2);
  EXPECT_GT(overflowed, 0);
}

TEST(DoubleDoubleBall, ExactOperationsHaveNoRadius) {
  // Sums and products of small integers are exact: the ball is their point (up to the
  // radius's absolute floor), and zero is decided as zero.
  const DoubleDoubleBall a(3.0), b(-5.0);
  EXPECT_EQ((a * b).head(), -15.0);
  EXPECT_LE((a * b).radius(), 0x1p-1063);  // only the floor that covers underflow
  EXPECT_EQ((a * b).sign(), Sign::negative);
  EXPECT_EQ(DoubleDoubleBall(0.0).sign(), Sign::zero);
  EXPECT_EQ(DoubleDoubleBall::difference(1.0, 1.0).sign(), Sign::zero);
  // 1 - 2^-80 is not a double; the difference keeps it exactly, in head and tail.
  const DoubleDoubleBall d = DoubleDoubleBall::difference(1.0, 0x1p-80);
  EXPECT_EQ(d.head(), 1.0);
  EXPECT_EQ(d.tail(), -0x1p-80);
  EXPECT_EQ(d.radius(), 0.0);
}

TEST(DoubleDoubleBall, OverflowAndNaNLeaveTheSignUnknown) {
  const double max = std::numeric_limits<double>::max();
  const DoubleDoubleBall big(max);
  EXPECT_FALSE((big * big).finite());
  EXPECT_EQ((big * big).sign(), Sign::unknown);
  EXPECT_EQ((big + big).sign(), Sign::unknown);
  EXPECT_EQ((big * big - big * big).sign(), Sign::unknown);
  EXPECT_EQ(DoubleDoubleBall(std::numeric_limits<double>::quiet_NaN()).sign(), Sign::unknown);
  EXPECT_EQ(DoubleDoubleBall(std::numeric_limits<double>::infinity()).sign(), Sign::unknown);
}

TEST(DoubleDoubleBall, SubnormalProductsAreCovered) {
  // A product below the smallest double rounds to zero; the radius must cover what is lost.
  const double tiny = std::numeric_limits<double>::denorm_min();
  const DoubleDoubleBall p = DoubleDoubleBall(tiny) * DoubleDoubleBall(0.25);
  EXPECT_TRUE(encloses(p, Rational(tiny) * Rational(0.25)));
  EXPECT_GT(p.radius(), 0.0);
  EXPECT_EQ(p.sign(), Sign::unknown);  // 2^-1076 is below what the ball resolves
}

// Next to a double root of p(s) = (s - a)(s - b) with a at a double and b one rounding
// away from it, intervals in s = x - origin cannot tell the sign at the doubles between a
// and b (the two factors' products cancel to below an ulp of their terms); balls can.
TEST(DoubleDoubleBall, DecidesSignsNextToARootWhereIntervalsCannot) {
  std::mt19937_64 rng(kds::testing::test_seed());
  int balls_decided = 0, intervals_decided = 0;
  for (int i = 0; i < 2000; ++i) {
    const double origin = uniform(rng, 0, 100);
    const double a = uniform(rng, 1, 2);
    const double b = kds::next_up(kds::next_up(a));
    // p(s) = s^2 - (a + b) s + a b, with coefficients rounded once (as motions' are).
    const double c1 = -(a + b), c0 = a * b;
    const kds::Polynomial<kds::Interval> pi({kds::Interval(c0), kds::Interval(c1), kds::Interval(1.0)});
    const kds::Polynomial<DoubleDoubleBall> pb({DoubleDoubleBall(c0), DoubleDoubleBall(c1), DoubleDoubleBall(1.0)});
    const kds::Polynomial<Dyadic> pd({Dyadic(c0), Dyadic(c1), Dyadic(1.0)});
    for (double s : {kds::next_down(a), a, kds::next_up(a), b, kds::next_up(b)}) {
      const double x = origin + s;  // a clock value near the root, not s itself
      const Dyadic exact_s = Dyadic(x) - Dyadic(origin);
      const Rational exact = pd(exact_s).to_rational();
      const DoubleDoubleBall vb = pb(DoubleDoubleBall::difference(x, origin));
      ASSERT_TRUE(encloses(vb, exact)) << "x = " << x << ", origin = " << origin;
      if (vb.sign() != Sign::unknown) {
        ++balls_decided;
        ASSERT_EQ(vb.sign(), exact_sign(exact));
      }
      if (pi(kds::Interval(x) - kds::Interval(origin)).sign() != Sign::unknown) ++intervals_decided;
    }
  }
  // Intervals decide almost none of these (the roots are within an ulp of the clock's
  // resolution); balls decide nearly all (exact zeros are left to the exact path).
  EXPECT_LT(intervals_decided, 2000);
  EXPECT_GT(balls_decided, 9000);
}

}  // namespace
