// 002's swept-sphere test against exact arithmetic: random inputs, grazing contacts, and
// far-apart small spheres where the naive discriminant pv^2 - pp vv loses its sign and
// the safe form r^2 - |p + v s*|^2 does not.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kds/function.hpp"
#include "kds/solver.hpp"
#include "structures/collision/baseline/swept_sphere.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

double dot(const Vec<3>& a, const Vec<3>& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/// The form 002 warns about, as one would first write it.
double naive_discriminant(const Vec<3>& p, const Vec<3>& v, double r) {
  const double pp = dot(p, p) - r * r, pv = dot(p, v), vv = dot(v, v);
  return pv * pv - pp * vv;
}

/// Sign of pv^2 - pp vv in rationals: the truth for the given doubles.
int exact_discriminant_sign(const Vec<3>& p, const Vec<3>& v, double r) {
  Rational pp = -Rational(r) * Rational(r), pv = 0, vv = 0;
  for (int k = 0; k < 3; ++k) {
    pp += Rational(p[k]) * Rational(p[k]);
    pv += Rational(p[k]) * Rational(v[k]);
    vv += Rational(v[k]) * Rational(v[k]);
  }
  return sgn(Rational(pv * pv - pp * vv));
}

/// The exact first time s >= 0 at which |p + v s| < r begins (kds::first_failure).
Root exact_contact(const Vec<3>& p, const Vec<3>& v, double r) {
  const auto f = make_function([&]<class NT>(double origin) {
    Polynomial<NT> g(NT(-NT(r) * NT(r)));
    for (int k = 0; k < 3; ++k) {
      const Polynomial<NT> d{NT(p[k]), NT(v[k])};
      g += d * d;
    }
    return origin == 0 ? g : g.shifted(NT(origin));
  });
  Root t = first_failure(f, Root::at(0.0));
  t.pin();
  return t;
}

bool exact_overlap_now(const Vec<3>& p, double r) {
  Rational pp = -Rational(r) * Rational(r);
  for (int k = 0; k < 3; ++k) pp += Rational(p[k]) * Rational(p[k]);
  return sgn(pp) < 0;
}

int sign(double x) { return (x > 0) - (x < 0); }

Vec<3> random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0, 1);
  Vec<3> u{n(rng), n(rng), n(rng)};
  const double len = std::sqrt(dot(u, u));
  for (double& c : u) c /= len;
  return u;
}

TEST(SweptSphere, RandomInputsAgreeWithTheExactContactTime) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-10, 10), radius(0.1, 3), towards(0, 2), noise(-3, 3);
  int hits = 0, misses = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    // Mostly heading for each other, so that hits and misses are both common.
    const Vec<3> p{u(rng), u(rng), u(rng)};
    const double f = towards(rng);
    const Vec<3> v{-f * p[0] + noise(rng), -f * p[1] + noise(rng), -f * p[2] + noise(rng)};
    const double r = radius(rng), duration = 1;
    const auto s = swept_sphere_contact(p, v, r, duration);
    if (exact_overlap_now(p, r)) {
      // Overlapping at the start: a contact now exactly when approaching.
      EXPECT_EQ(s.has_value(), dot(p, v) < 0) << "trial " << trial;
      if (s) EXPECT_EQ(*s, 0.0);
      continue;
    }
    const Root exact = exact_contact(p, v, r);
    const bool exact_hit = !exact.is_infinite() && compare(exact, duration) <= 0;
    if (!exact.is_infinite() && std::abs(exact.approx() - duration) < 1e-9) continue;  // at the frame's end
    ASSERT_EQ(s.has_value(), exact_hit) << "trial " << trial;
    if (s) {
      EXPECT_NEAR(*s, exact.approx(), 1e-9 * (1 + exact.approx())) << "trial " << trial;
      ++hits;
    } else {
      ++misses;
    }
  }
  EXPECT_GT(hits, 200);
  EXPECT_GT(misses, 200);
}

TEST(SweptSphere, GrazingContactsAreDecidedLikeTheExactSign) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> margin(-1, 1), scale(0.5, 2);
  int checked = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    // Closest approach r (1 + margin * 1e-10) at s = 1, along random directions.
    const Vec<3> dir = random_unit(rng);
    Vec<3> side = random_unit(rng);
    const double along = dot(side, dir);
    for (int k = 0; k < 3; ++k) side[k] -= along * dir[k];
    const double len = std::sqrt(dot(side, side));
    const double r = scale(rng), speed = 10 * scale(rng), miss = r * (1 + margin(rng) * 1e-10);
    Vec<3> p, v;
    for (int k = 0; k < 3; ++k) {
      v[k] = speed * dir[k];
      p[k] = -v[k] + miss * side[k] / len;
    }
    const int truth = exact_discriminant_sign(p, v, r);
    if (truth == 0) continue;
    EXPECT_EQ(sign(swept_discriminant(p, v, r)), truth) << "trial " << trial;
    EXPECT_EQ(swept_sphere_contact(p, v, r, 2).has_value(), truth > 0) << "trial " << trial;
    ++checked;
  }
  EXPECT_GT(checked, 1900);
}

TEST(SweptSphere, ExactGrazingIsNotAContact) {
  // Closest distance exactly 2 = r at s = 5: touching, not overlapping.
  EXPECT_EQ(swept_discriminant({-5, 2, 0}, {1, 0, 0}, 2), 0.0);
  EXPECT_FALSE(swept_sphere_contact({-5, 2, 0}, {1, 0, 0}, 2, 10).has_value());
  EXPECT_TRUE(swept_sphere_contact({-5, std::nextafter(2.0, 0.0), 0}, {1, 0, 0}, 2, 10).has_value());
  // Overlapping: a contact now if approaching, none if separating.
  EXPECT_EQ(swept_sphere_contact({1, 0, 0}, {-1, 0, 0}, 2, 1), 0.0);
  EXPECT_FALSE(swept_sphere_contact({1, 0, 0}, {1, 0, 0}, 2, 1).has_value());
  // Too late for this frame.
  EXPECT_FALSE(swept_sphere_contact({-5, 0, 0}, {1, 0, 0}, 2, 2.9).has_value());
  EXPECT_EQ(swept_sphere_contact({-5, 0, 0}, {1, 0, 0}, 2, 3.0), 3.0);
}

TEST(SweptSphere, FarApartSmallSpheresDefeatTheNaiveFormNotTheSafeOne) {
  // Distance 1e9 radii, closest approach r (1 +- 1e-2): the naive discriminant's terms are
  // ~1e18 times larger than its value, the safe form's error stays ~1e-7 r^2.
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> margin(-1, 1), scale(0.5, 2);
  int naive_wrong = 0, safe_wrong = 0, cases = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec<3> dir = random_unit(rng);
    Vec<3> side = random_unit(rng);
    const double along = dot(side, dir);
    for (int k = 0; k < 3; ++k) side[k] -= along * dir[k];
    const double len = std::sqrt(dot(side, side));
    const double r = scale(rng), distance = 1e9 * r, slow = 1e-3 * scale(rng);
    const double miss = r * (1 + 1e-2 * margin(rng));
    Vec<3> p, v;
    for (int k = 0; k < 3; ++k) {
      v[k] = slow * dir[k];
      p[k] = -distance * dir[k] + miss * side[k] / len;
    }
    const int truth = exact_discriminant_sign(p, v, r);
    if (truth == 0) continue;
    ++cases;
    naive_wrong += sign(naive_discriminant(p, v, r)) != truth;
    safe_wrong += sign(swept_discriminant(p, v, r)) != truth;
    // The full test over a frame long enough to reach the closest approach.
    const double duration = 2 * distance / slow;
    EXPECT_EQ(swept_sphere_contact(p, v, r, duration).has_value(), truth > 0) << "trial " << trial;
  }
  std::cout << "[ far      ] naive sign wrong in " << naive_wrong << " of " << cases << " cases, safe in "
            << safe_wrong << '\n';
  EXPECT_EQ(safe_wrong, 0);
  EXPECT_GT(naive_wrong, cases / 10);
}

TEST(WallContact, FirstArrivalWhileMovingIn) {
  // Falling from centre height 6 onto the floor at 0 with r = 1 and g = -10: t = 1.
  EXPECT_NEAR(*wall_contact(6, 0, -10, 1, 0, true, 2), 1.0, 1e-15);
  EXPECT_FALSE(wall_contact(6, 0, -10, 1, 0, true, 0.99).has_value());
  // Thrown up towards a ceiling at 10 it does not reach (apex 6 + 1.8 = 7.8 < 9).
  EXPECT_FALSE(wall_contact(6, 6, -10, 1, 10, false, 5).has_value());
  // Touching and moving in: now; touching and leaving: never.
  EXPECT_EQ(wall_contact(1, -1, 0, 1, 0, true, 1), 0.0);
  EXPECT_FALSE(wall_contact(1, 1, 0, 1, 0, true, 1).has_value());
  EXPECT_NEAR(*wall_contact(5, 2, 0, 1, 10, false, 5), 2.0, 1e-15);
}

}  // namespace
}  // namespace kds::testing
