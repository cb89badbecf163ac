// The fast path of the pair certificate (certificates/bound_separation.hpp, taken for
// linear centres: short polynomials exactly, bounded doubles in intervals) against its
// twin, the generic function built from kds::Polynomial: exactly the same polynomial, bit
// for bit, and in intervals enclosures of it of the same degree, about as wide. Random motions and bounds, and the degenerate ones: equal
// motions, spheres at rest, a pair on one axis only, zero and non-zero allowances,
// origin at and away from the bounds' resets.
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
