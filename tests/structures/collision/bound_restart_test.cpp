// restarts_inside (structures/collision/bound.hpp): a bound restarted from a probed state
// lies inside the old one from then on. Checked exactly (GMP rationals) on random bounds,
// near the origin and 10^6 away, with drifts and velocity changes on both sides of their
// limits: "inside" is never claimed where the exact conditions fail, and is claimed
// wherever they hold with a relative margin of 10^-6. Then the cases that must prove
// nothing: the restart at the reset time, A = 0, a centre under gravity (not linear), a
// contact's velocity change, non-finite states; and the restarted bound against the old
// one at sampled times, exactly, for every claim of the random campaign.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "kds/number_types.hpp"
#include "structures/collision/bound.hpp"
#include "test_seed.hpp"

namespace {

using kds::Bound;
using kds::Motion;
using kds::Rational;
using kds::SphereState;
using kds::Vec;

/// The exact conditions: |p - c(t)|^2 <= (A/2 tau^2)^2 and |v - c'|^2 <= (A tau)^2.
bool inside_exactly(const Bound& b, const Motion<3>& m, double t, const SphereState& s) {
  const Rational tau = Rational(t) - Rational(b.reset_time);
  if (sgn(tau) <= 0) return false;
  const Rational reach_x = Rational(b.acceleration) / 2 * tau * tau, reach_v = Rational(b.acceleration) * tau;
  Rational dx2 = 0, dv2 = 0;
  for (int k = 0; k < 3; ++k) {
    kds::StoredLine l;
    if (!m.stored_line(k, l)) return false;
    const Rational c = Rational(l.x) + Rational(l.v) * (Rational(t) - Rational(l.t0));
    const Rational dx = Rational(s.position[k]) - c, dv = Rational(s.velocity[k]) - Rational(l.v);
    dx2 += dx * dx;
    dv2 += dv * dv;
  }
  return dx2 <= reach_x * reach_x && dv2 <= reach_v * reach_v;
}

/// At time t' >= t, the restarted bound (centre p + v (t' - t), radius r + A/2 (t' - t)^2)
/// lies in the old one: |c_new - c_old| <= r_old - r_new, exactly.
bool contained_at(const Bound& b, const Motion<3>& m, double t, const SphereState& s, double later) {
  const Rational u = Rational(later) - Rational(t), h = Rational(later) - Rational(b.reset_time);
  const Rational r_old = Rational(b.radius) + Rational(b.acceleration) / 2 * h * h;
  const Rational r_new = Rational(b.radius) + Rational(b.acceleration) / 2 * u * u;
  const Rational room = r_old - r_new;
  if (sgn(room) < 0) return false;
  Rational d2 = 0;
  for (int k = 0; k < 3; ++k) {
    kds::StoredLine l;
    m.stored_line(k, l);
    const Rational c_old = Rational(l.x) + Rational(l.v) * (Rational(later) - Rational(l.t0));
    const Rational c_new = Rational(s.position[k]) + Rational(s.velocity[k]) * u;
    d2 += (c_new - c_old) * (c_new - c_old);
  }
  return d2 <= room * room;
}

Vec<3> random_direction(std::mt19937_64& rng) {
  std::normal_distribution<double> n;
  Vec<3> d{n(rng), n(rng), n(rng)};
  const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  for (double& x : d) x /= len;
  return d;
}

TEST(BoundRestart, ClaimsInsideExactlyWhenItHoldsAndAlmostAlwaysThen) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  int claimed = 0, clear = 0, clear_claimed = 0;
  for (int i = 0; i < 20000; ++i) {
    SCOPED_TRACE("case " + std::to_string(i) + " of seed " + std::to_string(seed));
    const double far = i % 2 == 0 ? 0 : 1e6;
    Bound b;
    b.radius = 0.1 + 10 * unit(rng);
    b.acceleration = 10 + 10 * unit(rng);
    b.reset_time = 100 * unit(rng);
    const double tau = std::pow(10.0, -6 + 6 * unit(rng));
    const double t = b.reset_time + tau;
    Vec<3> p0, v0;
    for (int k = 0; k < 3; ++k) {
      p0[k] = far + 200 * (unit(rng) - 0.5);
      v0[k] = 20 * (unit(rng) - 0.5);
    }
    const Motion<3> m = Motion<3>::linear(b.reset_time, p0, v0);
    // Drift and velocity change at fractions of their limits, on both sides of 1 (and
    // exactly at them, rounded), exact tau as computed.
    const double tau_d = t - b.reset_time;
    const double f = i % 7 == 0 ? 1.0 : 1.2 * unit(rng), g = i % 11 == 0 ? 1.0 : 1.2 * unit(rng);
    const Vec<3> dx = random_direction(rng), dv = random_direction(rng);
    const Vec<3> c = m.position(t);
    SphereState s;
    for (int k = 0; k < 3; ++k) {
      s.position[k] = c[k] + f * 0.5 * b.acceleration * tau_d * tau_d * dx[k];
      s.velocity[k] = v0[k] + g * b.acceleration * tau_d * dv[k];
    }
    const bool claim = kds::restarts_inside(b, m, t, s);
    const bool exact = inside_exactly(b, m, t, s);
    if (claim) {
      ++claimed;
      ASSERT_TRUE(exact) << "claimed inside where it is not";
      for (double later : {t, t + 1e-9, t + tau_d, t + 1.0, t + 1e3})
        ASSERT_TRUE(contained_at(b, m, t, s, later)) << "not contained at t' = " << later;
    }
    // Clearly inside: the drift no more than 1 - 10^-6 of its limit, a margin far above
    // the rounding of the positions (about 10^-15 of the coordinates) when the limit is
    // at least 10^-7 of them.
    const double scale = std::max({std::fabs(c[0]), std::fabs(c[1]), std::fabs(c[2])}) + 1;
    if (f < 1 - 1e-6 && g < 1 - 1e-6 && 0.5 * b.acceleration * tau_d * tau_d > 1e-7 * scale) {
      ++clear;
      clear_claimed += claim;
    }
  }
  std::printf("restarts_inside (seed %llu): %d claims; %d of %d clear cases claimed\n",
              static_cast<unsigned long long>(seed), claimed, clear_claimed, clear);
  EXPECT_GT(claimed, 5000);
  EXPECT_EQ(clear_claimed, clear);
}

TEST(BoundRestart, ProvesNothingWhereItMustNot) {
  Bound b;
  b.radius = 1;
  b.acceleration = 10;
  b.reset_time = 2;
  const Motion<3> m = Motion<3>::linear(2, {1, 2, 3}, {4, 5, 6});
  const double t = 2.5;
  SphereState on{m.position(t), {4, 5, 6}};
  EXPECT_TRUE(kds::restarts_inside(b, m, t, on));  // on the predicted path
  EXPECT_FALSE(kds::restarts_inside(b, m, 2.0, SphereState{m.position(2.0), {4, 5, 6}}));  // at the reset
  Bound still = b;
  still.acceleration = 0;
  EXPECT_FALSE(kds::restarts_inside(still, m, t, on));
  Bound tiny = b;
  tiny.acceleration = 0x1p-1010;  // below what the error bounds allow for
  EXPECT_FALSE(kds::restarts_inside(tiny, m, t, on));
  const Motion<3> falling = Motion<3>::accelerated(2, {1, 2, 3}, {4, 5, 6}, {0, 0, -9.81});
  EXPECT_FALSE(kds::restarts_inside(b, falling, t, SphereState{falling.position(t), falling.velocity(t)}));
  // A contact's response: the velocity turns by far more than A tau = 5.
  EXPECT_FALSE(kds::restarts_inside(b, m, t, SphereState{on.position, {-4, 5, 6}}));
  // The drift just past A/2 tau^2 = 1.25, and just within.
  SphereState out = on, in = on;
  out.position[0] += 1.25 * (1 + 1e-12);
  in.position[0] += 1.25 * (1 - 1e-12);
  EXPECT_FALSE(kds::restarts_inside(b, m, t, out));
  EXPECT_TRUE(kds::restarts_inside(b, m, t, in));
  SphereState nan = on;
  nan.velocity[1] = std::nan("");
  EXPECT_FALSE(kds::restarts_inside(b, m, t, nan));
  SphereState huge = on;
  huge.position[2] = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(kds::restarts_inside(b, m, t, huge));
}

}  // namespace
