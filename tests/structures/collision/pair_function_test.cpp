// The fast path of the pair certificate (certificates/bound_separation.hpp, taken for
// linear centres: short polynomials exactly, bounded doubles in intervals) against its
// twin, the generic function built from kds::Polynomial: exactly the same polynomial, bit
// for bit, and in intervals enclosures of it of the same degree, about as wide. Random motions and bounds, and the degenerate ones: equal
// motions, spheres at rest, a pair on one axis only, zero and non-zero allowances,
// origin at and away from the bounds' resets. And the double-double function written out
// from the stored numbers (CollisionWorld's pairs): enclosures of the exact polynomial,
// near the origin of space and 10^6 away, and the clock rounded from it.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <limits>
#include <cstdint>
#include <random>

#include "certificates/bound_separation.hpp"
#include "kds/number_types.hpp"
#include "kds/motion.hpp"
#include "kds/solver.hpp"
#include "bound_pair_owners.hpp"
#include "structures/collision/bound.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

bool same(const Interval& a, const Interval& b) {
  return std::bit_cast<std::uint64_t>(a.lo()) == std::bit_cast<std::uint64_t>(b.lo()) &&
         std::bit_cast<std::uint64_t>(a.hi()) == std::bit_cast<std::uint64_t>(b.hi());
}

/// The widest ratio of the fast path's interval widths to the generic path's seen so far
/// (printed by the test: how much the bounded doubles give away, if anything).
double widest_ratio = 0;

/// The fast path against the generic function. Exactly (Rational): the same polynomial,
/// bit for bit. In intervals, where the fast path is the quartic in bounded doubles
/// (BoundSeparation::bounded_function): the same degree, every coefficient an enclosure of
/// the exact one, at most `max_ratio` times as wide as the generic interval (or both
/// points). With `linear`, the fast path was taken.
void expect_same(const Scene& s, double allowance, double origin, bool linear = true, double max_ratio = 4) {
  GenericOwner generic{&s};
  FastOwner fast{&s};
  const BodyId a{0, 0}, b{1, 0};
  const BoundSeparation<GenericOwner> slow_c(generic, a, b, "test", 1, allowance);
  const BoundSeparation<FastOwner> fast_c(fast, a, b, "test", 1, allowance);
  const Polynomial<Rational> exact = slow_c.function<Rational>(origin), fast_exact = fast_c.function<Rational>(origin);
  ASSERT_EQ(exact.degree(), fast_exact.degree());
  for (int i = 0; i <= exact.degree(); ++i) EXPECT_TRUE(exact[i] == fast_exact[i]) << "exact coefficient " << i;
  const Polynomial<Interval> p = slow_c.function<Interval>(origin), q = fast_c.function<Interval>(origin);
  ASSERT_EQ(p.degree(), q.degree());
  // (Intervals may not prove a leading coefficient zero that is: then they keep it.)
  ASSERT_GE(q.degree(), exact.degree());
  for (int i = 0; i <= q.degree(); ++i) {
    SCOPED_TRACE("coefficient " + std::to_string(i));
    if (!p[i].is_finite()) {  // overflowed: the interval path decides, the same polynomial
      EXPECT_TRUE(same(p[i], q[i])) << "generic " << p[i] << ", fast " << q[i];
      continue;
    }
    ASSERT_TRUE(q[i].is_finite());
    const Rational x = i <= exact.degree() ? exact[i] : Rational(0);
    EXPECT_LE(Rational(q[i].lo()), x);
    EXPECT_GE(Rational(q[i].hi()), x);
    if (p[i].is_point()) {
      EXPECT_TRUE(same(p[i], q[i]));
    } else {
      const double ratio = q[i].width() / p[i].width();
      widest_ratio = std::max(widest_ratio, ratio);
      EXPECT_LE(ratio, max_ratio) << "generic " << p[i] << ", fast " << q[i];
    }
  }
  if (linear) EXPECT_GT(fast.lines, 0);  // the fast path was taken
}

/// The double-double function written out from the stored numbers
/// (BoundSeparation::stored_ball_function, what CollisionWorld's pairs use) against the
/// exact polynomial: a degree at least the exact one's, every coefficient's ball around it
/// (|exact - (head + tail)| <= radius), zero above the exact degree; a ball that overflowed
/// only where the generic intervals did too.
void expect_stored_encloses(const Scene& s, double allowance, double origin) {
  GenericOwner generic{&s};
  StoredOwner stored{&s};
  const BodyId a{0, 0}, b{1, 0};
  const BoundSeparation<GenericOwner> slow_c(generic, a, b, "test", 1, allowance);
  const BoundSeparation<StoredOwner> stored_c(stored, a, b, "test", 1, allowance);
  const Polynomial<Rational> exact = slow_c.function<Rational>(origin);
  const Polynomial<Interval> p = slow_c.function<Interval>(origin);
  bool overflow = false;  // in the generic intervals
  for (int i = 0; i <= p.degree(); ++i) overflow = overflow || !p[i].is_finite();
  const Polynomial<DoubleDoubleBall> ball = stored_c.function<DoubleDoubleBall>(origin);
  ASSERT_GE(ball.degree(), exact.degree());
  for (int i = 0; i <= ball.degree(); ++i) {
    SCOPED_TRACE("ball coefficient " + std::to_string(i));
    if (!ball[i].finite()) {  // an overflow: its sign unknown, the exact path decides
      EXPECT_TRUE(overflow);
      continue;
    }
    const Rational x = i <= exact.degree() ? exact[i] : Rational(0);
    const Rational centre = Rational(ball[i].head()) + Rational(ball[i].tail());
    const Rational error = abs(x - centre);
    EXPECT_LE(error, Rational(ball[i].radius()))
        << "head " << ball[i].head() << ", tail " << ball[i].tail() << ", radius " << ball[i].radius();
    // And narrow: far inside the generic interval (about 2^50 narrower, where it is wide).
    if (i <= p.degree() && p[i].is_finite())
      EXPECT_LE(ball[i].radius(), 1e-10 * p[i].width() + 1e-300) << "generic " << p[i];
  }
}

TEST(PairFunction, StoredPathEnclosesTheExactFunction) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int round = 0; round < 2000; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    // Near the origin of space and 10^6 away (cancellation in the centres' difference).
    const double t0 = 10 * (u(rng) + 1), extent = round % 2 == 0 ? 100 : 1e6;
    const Scene s = random_pair(rng, round, t0, extent, 2);
    const double allowance = round % 5 == 0 ? 1e-9 * std::fabs(u(rng)) : 0;
    // At the first sphere's start (a reset: exact zeros), later, and before the second's
    // start (balls are rigorous at any origin).
    const double origin = round % 4 == 0   ? s.motion[0].start()
                          : round % 4 == 1 ? t0 - std::fabs(u(rng))
                                           : t0 + 3 * std::fabs(u(rng));
    expect_stored_encloses(s, allowance, origin);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Rounding the clock at a pair's failure (ceil_to_double: guesses from the balls' heads,
// signs from the balls first) gives the first double at or after the exact root, judged by
// exact comparisons, and the same double as the fast path's function, which has no
// stored numbers.
TEST(PairFunction, StoredPathRoundsFailureTimesToTheFirstDoubleAfter) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed + 3);
  std::uniform_real_distribution<double> u(-1, 1);
  int checked = 0;
  for (int round = 0; round < 1000; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const double t0 = 10 * (u(rng) + 1), extent = round % 2 == 0 ? 30 : 1e6;
    Scene s = random_pair(rng, round, t0, extent, 5);
    if (round % 2 == 1) {  // far from the origin of space, the pair within reach
      const double t1 = s.motion[1].start();
      Vec<3> x = s.motion[0].position(t1);
      for (int k = 0; k < 3; ++k) x[k] += 30 * u(rng);
      s.motion[1] = Motion<3>::linear(t1, x, s.motion[1].velocity(t1));
    }
    StoredOwner stored{&s};
    FastOwner fast{&s};
    const BodyId a{0, 0}, b{1, 0};
    const BoundSeparation<StoredOwner> stored_c(stored, a, b, "test", 1);
    const BoundSeparation<FastOwner> fast_c(fast, a, b, "test", 1);
    const double origin = std::max(s.motion[0].start(), s.motion[1].start());
    if (sgn(stored_c.exact_value_at(origin)) <= 0) continue;  // in contact at the start
    const Root r = first_failure(stored_c, Root::at(origin), Birth::generic, Exactness::filtered);
    const Root q = first_failure(fast_c, Root::at(origin), Birth::generic, Exactness::filtered);
    ASSERT_EQ(r.is_infinite(), q.is_infinite());
    if (r.is_infinite()) continue;
    const double c = ceil_to_double(r);
    ASSERT_LE(compare(r, c), 0) << c << " is before the root";
    ASSERT_GT(compare(r, next_down(c)), 0) << c << " is not the first double";
    EXPECT_EQ(c, ceil_to_double(q));
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

TEST(PairFunction, FastPathEnclosesTheGenericFunction) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int round = 0; round < 2000; ++round) {
    const double t0 = 10 * (u(rng) + 1);
    const Scene s = random_pair(rng, round, t0, 100, 2);
    const double allowance = round % 5 == 0 ? 1e-9 * std::fabs(u(rng)) : 0;
    const double origin = round % 4 == 0 ? s.motion[0].start() : t0 + 3 * std::fabs(u(rng));
    expect_same(s, allowance, origin);
  }
  std::printf("[ widths   ] fast / generic interval width, widest: %.3g\n", widest_ratio);
}

// Magnitudes where a product underflows or overflows: enclosures still (an underflowed
// product's absolute error is bounded), and past the largest double the interval path
// decides (the same polynomial as the generic one, then).
TEST(PairFunction, FastPathEnclosesAtExtremeMagnitudes) {
  for (double scale : {1e-170, 1e-160, 1e-150, 1e100, 1e150, 1e160}) {
    SCOPED_TRACE("scale " + std::to_string(scale));
    Scene s;
    s.motion[0] = Motion<3>::linear(0, {scale, 2 * scale, -scale}, {scale, 0, 3 * scale});
    s.motion[1] = Motion<3>::linear(0.5, {4 * scale, -scale, scale}, {-scale, scale, 0});
    for (int i = 0; i < 2; ++i) {
      s.bound[i].radius = 0.25 * scale;
      s.bound[i].acceleration = scale;
      s.bound[i].reset_time = 0;
    }
    // Near the underflow the bounded doubles' absolute floor is far wider than the
    // intervals' subnormal steps: only enclosure is asked for there.
    expect_same(s, 0, 1.0, true, scale < 1e-100 ? std::numeric_limits<double>::infinity() : 4);
    expect_stored_encloses(s, 0, 1.0);
  }
}

TEST(PairFunction, QuadraticCentresTakeTheGenericPath) {
  // Under gravity a centre is a parabola: no Line, the generic function (still equal).
  Scene s;
  s.motion[0] = Motion<3>::accelerated(0, {1, 2, 3}, {1, 0, 0}, {0, 0, -9.81});
  s.motion[1] = Motion<3>::accelerated(0, {5, 2, 3}, {-1, 0, 0}, {0, 0, -9.81});
  s.bound[0].radius = s.bound[1].radius = 0.5;
  expect_same(s, 0, 0.25, false, 1);
  expect_same(s, 1e-12, 0, false, 1);
}

}  // namespace
}  // namespace kds::testing
