// The fast path of the pair certificate (certificates/bound_separation.hpp over
// certificates/short_polynomial.hpp, taken for linear centres) against its twin, the
// generic function built from kds::Polynomial: the same polynomial, bit for bit, in
// intervals and exactly. Random motions and bounds, and the degenerate ones: equal
// motions, spheres at rest, a pair on one axis only, zero and non-zero allowances,
// origin at and away from the bounds' resets.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>

#include "certificates/bound_separation.hpp"
#include "kds/number_types.hpp"
#include "kds/motion.hpp"
#include "structures/collision/bound.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

/// Two spheres (bodies 0 and 1): their centres' motions and bounds.
struct Scene {
  std::array<Motion<3>, 2> motion;
  std::array<Bound, 2> bound;
};

/// The owner interface without the fast path: BoundSeparation builds the generic function.
struct GenericOwner {
  const Scene* scene;
  template <class NT>
  Polynomial<NT> centre(BodyId id, int axis, double origin) const {
    return scene->motion[id.index].coordinate<NT>(axis, origin);
  }
  template <class NT>
  Polynomial<NT> radius(BodyId id, double origin) const {
    return scene->bound[id.index].radius_polynomial<NT>(origin);
  }
  void separation_failed(BoundSeparation<GenericOwner>&, Simulator&) {}
};

/// The same with the fast path's interface; counts how often it is used.
struct FastOwner : GenericOwner {
  mutable int lines = 0;
  template <class NT>
  bool centre_line(BodyId id, int axis, double origin, Line<NT>& out) const {
    ++lines;
    return scene->motion[id.index].coordinate_line<NT>(axis, origin, out);
  }
  template <class NT>
  ShortPolynomial<NT> short_radius(BodyId id, double origin) const {
    return scene->bound[id.index].radius_polynomial<NT, ShortPolynomial<NT>>(origin);
  }
  void separation_failed(BoundSeparation<FastOwner>&, Simulator&) {}
};

bool same(const Interval& a, const Interval& b) {
  return std::bit_cast<std::uint64_t>(a.lo()) == std::bit_cast<std::uint64_t>(b.lo()) &&
         std::bit_cast<std::uint64_t>(a.hi()) == std::bit_cast<std::uint64_t>(b.hi());
}
bool same(const Rational& a, const Rational& b) { return a == b; }

template <class NT>
void expect_same_function(const Scene& s, double allowance, double origin, bool linear) {
  GenericOwner generic{&s};
  FastOwner fast{&s};
  const BodyId a{0, 0}, b{1, 0};
  const BoundSeparation<GenericOwner> slow_c(generic, a, b, "test", 1, allowance);
  const BoundSeparation<FastOwner> fast_c(fast, a, b, "test", 1, allowance);
  const Polynomial<NT> p = slow_c.function<NT>(origin), q = fast_c.function<NT>(origin);
  ASSERT_EQ(p.degree(), q.degree());
  for (int i = 0; i <= p.degree(); ++i) EXPECT_TRUE(same(p[i], q[i])) << "coefficient " << i;
  if (linear) EXPECT_GT(fast.lines, 0);  // the fast path was taken
}

void expect_same(const Scene& s, double allowance, double origin, bool linear = true) {
  expect_same_function<Interval>(s, allowance, origin, linear);
  expect_same_function<Rational>(s, allowance, origin, linear);
}

TEST(PairFunction, FastPathIsTheGenericFunctionBitForBit) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int round = 0; round < 2000; ++round) {
    Scene s;
    const double t0 = 10 * (u(rng) + 1);
    for (int i = 0; i < 2; ++i) {
      Vec<3> x{100 * u(rng), 100 * u(rng), 100 * u(rng)}, v{20 * u(rng), 20 * u(rng), 20 * u(rng)};
      if (round % 7 == 0) v = {0, 0, 0};             // at rest
      if (round % 11 == 0) v[1] = v[2] = 0, x[1] = x[2] = 0;  // on one axis
      const double start = round % 3 == 0 ? t0 : t0 + std::fabs(u(rng));
      s.motion[i] = Motion<3>::linear(start, x, v);
      s.bound[i].radius = 0.1 + 10 * std::fabs(u(rng));
      s.bound[i].acceleration = round % 2 == 0 ? 0 : 10 + 10 * std::fabs(u(rng));  // ballistic or unknown
      s.bound[i].reset_time = start;
    }
    if (round % 13 == 0) s.motion[1] = s.motion[0];  // equal motions
    const double allowance = round % 5 == 0 ? 1e-9 * std::fabs(u(rng)) : 0;
    const double origin = round % 4 == 0 ? s.motion[0].start() : t0 + 3 * std::fabs(u(rng));
    expect_same(s, allowance, origin);
  }
}

TEST(PairFunction, QuadraticCentresTakeTheGenericPath) {
  // Under gravity a centre is a parabola: no Line, the generic function (still equal).
  Scene s;
  s.motion[0] = Motion<3>::accelerated(0, {1, 2, 3}, {1, 0, 0}, {0, 0, -9.81});
  s.motion[1] = Motion<3>::accelerated(0, {5, 2, 3}, {-1, 0, 0}, {0, 0, -9.81});
  s.bound[0].radius = s.bound[1].radius = 0.5;
  expect_same(s, 0, 0.25, false);
  expect_same(s, 1e-12, 0, false);
}

}  // namespace
}  // namespace kds::testing
