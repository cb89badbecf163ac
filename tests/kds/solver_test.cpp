// The solver: the degenerate rules of kds/solver.hpp, the filtered path against the pure
// exact path on random and planted-root polynomials, root comparison against the exact
// comparison, and the filter deciding almost every random case.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "kds/exact/algebraic.hpp"
#include "kds/solver.hpp"
#include "test_functions.hpp"
#include "test_seed.hpp"

namespace {

using kds::Birth;
using kds::Exactness;
using kds::Polynomial;
using kds::Rational;
using kds::Root;
using kds::testing::linear_factor;
using kds::testing::RationalFunction;
using kds::testing::uniform;
using kds::testing::uniform_int;

using P = Polynomial<Rational>;

Rational q(long n, long d = 1) {
  Rational r(n, d);
  r.canonicalize();
  return r;
}

/// The failure time of f from now, exactly (the reference).
Root exact_failure(const kds::Function& f, const Root& now) { return kds::exact::first_failure(f.exact_polynomial(), now); }

/// Both never, or the same time exactly.
::testing::AssertionResult same_time(const Root& a, const Root& b) {
  if (a.is_infinite() || b.is_infinite()) {
    if (a.is_infinite() == b.is_infinite()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << a << " vs " << b;
  }
  int c = kds::exact::compare(a, b);
  if (c == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " vs " << b << " (exact comparison " << c << ")";
}

bool is_exactly(const Root& r, const Rational& t) {
  if (r.is_infinite()) return false;
  // The root of t - x, built by the exact path.
  Root rt = kds::exact::first_failure(P{t, Rational(-1)}, Root::at(std::floor(t.get_d()) - 1));
  return kds::exact::compare(r, rt) == 0;
}

Root fail(const P& p, const Root& now, Birth birth = Birth::generic, double t0 = 0.0) {
  RationalFunction f(p, t0);
  Root r = kds::first_failure(f, now, birth);
  r.pin();  // f dies here
  return r;
}

// ---------------------------------------------------------------- the written rules

TEST(SolverRules, RootAtNowFailsOnlyIfNegativeJustAfter) {
  // f = t - 1 at now = 1: zero now, positive after: never.
  EXPECT_TRUE(fail(P{q(-1), q(1)}, Root::at(1.0)).is_infinite());
  // f = 1 - t at now = 1: zero now, negative after: fails now.
  Root r = fail(P{q(1), q(-1)}, Root::at(1.0));
  ASSERT_FALSE(r.is_infinite());
  EXPECT_EQ(kds::compare(r, 1.0), 0);
  // Same rules in the exact path itself.
  EXPECT_TRUE(kds::exact::first_failure(P{q(-1), q(1)}, Root::at(1.0)).is_infinite());
  EXPECT_EQ(kds::compare(kds::exact::first_failure(P{q(1), q(-1)}, Root::at(1.0)), 1.0), 0);
  // A root at now of odd multiplicity 3: (t - 1)^3 is positive after 1: never; its negation fails now.
  P cube = linear_factor(q(1)) * linear_factor(q(1)) * linear_factor(q(1));
  EXPECT_TRUE(fail(cube, Root::at(1.0)).is_infinite());
  EXPECT_EQ(kds::compare(fail(-cube, Root::at(1.0)), 1.0), 0);
}

TEST(SolverRules, EvenMultiplicityRootsTouchWithoutFailing) {
  P square = linear_factor(q(1)) * linear_factor(q(1));  // (t - 1)^2
  EXPECT_TRUE(fail(square, Root::at(0.0)).is_infinite());
  EXPECT_TRUE(fail(square, Root::at(1.0)).is_infinite());
  // (t - 1)^2 (3 - t): touches at 1, fails at 3.
  Root r = fail(square * P{q(3), q(-1)}, Root::at(0.0));
  ASSERT_FALSE(r.is_infinite());
  EXPECT_EQ(kds::compare(r, 3.0), 0) << r;
  // A touching root at a non-double time: (3t - 1)^2 (t^2 + 1) touches at 1/3.
  P touch = P{q(-1), q(3)} * P{q(-1), q(3)} * P{q(1), q(0), q(1)};
  EXPECT_TRUE(fail(touch, Root::at(0.0)).is_infinite());
  // ... and the degree-4 touch at 1/3 followed by a crossing at 1/2.
  Root r2 = fail(P{q(-1), q(3)} * P{q(-1), q(3)} * P{q(1), q(-2)}, Root::at(0.0));
  EXPECT_TRUE(is_exactly(r2, q(1, 2))) << r2;
  // Touching from below is a failure at the touching time only if negative after: -(t-1)^2
  // is negative already at 0.
  EXPECT_EQ(kds::compare(fail(-square, Root::at(0.0)), 0.0), 0);
  EXPECT_EQ(kds::compare(fail(-square, Root::at(1.0)), 1.0), 0);
}

TEST(SolverRules, IdenticallyZeroNeverFails) {
  EXPECT_TRUE(fail(P{}, Root::at(0.0)).is_infinite());
  EXPECT_TRUE(fail(P{}, Root::at(0.0), Birth::vanishes_now).is_infinite());
  EXPECT_TRUE(fail(P{q(0), q(0)}, Root::at(-5.0)).is_infinite());
  RationalFunction zero{P{}};
  EXPECT_EQ(kds::sign_just_after(zero, Root::at(3.0)), kds::Sign::zero);
  EXPECT_TRUE(kds::first_failure(zero, Root::at(0.0), Birth::generic, Exactness::floating).is_infinite());
  // A function that cancels exactly after the shift to now (same motion twice) is zero too.
  RationalFunction shifted_zero(P{q(1), q(1)} - P{q(1), q(1)}, 1e6);
  EXPECT_TRUE(kds::first_failure(shifted_zero, Root::at(3.0)).is_infinite());
}

TEST(SolverRules, AlreadyNegativeFailsAtNow) {
  EXPECT_EQ(kds::compare(fail(P{q(-1)}, Root::at(2.0)), 2.0), 0);
  EXPECT_EQ(kds::compare(fail(P{q(-1), q(1)}, Root::at(0.5)), 0.5), 0);  // rises later, but negative now
  EXPECT_EQ(kds::compare(fail(P{q(-1, 1000000), q(1)}, Root::at(0.0)), 0.0), 0);
  // Floating mode obeys the rule as well when the violation is far above rounding.
  RationalFunction f(P{q(-1), q(1)});
  Root r = kds::first_failure(f, Root::at(0.0), Birth::generic, Exactness::floating);
  ASSERT_FALSE(r.is_infinite()) << "floating mode missed a violated certificate";
  EXPECT_EQ(kds::compare(r, 0.0), 0) << r;
  EXPECT_EQ(kds::sign_just_after(f, Root::at(0.0)), kds::Sign::negative);
  EXPECT_EQ(kds::sign_just_after(f, Root::at(0.0), Exactness::floating), kds::Sign::negative);
}

TEST(SolverRules, RootsAtTimeZero) {
  EXPECT_TRUE(fail(P{q(0), q(1)}, Root::at(0.0)).is_infinite());        // t
  EXPECT_EQ(kds::compare(fail(P{q(0), q(-1)}, Root::at(0.0)), 0.0), 0);  // -t
  EXPECT_TRUE(fail(P{q(0), q(0), q(1)}, Root::at(0.0)).is_infinite());   // t^2
  EXPECT_EQ(kds::compare(fail(P{q(0), q(-1), q(1)}, Root::at(0.0)), 0.0), 0);  // t^2 - t
  Root r = fail(P{q(0), q(1), q(-1)}, Root::at(0.0));                       // t - t^2
  EXPECT_EQ(kds::compare(r, 1.0), 0) << r;
  EXPECT_EQ(kds::sign_just_after(RationalFunction(P{q(0), q(1), q(-1)}), Root::at(0.0)), kds::Sign::positive);
  EXPECT_EQ(kds::sign_just_after(RationalFunction(P{q(0), q(0), q(-1)}), Root::at(0.0)), kds::Sign::negative);
  // -0.0 is time zero too.
  EXPECT_EQ(kds::compare(fail(P{q(0), q(-1)}, Root::at(-0.0)), 0.0), 0);
}

TEST(SolverRules, VanishesNowHintSkipsTheRootAtNowWithoutExactWork) {
  // now = sqrt(2), an algebraic time, as the failure time of 2 - t^2.
  RationalFunction source(P{q(2), q(0), q(-1)});
  Root now = kds::first_failure(source, Root::at(0.0));
  ASSERT_FALSE(now.is_infinite());
  ASSERT_FALSE(now.is_point());
  RationalFunction swapped(P{q(-2), q(0), q(1)});  // t^2 - 2: vanishes at now, positive after
  auto before = kds::solver_counters();
  Root r = kds::first_failure(swapped, now, Birth::vanishes_now);
  EXPECT_TRUE(r.is_infinite()) << r;
  EXPECT_EQ(kds::solver_counters().failure_exact, before.failure_exact) << "the hint did not spare the exact path";
  EXPECT_EQ(kds::solver_counters().exact_roots_built, before.exact_roots_built);
  // (t^2 - 2)(3 - t): vanishes now, positive after, fails at 3.
  RationalFunction later(P{q(-2), q(0), q(1)} * P{q(3), q(-1)});
  Root r2 = kds::first_failure(later, now, Birth::vanishes_now);
  EXPECT_EQ(kds::compare(r2, 3.0), 0) << r2;
  EXPECT_TRUE(same_time(r2, exact_failure(later, now)));
  // Without the hint the answer is the same.
  EXPECT_TRUE(kds::first_failure(swapped, now).is_infinite());
  EXPECT_EQ(kds::compare(kds::first_failure(later, now), 3.0), 0);
  // Linear crossing at a rational non-double time: t = 1/3.
  RationalFunction falling(P{q(1), q(-3)});
  Root third = kds::first_failure(falling, Root::at(0.0));
  RationalFunction rising(P{q(-1), q(3)});
  before = kds::solver_counters();
  EXPECT_TRUE(kds::first_failure(rising, third, Birth::vanishes_now).is_infinite());
  EXPECT_EQ(kds::solver_counters().failure_exact, before.failure_exact);
}

TEST(SolverRules, NowIsAnAlgebraicRoot) {
  RationalFunction source(P{q(2), q(0), q(-1)});  // 2 - t^2, fails at sqrt(2)
  Root now = kds::first_failure(source, Root::at(0.0));
  ASSERT_FALSE(now.is_point());
  EXPECT_LT(now.lo(), 1.4142135623730951);
  EXPECT_GT(now.hi(), 1.4142135623730949);
  // A different function with the same root from the same "now".
  EXPECT_EQ(kds::compare(fail(P{q(4), q(0), q(-2)}, now), now), 0);           // 4 - 2 t^2: fails now
  EXPECT_TRUE(fail(P{q(-4), q(0), q(2)}, now).is_infinite());                // 2 t^2 - 4: never
  EXPECT_TRUE(fail(P{q(-2), q(0), q(1)} * P{q(-2), q(0), q(1)}, now).is_infinite());  // touch at now
  EXPECT_EQ(kds::compare(fail(P{q(-3, 2), q(1)}, now), now), 0);             // t - 1.5 < 0 at sqrt 2
  Root r = fail(P{q(3, 2), q(-1)}, now);                                      // 1.5 - t
  EXPECT_EQ(kds::compare(r, 1.5), 0) << r;
  // A root just after now, from a different polynomial: t^2 - 2 - 1e-30 ... as (t - sqrt2)... use
  // (t^2 - 2)(t - 2) negated: zero at now, positive just after sqrt 2? -(t^2-2)(t-2) = (t^2-2)(2-t) > 0 on (sqrt2, 2).
  Root r2 = fail(P{q(-2), q(0), q(1)} * P{q(2), q(-1)}, now);
  EXPECT_EQ(kds::compare(r2, 2.0), 0) << r2;
  EXPECT_EQ(kds::sign_just_after(RationalFunction(P{q(-2), q(0), q(1)}), now), kds::Sign::positive);
  EXPECT_EQ(kds::sign_just_after(RationalFunction(P{q(2), q(0), q(-1)}), now), kds::Sign::negative);
  EXPECT_EQ(kds::sign_just_after(RationalFunction(P{q(-2), q(0), q(1)} * P{q(-2), q(0), q(1)}), now), kds::Sign::positive);
}

// ---------------------------------------------------------------- filtered against exact

/// A random polynomial of degree 1 to 6 in (t - t0): random doubles, or planted roots
/// (simple, double, and pairs closer than the doubles can tell apart after the shift).
P random_polynomial(std::mt19937_64& rng, int& kind) {
  const int degree = uniform_int(rng, 1, 6);
  kind = uniform_int(rng, 0, 4);
  P p;
  if (kind <= 1) {
    for (int i = 0; i <= degree; ++i)
      p.set(i, Rational(kind == 0 ? uniform(rng, -1, 1) : double(uniform_int(rng, -4, 4))));
    if (p.is_zero()) p = P{q(1)};
    return p;
  }
  p = P{Rational(uniform_int(rng, 0, 1) ? 1 : -1)};
  while (p.degree() < degree) {
    Rational r = uniform_int(rng, 0, 1) ? kds::testing::small_rational(rng, 30, 9) : Rational(uniform(rng, -3, 3));
    int what = uniform_int(rng, 0, 3);
    if (kind == 2 || what == 0 || p.degree() + 2 > degree) {
      p *= linear_factor(r);
    } else if (kind == 3 || what == 1) {
      p *= linear_factor(r) * linear_factor(r);  // double root
    } else {
      Rational eps(std::ldexp(1.0, -uniform_int(rng, 20, 60)));
      p *= linear_factor(r) * linear_factor(r + eps);  // close roots
    }
    if (p.degree() < degree && uniform_int(rng, 0, 5) == 0) p *= P{q(1), q(0), q(1)};  // no real root
  }
  return p;
}

TEST(SolverAgainstExact, FirstFailureAgreesOnRandomPolynomials) {
  std::mt19937_64 rng(kds::testing::test_seed());
  int exact_cases = 0, total = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    int kind = 0;
    P local = random_polynomial(rng, kind);
    const double t0 = uniform_int(rng, 0, 3) == 0 ? uniform(rng, -2, 2) : 0.0;
    RationalFunction f(local, t0);
    // now: zero, a random double, or an algebraic root of another random polynomial.
    Root now = Root::at(0.0);
    std::unique_ptr<RationalFunction> now_source;
    switch (uniform_int(rng, 0, 3)) {
      case 0: break;
      case 1: now = Root::at(uniform(rng, -2, 2)); break;
      default: {
        int k2 = 0;
        now_source = std::make_unique<RationalFunction>(random_polynomial(rng, k2));
        Root r = kds::first_failure(*now_source, Root::at(uniform(rng, -3, 0)));
        if (!r.is_infinite()) now = r;
        if (uniform_int(rng, 0, 1) == 0) {
          // Plant a root of f exactly at now: f := f * g where g is now's source.
          P prod = local.degree() + now_source->local().degree() <= P::max_degree
                       ? f.exact_polynomial() * now_source->local()
                       : f.exact_polynomial();
          f = RationalFunction(prod);
        }
      }
    }
    SCOPED_TRACE(::testing::Message() << "iteration " << iter << ", kind " << kind << ", now " << now);
    auto before = kds::solver_counters();
    Root filtered = kds::first_failure(f, now);
    exact_cases += static_cast<int>(kds::solver_counters().failure_exact - before.failure_exact);
    ++total;
    Root reference = exact_failure(f, now);
    ASSERT_TRUE(same_time(filtered, reference));
    if (!filtered.is_infinite()) {
      ASSERT_LE(kds::compare(now, filtered), 0) << "failure before now";
      // Its isolating interval isolates: the exact value can be built from it.
      ASSERT_NO_THROW(filtered.pin());
    }
    const kds::Sign sign = kds::sign_just_after(f, now);
    ASSERT_EQ(sign, kds::sign_of(kds::exact::sign_just_after(f.exact_polynomial(), now)));
    // Fails at now iff negative just after now.
    if (sign == kds::Sign::negative) ASSERT_EQ(kds::compare(filtered, now), 0);
    if (sign == kds::Sign::positive && !filtered.is_infinite()) ASSERT_GT(kds::compare(filtered, now), 0);
  }
  RecordProperty("exact_fraction_percent", std::to_string(100.0 * exact_cases / total));
}

TEST(SolverAgainstExact, FilterDecidesAlmostAllRandomCases) {
  std::mt19937_64 rng(kds::testing::test_seed());
  auto before = kds::solver_counters();
  for (int iter = 0; iter < 5000; ++iter) {
    P p;
    const int degree = uniform_int(rng, 1, 6);
    for (int i = 0; i <= degree; ++i) p.set(i, Rational(uniform(rng, -1, 1)));
    RationalFunction f(p, uniform(rng, -1, 1));
    Root now = Root::at(uniform(rng, -1, 1));
    Root r = kds::first_failure(f, now);
    ASSERT_TRUE(same_time(r, exact_failure(f, now))) << "iteration " << iter;
    (void)kds::sign_just_after(f, now);
  }
  auto after = kds::solver_counters();
  const auto computations = after.failure_computations - before.failure_computations;
  const auto exact = after.failure_exact - before.failure_exact;
  EXPECT_EQ(computations, 5000u);
  EXPECT_LT(exact * 100, computations) << exact << " of " << computations << " needed the exact path";
  EXPECT_LT((after.sign_exact - before.sign_exact) * 100, after.sign_queries - before.sign_queries);
}

TEST(SolverAgainstExact, CloseRootsFarFromTheOrigin) {
  // Two roots 1e-12 apart in local time, at t around 1e6: the doubles around t cannot
  // separate them, so the filter must not hand out an interval that holds both.
  const double t0 = 1e6;
  P local = linear_factor(Rational(1e-12)) * linear_factor(Rational(2e-12));  // in s = t - t0
  RationalFunction f(local, t0);
  Root now = Root::at(t0);
  Root r = kds::first_failure(f, now);
  Root reference = exact_failure(f, now);
  ASSERT_FALSE(r.is_infinite());
  EXPECT_NO_THROW(r.pin()) << r;
  EXPECT_TRUE(same_time(r, reference));
  // From the first root, the negation fails at the second root (the swap of a sorted list).
  RationalFunction negated(-local, t0);
  Root second = kds::first_failure(negated, reference, Birth::vanishes_now);
  EXPECT_NO_THROW(second.pin());
  EXPECT_TRUE(same_time(second, exact_failure(negated, reference)));
  EXPECT_GT(kds::compare(second, reference), 0);
}

TEST(SolverAgainstExact, QuadraticWithUncertainMiddleCoefficient) {
  // c0 > 0, c2 < 0, c1 = 0 but known only as a tiny interval around zero, as after a
  // rounded shift. The only positive root is 1; the filter must not answer anything else.
  class Wide final : public kds::Function {
   public:
    kds::Polynomial<kds::Interval> interval_polynomial(double origin) const override {
      EXPECT_EQ(origin, 0.0);
      return {kds::Interval(1e-20), kds::Interval(-1e-16, 1e-16), kds::Interval(-1e-20)};
    }
    kds::Polynomial<double> double_polynomial(double) const override { return {1e-20, 0.0, -1e-20}; }
    kds::Polynomial<Rational> exact_polynomial() const override { return {Rational(1e-20), Rational(0), Rational(-1e-20)}; }
  } f;
  Root r = kds::first_failure(f, Root::at(0.0));
  ASSERT_FALSE(r.is_infinite());
  EXPECT_LE(r.lo(), 1.0);
  EXPECT_GE(r.hi(), 1.0);
  EXPECT_EQ(kds::compare(r, 1.0), 0) << r;
}

TEST(SolverAgainstExact, CompareAgreesWithExactCompare) {
  std::mt19937_64 rng(kds::testing::test_seed());
  std::vector<std::unique_ptr<RationalFunction>> sources;
  std::vector<Root> roots;
  // Roots of random polynomials, equal roots from different polynomials, close roots and doubles.
  for (int i = 0; i < 150; ++i) {
    int kind = 0;
    sources.push_back(std::make_unique<RationalFunction>(random_polynomial(rng, kind)));
    Root r = kds::first_failure(*sources.back(), Root::at(-3.0));
    if (!r.is_infinite()) roots.push_back(r);
  }
  for (int k = 2; k < 8; ++k) {
    // sqrt(k) as the root of k - t^2, 2k - 2t^2 and (k - t^2)(t + 5).
    sources.push_back(std::make_unique<RationalFunction>(P{q(k), q(0), q(-1)}));
    roots.push_back(kds::first_failure(*sources.back(), Root::at(0.0)));
    sources.push_back(std::make_unique<RationalFunction>(P{q(2 * k), q(0), q(-2)}));
    roots.push_back(kds::first_failure(*sources.back(), Root::at(0.0)));
    sources.push_back(std::make_unique<RationalFunction>(P{q(k), q(0), q(-1)} * P{q(5), q(1)}));
    roots.push_back(kds::first_failure(*sources.back(), Root::at(0.0)));
    roots.push_back(Root::at(std::sqrt(double(k))));
    roots.push_back(Root::at(std::nextafter(std::sqrt(double(k)), 0.0)));
  }
  for (int d = 3; d < 9; ++d) {  // k/d and k/d + 2^-50, non-double rationals
    for (int k = 1; k < 4; ++k) {
      sources.push_back(std::make_unique<RationalFunction>(P{q(k, d), q(-1)}));
      roots.push_back(kds::first_failure(*sources.back(), Root::at(0.0)));
      sources.push_back(std::make_unique<RationalFunction>(P{q(k, d) + Rational(std::ldexp(1.0, -50)), q(-1)}));
      roots.push_back(kds::first_failure(*sources.back(), Root::at(0.0)));
    }
  }
  roots.push_back(Root::infinity());
  int equal_pairs = 0;
  for (std::size_t i = 0; i < roots.size(); ++i)
    for (std::size_t j = 0; j < roots.size(); ++j) {
      const Root &a = roots[i], &b = roots[j];
      int c = kds::compare(a, b);
      ASSERT_EQ(c, -kds::compare(b, a)) << a << " vs " << b;
      if (a.is_infinite() || b.is_infinite()) {
        ASSERT_EQ(c, a.is_infinite() == b.is_infinite() ? 0 : a.is_infinite() ? 1 : -1);
        continue;
      }
      ASSERT_EQ(c, kds::exact::compare(a, b)) << a << " vs " << b;
      if (c == 0 && i != j) ++equal_pairs;
    }
  EXPECT_GE(equal_pairs, 6 * 2 * 3);  // the sqrt(k) triples at least, both ways
}

/// slope * (t - a - b): a line whose interval enclosure is valid but loose by +-blur (as a
/// custom key's is far from the origin: guards and cones' facet planes) while its
/// double-double balls are tight.
class LooseLine final : public kds::Function {
 public:
  LooseLine(double slope, double a, double b, double blur) : slope_(slope), a_(a), b_(b), blur_(blur) {}
  Polynomial<kds::Interval> interval_polynomial(double origin) const override {
    const kds::Interval c0 = kds::Interval(slope_) * ((kds::Interval(origin) - kds::Interval(a_)) - kds::Interval(b_));
    return {kds::Interval(kds::next_down(c0.lo() - blur_), kds::next_up(c0.hi() + blur_)), kds::Interval(slope_)};
  }
  Polynomial<double> double_polynomial(double origin) const override { return {slope_ * ((origin - a_) - b_), slope_}; }
  Polynomial<Rational> exact_polynomial() const override {
    return P{-Rational(slope_) * (Rational(a_) + Rational(b_)), Rational(slope_)};
  }
  std::optional<Polynomial<kds::DoubleDoubleBall>> double_double_polynomial(double origin) const override {
    using B = kds::DoubleDoubleBall;
    return Polynomial<B>{B(slope_) * (B::difference(origin, a_) - B(b_)), B(slope_)};
  }

 private:
  double slope_, a_, b_, blur_;
};

TEST(SolverAgainstExact, CloseRootsOfLooseEnclosuresAreToldApartWithoutTheExactPath) {
  // Two failure times 2^-43 (about 1.1e-13) apart, each isolated in an interval 2.3e-11
  // wide, whose enclosures are loose by +-1e-12 in value: intervals narrow them to about
  // 2.9e-12 and 1.8e-13, still overlapping, and the comparison goes on with double-double
  // balls (Root::tighten) instead of computing exact roots.
  // (Roots off the doubles that bisection visits, as failure times are.)
  const double r = 0x1.8p-45, lo = 0.5 - 1e-11, hi = 0.5 + 1.3e-11;
  const LooseLine f(-3.5, 0.5, r, 1e-12), g(-57.0, 0.5, r + 0x1p-43, 1e-12);
  const Root a = Root::isolated(lo, hi, &f), b = Root::isolated(lo, hi, &g);
  const kds::SolverCounters before = kds::solver_counters();
  EXPECT_EQ(kds::compare(a, b), -1);
  EXPECT_EQ(kds::compare(b, a), 1);
  EXPECT_EQ(kds::solver_counters().comparisons_exact, before.comparisons_exact) << "went exact";
  EXPECT_FALSE(a.has_exact());
  EXPECT_FALSE(b.has_exact());
  EXPECT_EQ(kds::exact::compare(a, b), -1);
  // Equal roots of two different lines: no filter can tell, the exact path says equal.
  const LooseLine h(-57.0, 0.5, r, 1e-12);
  const Root c = Root::isolated(lo, hi, &h);
  const kds::SolverCounters before_equal = kds::solver_counters();
  EXPECT_EQ(kds::compare(Root::isolated(lo, hi, &f), c), 0);
  EXPECT_EQ(kds::solver_counters().comparisons_exact, before_equal.comparisons_exact + 1);
}

TEST(SolverFloating, GenericAnswersAreClose) {
  std::mt19937_64 rng(kds::testing::test_seed());
  int compared = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    P p;
    const int degree = uniform_int(rng, 1, 4);
    for (int i = 0; i <= degree; ++i) p.set(i, Rational(uniform(rng, -1, 1)));
    RationalFunction f(p);
    Root now = Root::at(uniform(rng, -1, 1));
    Root fl = kds::first_failure(f, now, Birth::generic, Exactness::floating);
    Root ex = exact_failure(f, now);
    ASSERT_TRUE(fl.is_point() || fl.is_infinite());
    if (fl.is_infinite() || ex.is_infinite()) continue;  // near-tangent cases may differ
    ++compared;
    EXPECT_NEAR(fl.approx(), ex.approx(), 1e-6 * (1 + std::fabs(ex.approx()))) << "iteration " << iter;
  }
  EXPECT_GT(compared, 500);
}

// ---------------------------------------------------------------- rounding and allowances

TEST(SolverRounding, CeilToDoubleOfRationals) {
  EXPECT_EQ(kds::ceil_to_double(q(1, 2)), 0.5);
  EXPECT_EQ(kds::ceil_to_double(q(-3, 4)), -0.75);
  EXPECT_EQ(kds::ceil_to_double(q(0)), 0.0);
  const Rational tiny = Rational(1) / Rational(mpz_class(1) << 1200);
  EXPECT_EQ(kds::ceil_to_double(tiny), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(kds::ceil_to_double(Rational(mpz_class(1) << 1100)), std::numeric_limits<double>::infinity());
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int i = 0; i < 2000; ++i) {
    const Rational x =
        q(uniform_int(rng, -1000000, 1000000), uniform_int(rng, 1, 1000000)) * Rational(uniform(rng, -1e3, 1e3));
    const double d = kds::ceil_to_double(x);
    ASSERT_GE(Rational(d), x) << x;
    ASSERT_LT(Rational(kds::next_down(d)), x) << x;
  }
}

// ceil_to_double of filtered roots (isolating intervals with a source; found from a guess,
// or by bisection where the guess fails): the first double at or after the root, judged by
// exact comparisons. Random polynomials of degree 1 to 4, roots at doubles (a factor t - d),
// near-double roots (t - d (1 + 2^-60)), double roots (a square factor) and roots at 0.
TEST(SolverRounding, CeilToDoubleOfRootsIsTheFirstDoubleAtOrAfterThem) {
  std::mt19937_64 rng(kds::testing::test_seed() + 7);
  int checked = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    P p;
    const int degree = uniform_int(rng, 1, 4);
    for (int i = 0; i <= degree; ++i) p.set(i, Rational(uniform(rng, -1, 1)));
    const double d = uniform(rng, 0, 4);
    switch (iter % 5) {
      case 1: p = p * linear_factor(Rational(d)); break;                                            // a root at a double
      case 2: p = p * linear_factor(Rational(d) * (Rational(1) + Rational(1) / Rational(mpz_class(1) << 60))); break;
      case 3: p = p * linear_factor(Rational(d)) * linear_factor(Rational(d)); break;              // a double root
      case 4: p = p * linear_factor(Rational(0)); break;                                             // a root at 0
      default: break;
    }
    RationalFunction f(p);
    const Root r = kds::first_failure(f, Root::at(iter % 5 == 4 ? -0.5 : 0.0), Birth::generic, Exactness::filtered);
    if (r.is_infinite()) continue;
    const double c = kds::ceil_to_double(r);
    ASSERT_LE(kds::compare(r, c), 0) << "iteration " << iter << ": " << c << " is before the root";
    ASSERT_GT(kds::compare(r, kds::next_down(c)), 0) << "iteration " << iter << ": " << c << " is not the first double";
    ++checked;
  }
  EXPECT_GT(checked, 1500);
}

// f(t) = r - t (decreasing) or t - r (increasing) near t = the double nearest r: the
// interval value straddles 0 there, so only the allowance rule decides.
TEST(SolverAllowance, ClearlyPositiveNeedsNone) {
  RationalFunction f(P{q(1), q(-1)});  // 1 - t
  EXPECT_EQ(kds::allowance_at(f, 0.5), 0.0);
}

TEST(SolverAllowance, DecreasingGetsTheSmallestExactly) {
  for (long d : {3, 7, 11, 13, 1000003}) {
    const Rational r = q(1, d);
    RationalFunction f(P{r, q(-1)});
    for (double t : {r.get_d(), kds::next_up(r.get_d()), kds::next_down(r.get_d())}) {
      const double a = kds::allowance_at(f, t);
      const Rational value = r - Rational(t);
      EXPECT_GE(sgn(value + Rational(a)), 0) << "r = 1/" << d << ", t = " << t;
      if (a > 0) EXPECT_LT(sgn(value + Rational(kds::next_down(a))), 0) << "not the smallest, r = 1/" << d;
      else EXPECT_GE(sgn(value), 0);
    }
  }
  // Exactly zero and decreasing: no allowance, so that it fails now.
  RationalFunction g(P{q(1, 2), q(-1)});
  EXPECT_EQ(kds::allowance_at(g, 0.5), 0.0);
}

TEST(SolverAllowance, IncreasingOrSlowGetsACoveringMargin) {
  const Rational r = q(1, 3);
  for (double at : {r.get_d(), kds::next_up(r.get_d())}) {
    RationalFunction rising(P{Rational(-r), q(1)});  // t - r
    const double a = kds::allowance_at(rising, at);
    EXPECT_GT(sgn(Rational(at) - r + Rational(a)), 0) << "covering means strictly positive";
    EXPECT_LT(a, 1e-15);
  }
  // Decreasing, but more slowly than the caller's rounding: covered, not exact.
  RationalFunction slow(P{Rational(r * q(1, 1000000000)), q(-1, 1000000000)});  // (r - t) / 1e9
  const double a = kds::allowance_at(slow, r.get_d(), 1e-6);
  EXPECT_GT(sgn((r - Rational(r.get_d())) * q(1, 1000000000) + Rational(a)), 0);
}

}  // namespace
