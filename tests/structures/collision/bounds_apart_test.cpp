// BoundSeparation::holds_before (certificates/bound_separation.hpp): a time t such that
// the pair certainly holds on [now, t), from the bounds' closest approach: after the horizon
// ("apart": no failure time is computed) or before it (the simulator defers the failure
// time to t). Checked against the exact first failure of the same function (Rational,
// exact root isolation): the pair never fails before t, and never at or before the horizon
// when t lies beyond it. Random bounds near each other, and the degenerate cases: touching
// now, meeting exactly at the horizon (a tangency there), equal motions, bounds at rest, a
// horizon at now. Both proofs: from the owner's lines in bounded doubles, and from the
// numbers it stores with one error bound per sum (StoredOwner).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
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
  int apart = 0, deferred = 0, nothing = 0;
};

/// Checks one pair at `now` against `horizon`, with the proof from the owner's lines
/// (FastOwner) or from its stored numbers (StoredOwner); returns whether holds_before said
/// "apart".
template <class Owner = FastOwner>
bool check(const Scene& s, double allowance, double now, double horizon, Tally& tally) {
  Owner owner{&s};
  const BoundSeparation<Owner> c(owner, BodyId{0, 0}, BodyId{1, 0}, "test", 1, allowance);
  const Root at = Root::at(now);
  const Root exact = first_failure(c, at, Birth::generic, Exactness::filtered);  // no horizon: the first root, always right
  const double t = c.holds_before(at, horizon);
  if (t > horizon) {
    ++tally.apart;
    EXPECT_TRUE(exact.is_infinite() || compare(exact, horizon) > 0)
        << "holds_before said apart until " << horizon << " but the pair fails at " << exact;
  } else if (t > now) {
    ++tally.deferred;
    EXPECT_TRUE(exact.is_infinite() || compare(exact, t) >= 0)
        << "holds_before said it holds before " << t << " but the pair fails at " << exact;
  } else {
    ++tally.nothing;
  }
  // Without a horizon nothing is claimed (bounds that grow meet some day).
  EXPECT_EQ(c.holds_before(at, std::numeric_limits<double>::infinity()), -std::numeric_limits<double>::infinity());
  return t > horizon;
}

Scene random_scene(std::mt19937_64& rng, int round) {
  const double t0 = 5 * (std::uniform_real_distribution<double>(-1, 1)(rng) + 1);
  return random_pair(rng, round, t0, 30, 5);
}

/// The scene moved by `dx` on every axis and `dt` in time: the same pair far from the
/// origin, where the coordinates at the clock carry the roundings of large numbers.
Scene shifted(const Scene& s, double dx, double dt) {
  Scene out = s;
  for (std::size_t i = 0; i < 2; ++i) {
    const Motion<3>& m = s.motion[i];
    Vec<3> x = m.position(m.start());
    for (double& c : x) c += dx;
    out.motion[i] = Motion<3>::linear(m.start() + dt, x, m.velocity(m.start()));
    out.bound[i].reset_time += dt;
  }
  return out;
}

template <class Owner>
void never_claims_more(double dx, double dt) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Tally tally;
  for (int round = 0; round < 3000; ++round) {
    const Scene s = shifted(random_scene(rng, round), dx, dt);
    const double now = std::max(s.motion[0].start(), s.motion[1].start()) + (round % 4 == 0 ? 0 : u(rng));
    const double horizon = now + (round % 17 == 0 ? 0 : 2 * u(rng));
    const double allowance = round % 9 == 0 ? 1e-9 * u(rng) : 0;
    check<Owner>(s, allowance, now, horizon, tally);
  }
  std::printf("[ apart    ] moved by %g in space, %g in time: of %d pairs: %d apart until the horizon, %d held until a time before it, %d neither\n",
              dx, dt, tally.apart + tally.deferred + tally.nothing, tally.apart, tally.deferred, tally.nothing);
  // Something to test: every answer occurs often.
  EXPECT_GT(tally.apart, 300);
  EXPECT_GT(tally.deferred, 300);
  EXPECT_GT(tally.nothing, 100);
}

TEST(BoundsApart, NeverClaimsMoreThanTheExactFailure) {
  never_claims_more<FastOwner>(0, 0);
  never_claims_more<FastOwner>(1e6, 1e4);
}
TEST(BoundsApart, FromTheStoredNumbersNeverClaimsMoreThanTheExactFailure) {
  never_claims_more<StoredOwner>(0, 0);
  never_claims_more<StoredOwner>(1e6, 1e4);
}

// Both proofs on the same pairs: the stored numbers' error bounds are per sum rather than
// per operation, so an answer may differ at the edges, but not often; and where both defer,
// to nearly the same time.
void the_two_proofs_agree(double dx, double dt) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed + 2);
  std::uniform_real_distribution<double> u(0, 1);
  int pairs = 0, same = 0, both_deferred = 0, close = 0;
  for (int round = 0; round < 3000; ++round) {
    const Scene s = shifted(random_scene(rng, round), dx, dt);
    const double now = std::max(s.motion[0].start(), s.motion[1].start()) + (round % 4 == 0 ? 0 : u(rng));
    const double horizon = now + (round % 17 == 0 ? 0 : 2 * u(rng));
    FastOwner lines{&s};
    StoredOwner stored{&s};
    const BoundSeparation<FastOwner> a(lines, BodyId{0, 0}, BodyId{1, 0}, "test", 1);
    const BoundSeparation<StoredOwner> b(stored, BodyId{0, 0}, BodyId{1, 0}, "test", 1);
    const Root at = Root::at(now);
    const double ta = a.holds_before(at, horizon), tb = b.holds_before(at, horizon);
    auto answer = [&](double t) { return t > horizon ? 0 : t > now ? 1 : 2; };
    ++pairs;
    same += answer(ta) == answer(tb);
    if (answer(ta) == 1 && answer(tb) == 1) {
      ++both_deferred;
      close += std::fabs(ta - tb) <= 1e-9 * (std::fabs(ta) + 1);
    }
  }
  std::printf("[ agree    ] moved by %g in space, %g in time: %d of %d pairs the same answer; %d of %d deferred to within 1e-9\n",
              dx, dt, same, pairs, close, both_deferred);
  EXPECT_GE(same, pairs - pairs / 100);
  EXPECT_GT(both_deferred, 300);
  EXPECT_EQ(close, both_deferred);
}

TEST(BoundsApart, TheTwoProofsAgreeOnAlmostEveryPair) {
  the_two_proofs_agree(0, 0);
  the_two_proofs_agree(1e6, 1e4);
}

// Two bounds on the x axis whose radii reach the gap exactly at t = 1: apart until any
// horizon before 1, never "apart" until 1 itself or later (f(1) = 0, a tangency).
template <class Owner>
void tangency_at_the_horizon() {
  Scene s;
  s.motion[0] = Motion<3>::linear(0, {0, 0, 0}, {0, 0, 0});
  s.motion[1] = Motion<3>::linear(0, {10, 0, 0}, {0, 0, 0});
  // r + A/2 t^2 each: 1 + 4 t^2, so the sum reaches 10 at t = 1.
  for (Bound& b : s.bound) b = Bound{1, 8, 0};
  Tally tally;
  EXPECT_TRUE(check<Owner>(s, 0, 0, 0.5, tally));
  EXPECT_TRUE(check<Owner>(s, 0, 0, 0.999, tally));
  check<Owner>(s, 0, 0, next_down(1.0), tally);  // either answer, but never a wrong "apart"
  EXPECT_FALSE(check<Owner>(s, 0, 0, 1.0, tally));
  EXPECT_FALSE(check<Owner>(s, 0, 0, 2.0, tally));
  // The same with the pair closing in instead: centres 10 apart closing at speed 4 with
  // constant radii 1 each: f(2) = 0.
  s.motion[1] = Motion<3>::linear(0, {10, 0, 0}, {-4, 0, 0});
  for (Bound& b : s.bound) b = Bound{1, 0, 0};
  EXPECT_TRUE(check<Owner>(s, 0, 0, 1.5, tally));
  EXPECT_FALSE(check<Owner>(s, 0, 0, 2.0, tally));
  // Touching now: never apart, whatever the horizon.
  s.motion[1] = Motion<3>::linear(0, {2, 0, 0}, {1, 0, 0});
  EXPECT_FALSE(check<Owner>(s, 0, 0, 0, tally));
  EXPECT_FALSE(check<Owner>(s, 0, 0, 1, tally));
}

TEST(BoundsApart, TangencyAtTheHorizon) { tangency_at_the_horizon<FastOwner>(); }
TEST(BoundsApart, TangencyAtTheHorizonFromTheStoredNumbers) { tangency_at_the_horizon<StoredOwner>(); }

// Radii that might not grow from the clock on prove nothing, through both proofs: a clock
// before a bound's reset (its radius shrinks towards the reset), and a negative or NaN
// acceleration bound (never a state of the world, which rejects them: the proof must not
// rely on that).
template <class Owner>
void proves_nothing_without_growing_radii() {
  Scene s;
  s.motion[0] = Motion<3>::linear(0, {0, 0, 0}, {0, 0, 0});
  s.motion[1] = Motion<3>::linear(0, {100, 0, 0}, {0, 0, 0});
  auto holds = [&] {
    Owner owner{&s};
    const BoundSeparation<Owner> c(owner, BodyId{0, 0}, BodyId{1, 0}, "test", 1);
    return c.holds_before(Root::at(0), 1);
  };
  constexpr double nothing = -std::numeric_limits<double>::infinity();
  for (Bound& b : s.bound) b = Bound{1, 8, 0};
  EXPECT_GT(holds(), 1) << "far apart, growing from the clock on: apart until the horizon";
  s.bound[1].reset_time = 0.5;
  EXPECT_EQ(holds(), nothing) << "the clock before a reset";
  s.bound[1] = Bound{1, -8, 0};
  EXPECT_EQ(holds(), nothing) << "a negative acceleration bound";
  s.bound[1] = Bound{1, std::numeric_limits<double>::quiet_NaN(), 0};
  EXPECT_EQ(holds(), nothing) << "a NaN acceleration bound";
}

// A review's case: a subnormal acceleration bound, whose half rounds, times h^2 with the clock
// at 2^300. The spheres overlap at the clock (radius 2^-470 (1 + 2^-5) reaches a centre
// 2^-470 (1 + 2^-10) away): never "apart" (the stored numbers' proof said so once).
TEST(BoundsApart, ASubnormalAccelerationBoundFarFromTheOriginClaimsNothingFalse) {
  const double origin = 0x1p300;
  Scene s;
  s.motion[0] = Motion<3>::linear(origin, {0, 0, 0}, {0, 0, 0});
  s.motion[1] = Motion<3>::linear(origin, {0x1p-470 * (1 + 0x1p-10), 0, 0}, {0, 0, 0});
  s.bound[0] = Bound{0x1p-470, 0x1p-1074, 0};
  s.bound[1] = Bound{0, 0, 0};
  Tally tally;
  EXPECT_FALSE(check<FastOwner>(s, 0, origin, next_up(origin), tally));
  EXPECT_FALSE(check<StoredOwner>(s, 0, origin, next_up(origin), tally));
}

TEST(BoundsApart, RadiiThatMightNotGrowProveNothing) {
  proves_nothing_without_growing_radii<FastOwner>();
  proves_nothing_without_growing_radii<StoredOwner>();
}

// Bounds closing head on (the centres' line along a random direction, one centre moving
// straight at the other): the gap |D0| - |D1| s reaches the radii's sum at about T, which is
// where the gap-alone test (apart_by_reach) is tight. Horizons a relative 1e-3 ... 1e-15
// before and after T: no claim may be wrong, and the ones well before T are "apart".
TEST(BoundsApart, HeadOnGapsAtTheEdgeOfTheReach) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed + 1);
  std::uniform_real_distribution<double> u(0, 1);
  Tally tally;
  int early_apart = 0, early = 0;
  for (int round = 0; round < 400; ++round) {
    Vec<3> d{u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5};
    const double n = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (double& c : d) c /= n;
    const double gap = 5 + 45 * u(rng), speed = round % 5 == 0 ? 0 : 10 * u(rng);
    Scene s;
    const Vec<3> a{10 * u(rng), 10 * u(rng), 10 * u(rng)};
    s.motion[0] = Motion<3>::linear(0, a, {0, 0, 0});
    s.motion[1] = Motion<3>::linear(0, {a[0] + gap * d[0], a[1] + gap * d[1], a[2] + gap * d[2]},
                                    {-speed * d[0], -speed * d[1], -speed * d[2]});
    const double r = 0.5 + u(rng), A = round % 3 == 0 ? 0 : 4 * u(rng);
    for (Bound& b : s.bound) b = Bound{r, A, 0};
    if (speed == 0 && A == 0) continue;
    // gap - speed T = 2 r + A T^2 (both radii grow by A/2 T^2): T, in doubles.
    const double T = A == 0 ? (gap - 2 * r) / speed
                            : (-speed + std::sqrt(speed * speed + 4 * A * (gap - 2 * r))) / (2 * A);
    for (const double k : {1e-3, 1e-6, 1e-9, 1e-12, 1e-15}) {
      const bool apart = check<FastOwner>(s, 0, 0, T * (1 - k), tally);
      const bool apart_stored = check<StoredOwner>(s, 0, 0, T * (1 - k), tally);
      if (k == 1e-3) early_apart += apart && apart_stored, ++early;
      check<FastOwner>(s, 0, 0, T * (1 + k), tally);
      check<StoredOwner>(s, 0, 0, T * (1 + k), tally);
    }
  }
  std::printf("[ head on  ] %d pairs apart until 0.999 T of %d; %d apart, %d deferred, %d neither in all\n", early_apart,
              early, tally.apart, tally.deferred, tally.nothing);
  EXPECT_EQ(early_apart, early) << "a relative 1e-3 before the meeting is apart for every pair";
}

}  // namespace
}  // namespace kds::testing
