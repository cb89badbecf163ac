// Error-free transformations and the exact sign of a short sum or dot product
// (kds/error_free.hpp): the pairs are exact and the sign is the exact sign, against GMP rationals, on random terms
// over the whole error-free range, sums built to cancel to 0 or to one unit in the last
// place of a much larger term, and the edges of the range.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "kds/error_free.hpp"
#include "kds/number_types.hpp"
#include "test_functions.hpp"
#include "test_seed.hpp"

namespace {

using kds::Rational;
using kds::Sign;
using kds::testing::exact_sign;
using kds::testing::uniform;
using kds::testing::uniform_int;

template <std::size_t N>
Rational exact_sum(const std::array<double, N>& t) {
  Rational s(0);
  for (double x : t) s += Rational(x);
  return s;
}

/// A double over most magnitudes (sums of a dozen do not overflow), both signs, 0 now and then.
double random_in_range(std::mt19937_64& rng) {
  if (uniform_int(rng, 0, 15) == 0) return 0.0;
  return std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -880, 880));
}

TEST(ErrorFree, TwoSumAndTwoProductAreExact) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 20000; ++i) {
    const double a = random_in_range(rng), b = random_in_range(rng);
    double s, e;
    kds::two_sum(a, b, s, e);
    ASSERT_EQ(Rational(s) + Rational(e), Rational(a) + Rational(b)) << "seed " << seed << ": " << a << " + " << b;
    ASSERT_EQ(s, a + b);
    // Products of two in-range doubles whose magnitude stays in range.
    const double c = std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -400, 400));
    const double d = std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -400, 400));
    double p, q;
    kds::two_product(c, d, p, q);
    ASSERT_EQ(Rational(p) + Rational(q), Rational(c) * Rational(d)) << "seed " << seed << ": " << c << " * " << d;
  }
}

TEST(ErrorFree, SignOfRandomSumsIsTheExactSign) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  int zeros = 0;
  for (int i = 0; i < 20000; ++i) {
    std::array<double, 12> t{};
    const int mode = uniform_int(rng, 0, 2);
    if (mode == 0) {
      // Independent terms over the range.
      for (double& x : t) x = random_in_range(rng);
    } else {
      // Pairs of products that cancel exactly (n . o - n . o', one plane through two
      // guards), perturbed in the last place now and then.
      for (int k = 0; k < 3; ++k) {
        const double n = uniform_int(rng, -40, 40);
        const double o = std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -30, 30));
        kds::two_product(n, o, t[4 * k], t[4 * k + 1]);
        kds::two_product(-n, o, t[4 * k + 2], t[4 * k + 3]);
      }
      if (mode == 2) {
        const int k = uniform_int(rng, 0, 11);
        t[k] = t[k] == 0 ? std::ldexp(1.0, -600) : std::nextafter(t[k], uniform(rng, -1, 1) < 0 ? -1e300 : 1e300);
      }
    }
    std::shuffle(t.begin(), t.end(), rng);
    const Sign expected = exact_sign(exact_sum(t));
    zeros += expected == Sign::zero;
    ASSERT_EQ(kds::exact_sign_of_sum(t), expected) << "seed " << seed << ", case " << i;
  }
  EXPECT_GT(zeros, 3000) << "the cancelling sums were not built";
}

/// Dot products over the error-free range: independent pairs (the doubles' answer), and
/// pairs built to cancel to 0 or to one unit in the last place (the exact path), with
/// zeros among them.
TEST(ErrorFree, SignOfDotProductsIsTheExactSign) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  int zeros = 0, near = 0;
  auto in_range = [&] {
    if (uniform_int(rng, 0, 7) == 0) return 0.0;
    return std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -440, 440));
  };
  for (int i = 0; i < 40000; ++i) {
    std::array<double, 8> a{}, b{};
    const int mode = uniform_int(rng, 0, 3);
    if (mode == 0) {
      for (int k = 0; k < 8; ++k) a[k] = in_range(), b[k] = in_range();
    } else {
      // u . o - u . o' with o' a permutation of o on axes of equal u (coinciding planes),
      // or a . x - a . x with the sides split differently; then perhaps one ulp off.
      for (int k = 0; k < 4; ++k) {
        a[k] = uniform_int(rng, -3, 3);
        b[k] = std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -30, 30));
        a[k + 4] = -a[k];
        b[k + 4] = b[k];
      }
      if (mode == 2) std::swap(b[4], b[5]), std::swap(a[4], a[5]);
      if (mode == 3) {
        const int k = uniform_int(rng, 0, 7);
        b[k] = b[k] == 0 ? 0x1p-400 : std::nextafter(b[k], uniform(rng, -1, 1) < 0 ? -1e300 : 1e300);
      }
    }
    Rational exact(0);
    for (int k = 0; k < 8; ++k) exact += Rational(a[k]) * Rational(b[k]);
    const Sign expected = exact_sign(exact);
    zeros += expected == Sign::zero;
    near += mode == 3 && expected != Sign::zero;
    ASSERT_EQ(kds::exact_sign_of_dot(a, b), expected) << "seed " << seed << ", case " << i;
  }
  EXPECT_GT(zeros, 10000) << "seed " << seed << ": the cancelling sums were not built";
  EXPECT_GT(near, 3000) << "seed " << seed;
  EXPECT_EQ(kds::exact_sign_of_dot(std::array<double, 2>{1.0, -1.0}, std::array<double, 2>{0.1, 0.1}), Sign::zero);
  // 3 (1/3) - 1 in doubles: 3 * fl(1/3) rounds to 1, but the product is below 1 exactly.
  EXPECT_EQ(kds::exact_sign_of_dot(std::array<double, 2>{3.0, -1.0}, std::array<double, 2>{1.0 / 3.0, 1.0}),
            Sign::negative);
}

TEST(ErrorFree, CancellationFarBelowTheLargestTerm) {
  // 2^800 - 2^800 + 2^-800: positive, by a term 2^1600 times smaller than the others.
  EXPECT_EQ(kds::exact_sign_of_sum(std::array<double, 3>{0x1p800, -0x1p800, 0x1p-800}), Sign::positive);
  EXPECT_EQ(kds::exact_sign_of_sum(std::array<double, 4>{0x1p800, 0x1p-800, -0x1p800, -0x1p-799}), Sign::negative);
  EXPECT_EQ(kds::exact_sign_of_sum(std::array<double, 4>{1.0, 0x1p-53, -1.0, -0x1p-53}), Sign::zero);
  EXPECT_EQ(kds::exact_sign_of_sum(std::array<double, 0>{}), Sign::zero);
  // 0.1 + 0.2 - 0.3 in doubles is not 0 exactly.
  const std::array<double, 3> t{0.1, 0.2, -0.3};
  EXPECT_EQ(kds::exact_sign_of_sum(t), exact_sign(exact_sum(t)));
  EXPECT_NE(kds::exact_sign_of_sum(t), Sign::zero);
}

TEST(ErrorFree, TheRangeExcludesWhatTheProductsCannotHold) {
  EXPECT_TRUE(kds::in_error_free_range(0.0));
  EXPECT_TRUE(kds::in_error_free_range(-0x1p450));
  EXPECT_TRUE(kds::in_error_free_range(0x1p-450));
  EXPECT_FALSE(kds::in_error_free_range(0x1p-451));
  EXPECT_FALSE(kds::in_error_free_range(0x1p451));
  // The smallest products of two in-range doubles are exact pairs.
  double p, e;
  kds::two_product(0x1.fffffffffffffp-450, 0x1.0000000000001p-450, p, e);
  EXPECT_EQ(kds::Rational(p) + kds::Rational(e), kds::Rational(0x1.fffffffffffffp-450) * kds::Rational(0x1.0000000000001p-450));
  EXPECT_FALSE(kds::in_error_free_range(std::nan("")));
  EXPECT_FALSE(kds::in_error_free_range(HUGE_VAL));
  EXPECT_FALSE(kds::in_error_free_range(5e-324));
}

}  // namespace
