// BoundSeparation::apart_until (certificates/bound_separation.hpp): "the two bounds stay
// apart from now to the horizon", decided from the centres' closest approach and the radii
// at the horizon, against the exact first failure of the same function (Rational, exact
// root isolation). It must never claim "apart" when the exact function fails at or before
// the horizon; failure_after then answers "never", and first_failure's answer otherwise.
// Random bounds near each other, and the degenerate cases: touching now, meeting exactly
// at the horizon (a tangency there), equal motions, bounds at rest, a horizon at now.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "bound_pair_owners.hpp"
#include "certificates/bound_separation.hpp"
#include "kds/motion.hpp"
#include "kds/number_types.hpp"
#include "structures/collision/bound.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

struct Tally {
  int apart = 0, undecided = 0;
};

/// Checks one pair at `now` against `horizon`; returns whether apart_until said "apart".
bool check(const Scene& s, double allowance, double now, double horizon, Tally& tally) {
  FastOwner owner{&s};
  const BoundSeparation<FastOwner> c(owner, BodyId{0, 0}, BodyId{1, 0}, "test", 1, allowance);
  const Root at = Root::at(now);
  const Root exact = first_failure(c, at, Birth::generic, Exactness::filtered);  // no horizon: the first root, always right
  const bool apart = c.apart_until(at, horizon);
  if (apart) {
    ++tally.apart;
    EXPECT_TRUE(exact.is_infinite() || compare(exact, horizon) > 0)
        << "apart_until said apart until " << horizon << " but the pair fails at " << exact;
    EXPECT_TRUE(c.failure_after(at, Birth::generic, Exactness::filtered, horizon).is_infinite());
  } else {
    ++tally.undecided;
    const Root filtered = c.failure_after(at, Birth::generic, Exactness::filtered, horizon);
    const Root reference = first_failure(c, at, Birth::generic, Exactness::filtered, horizon);
    EXPECT_EQ(filtered.is_infinite(), reference.is_infinite());
    if (!filtered.is_infinite() && !reference.is_infinite()) EXPECT_EQ(compare(filtered, reference), 0);
  }
  return apart;
}

Scene random_scene(std::mt19937_64& rng, int round) {
  std::uniform_real_distribution<double> u(-1, 1);
  Scene s;
  const double t0 = 5 * (u(rng) + 1);
  for (int i = 0; i < 2; ++i) {
    Vec<3> x{30 * u(rng), 30 * u(rng), 30 * u(rng)}, v{20 * u(rng), 20 * u(rng), 20 * u(rng)};
    if (round % 7 == 0) v = {0, 0, 0};                       // at rest
    if (round % 11 == 0) v[1] = v[2] = 0, x[1] = x[2] = 0;  // on one axis
    const double start = round % 3 == 0 ? t0 : t0 + std::fabs(u(rng));
    s.motion[i] = Motion<3>::linear(start, x, v);
    s.bound[i].radius = 0.1 + 10 * std::fabs(u(rng));
    s.bound[i].acceleration = round % 5 == 0 ? 0 : 10 + 10 * std::fabs(u(rng));
    s.bound[i].reset_time = start;
  }
  if (round % 13 == 0) s.motion[1] = s.motion[0];  // equal motions (overlapping now)
  return s;
}

TEST(BoundsApart, NeverClaimsApartBeforeAFailure) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Tally tally;
  for (int round = 0; round < 3000; ++round) {
    const Scene s = random_scene(rng, round);
    const double now = std::max(s.motion[0].start(), s.motion[1].start()) + (round % 4 == 0 ? 0 : u(rng));
    const double horizon = now + (round % 17 == 0 ? 0 : 2 * u(rng));
    const double allowance = round % 9 == 0 ? 1e-9 * u(rng) : 0;
    check(s, allowance, now, horizon, tally);
  }
  std::printf("[ apart    ] %d of %d pairs decided apart\n", tally.apart, tally.apart + tally.undecided);
  // Something to test: both answers occur often.
  EXPECT_GT(tally.apart, 300);
  EXPECT_GT(tally.undecided, 300);
}

// Two bounds on the x axis whose radii reach the gap exactly at t = 1: apart until any
// horizon before 1, never "apart" until 1 itself or later (f(1) = 0, a tangency).
TEST(BoundsApart, TangencyAtTheHorizon) {
  Scene s;
  s.motion[0] = Motion<3>::linear(0, {0, 0, 0}, {0, 0, 0});
  s.motion[1] = Motion<3>::linear(0, {10, 0, 0}, {0, 0, 0});
  // r + A/2 t^2 each: 1 + 4 t^2, so the sum reaches 10 at t = 1.
  for (Bound& b : s.bound) b = Bound{1, 8, 0};
  Tally tally;
  EXPECT_TRUE(check(s, 0, 0, 0.5, tally));
  EXPECT_TRUE(check(s, 0, 0, 0.999, tally));
  check(s, 0, 0, next_down(1.0), tally);  // either answer, but never a wrong "apart"
  EXPECT_FALSE(check(s, 0, 0, 1.0, tally));
  EXPECT_FALSE(check(s, 0, 0, 2.0, tally));
  // The same with the pair closing in instead: centres 10 apart closing at speed 4 with
  // constant radii 1 each: f(2) = 0.
  s.motion[1] = Motion<3>::linear(0, {10, 0, 0}, {-4, 0, 0});
  for (Bound& b : s.bound) b = Bound{1, 0, 0};
  EXPECT_TRUE(check(s, 0, 0, 1.5, tally));
  EXPECT_FALSE(check(s, 0, 0, 2.0, tally));
  // Touching now: never apart, whatever the horizon.
  s.motion[1] = Motion<3>::linear(0, {2, 0, 0}, {1, 0, 0});
  EXPECT_FALSE(check(s, 0, 0, 0, tally));
  EXPECT_FALSE(check(s, 0, 0, 1, tally));
}

}  // namespace
}  // namespace kds::testing
