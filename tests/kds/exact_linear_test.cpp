// The linear lane of the exact path (kds/exact/algebraic.cpp): failure times, signs just
// after now and comparisons of polynomials of degree <= 1 are decided with rationals,
// without CGAL's root isolation. Twin: the same polynomial times (t^2 + 1), which has the
// same real roots and signs but degree 3, so CGAL decides it; on random and degenerate
// input (roots at now, equal roots of different polynomials, constants, roots beyond the
// largest double, huge and tiny coefficients), with `now` a double, a rational root and an
// irrational root.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kds/exact/algebraic.hpp"
#include "kds/solver.hpp"
#include "test_seed.hpp"

namespace {

using kds::Polynomial;
using kds::Rational;
using kds::Root;
using P = Polynomial<Rational>;

/// The same real roots and signs, degree + 2: the general path of the exact solver.
P through_cgal(const P& p) { return p * P{Rational(1), Rational(0), Rational(1)}; }

::testing::AssertionResult same_time(const Root& a, const Root& b) {
  if (a.is_infinite() || b.is_infinite()) {
    if (a.is_infinite() == b.is_infinite()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << a << " vs " << b;
  }
  const int c = kds::exact::compare(a, b);
  if (c == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " vs " << b << " (exact comparison " << c << ")";
}

/// Clocks: doubles, a rational that is not a double (the root of 3t - 1, from the lane),
/// and irrational ones (roots of 2 - t^2 and t^2 - 3t + 1, from CGAL).
std::vector<Root> clocks() {
  std::vector<Root> c{Root::at(0.0), Root::at(1.0), Root::at(0.5), Root::at(-2.25), Root::at(1e-300)};
  c.push_back(kds::exact::first_failure(P{Rational(1), Rational(-3)}, Root::at(0.0)));                // 1/3
  c.push_back(kds::exact::first_failure(P{Rational(2), Rational(0), Rational(-1)}, Root::at(0.0)));  // sqrt 2
  c.push_back(kds::exact::first_failure(P{Rational(1), Rational(-3), Rational(1)}, Root::at(0.0)));  // (3 - sqrt 5) / 2
  return c;
}

Rational random_rational(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  switch (rng() % 5) {
    case 0: return Rational(std::ldexp(u(rng), static_cast<int>(rng() % 200) - 100));  // huge and tiny
    case 1: return Rational(static_cast<long>(rng() % 7) - 3);                         // small integers, zero
    case 2: {
      Rational r(static_cast<long>(rng() % 19) - 9, static_cast<long>(rng() % 5) + 1);
      r.canonicalize();
      return r;
    }
    default: return Rational(u(rng));
  }
}

TEST(ExactLinearLane, AgreesWithCgalOnRandomAndDegenerateLines) {
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<P> lines = {
      P{Rational(1), Rational(-3)},                                                     // root 1/3: at the clock 1/3
      P{Rational(-1), Rational(3)},                                                     // the same root, rising
      P{Rational(2), Rational(-2)},  P{Rational(-1), Rational(1)},                      // root 1
      P{Rational(-2), Rational(0)},  P{Rational(5)},                                    // constants
      P{Rational(std::numeric_limits<double>::max()) * 4, Rational(-1)},               // root beyond the doubles
      P{Rational(1e-300), Rational(-1)}, P{Rational(0), Rational(-1e-300)},            // roots at 1e-300 and 0
  };
  for (int i = 0; i < 3000; ++i) lines.push_back(P{random_rational(rng), random_rational(rng)});
  const std::vector<Root> now = clocks();
  const auto before = kds::solver_counters().exact_linear;
  std::vector<Root> failures;
  for (const P& p : lines) {
    if (p.is_zero()) continue;
    for (const Root& t : now) {
      const Root lane = kds::exact::first_failure(p, t), cgal = kds::exact::first_failure(through_cgal(p), t);
      ASSERT_TRUE(same_time(lane, cgal)) << "first failure of " << p[0] << " + " << p[1] << " t from " << t;
      ASSERT_EQ(kds::exact::sign_just_after(p, t), kds::exact::sign_just_after(through_cgal(p), t))
          << p[0] << " + " << p[1] << " t after " << t;
      if (!lane.is_infinite() && !lane.is_point()) {
        failures.push_back(lane);
        failures.push_back(cgal);
      }
    }
  }
  EXPECT_GT(kds::solver_counters().exact_linear, before) << "the lane was taken";
  // Comparisons: rational against rational (mpq), rational against algebraic (mixed) and
  // algebraic against algebraic (CGAL) agree, and with the clocks.
  std::vector<Root> all = failures;
  all.insert(all.end(), now.begin(), now.end());
  for (std::size_t i = 0; i < all.size(); i += 7)
    for (std::size_t j = 0; j < all.size(); j += 5) {
      const int c = kds::exact::compare(all[i], all[j]);
      ASSERT_EQ(c, -kds::exact::compare(all[j], all[i])) << all[i] << " vs " << all[j];
      if (i % 2 == 0 && i + 1 < failures.size())  // all[i], all[i + 1]: the same root, lane and CGAL
        ASSERT_EQ(c, kds::exact::compare(all[i + 1], all[j])) << all[i] << " vs " << all[j];
    }
}

TEST(ExactLinearLane, RootInAnIsolatingInterval) {
  // root_in of a line: the rational root, equal to CGAL's.
  const P p{Rational(1), Rational(-3)};
  const auto lane = kds::exact::root_in(p, 0.25, 0.5);
  const auto cgal = kds::exact::root_in(through_cgal(p), 0.25, 0.5);
  EXPECT_EQ(kds::exact::compare(Root::exact(0.25, 0.5, lane), Root::exact(0.25, 0.5, cgal)), 0);
  EXPECT_THROW(kds::exact::root_in(p, 0.5, 0.75), std::logic_error) << "the interval does not hold the root";
}

}  // namespace
