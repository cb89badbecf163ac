// The trajectory generators: within their bound (and provably not, when told to
// misbehave), exact pieces, set_velocity honoured, deterministic whatever the query order.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kds/errors.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"
#include "structures/collision/trajectories/velocity_field_probe.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

double norm(const Vec<3>& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

std::vector<Sphere> random_spheres(std::mt19937_64& rng, int n) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Sphere> s(n);
  for (Sphere& x : s) {
    x.position = {200 * u(rng), 200 * u(rng), 200 * u(rng)};
    x.velocity = {50 * u(rng) - 25, 50 * u(rng) - 25, 50 * u(rng) - 25};
    x.radius = 0.1 + 9.9 * u(rng);
    x.max_acceleration = 10 + 10 * u(rng);
  }
  return s;
}

/// The promise of eq. (2): |x(t) - x(t0) - v(t0)(t - t0)| <= A/2 (t - t0)^2, with a
/// relative slack for the rounding of the pieces' starting states. Returns the excess.
double bound_excess(TrajectoryProbe& p, SphereId i, double t0, double t, double bound) {
  const SphereState a = p.state(i, t0), b = p.state(i, t);
  Vec<3> d{};
  for (int k = 0; k < 3; ++k) d[k] = b.position[k] - a.position[k] - a.velocity[k] * (t - t0);
  return norm(d) - 0.5 * bound * (t - t0) * (t - t0) - 1e-9 * (1 + norm(b.position));
}

TEST(PiecewiseAccelerationProbe, StaysWithinItsBoundOnExactPieces) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const auto spheres = random_spheres(rng, 40);
  PiecewiseAccelerationProbe probe(spheres, 0.1, seed);
  probe.realize_until(15.05);
  for (SphereId i = 0; i < spheres.size(); ++i) {
    const Trajectory& t = probe.trajectory(i);
    ASSERT_EQ(t.size(), 151u);  // pieces start at 0, 0.1, ..., 15
    for (std::size_t k = 0; k < t.size(); ++k) {
      EXPECT_LE(norm(t[k].acceleration), spheres[i].max_acceleration);
      EXPECT_EQ(t[k].start, 0.1 * static_cast<double>(k));
      if (k > 0) {
        // Each piece starts where the previous one ends (up to its rounding).
        const Vec<3> x = t[k - 1].position_at(t[k].start);
        for (int c = 0; c < 3; ++c) EXPECT_EQ(t[k].position[c], x[c]);
      }
    }
    std::uniform_real_distribution<double> when(0, 14);
    for (int trial = 0; trial < 50; ++trial) {
      const double t0 = when(rng), t1 = t0 + when(rng) / 14;
      EXPECT_LE(bound_excess(probe, i, t0, t1, spheres[i].max_acceleration), 0) << "sphere " << i << " t0 " << t0;
    }
  }
}

TEST(PiecewiseAccelerationProbe, UsesTheWholeRangeOfDirectionsAndMagnitudes) {
  const std::uint64_t seed = test_seed();
  std::vector<Sphere> one(1);
  one[0].max_acceleration = 10;
  PiecewiseAccelerationProbe probe(one, 0.01, seed);
  probe.realize_until(100);
  Vec<3> mean{};
  double big = 0, small = 10;
  for (const auto& p : probe.trajectory(0)) {
    for (int k = 0; k < 3; ++k) mean[k] += p.acceleration[k] / 10000;
    big = std::max(big, norm(p.acceleration));
    small = std::min(small, norm(p.acceleration));
  }
  EXPECT_LT(norm(mean), 0.3);  // directions uniform: the mean of 10^4 draws of |a| <= 10 is near 0
  EXPECT_GT(big, 9.9);
  EXPECT_LT(small, 0.1);
}

TEST(PiecewiseAccelerationProbe, HonoursSetVelocityAndKeepsTheForces) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const auto spheres = random_spheres(rng, 3);
  PiecewiseAccelerationProbe probe(spheres, 0.5, seed), twin(spheres, 0.5, seed);
  const SphereState before = probe.state(1, 1.2);
  const Vec<3> v{3, -4, 12};
  probe.set_velocity(1, 1.2, v);
  const SphereState after = probe.state(1, 1.2);
  EXPECT_EQ(after.velocity, v);
  EXPECT_EQ(after.position, before.position);
  const Trajectory& t = probe.trajectory(1);
  ASSERT_EQ(t.size(), 4u);  // 0, 0.5, 1.0, 1.2
  EXPECT_EQ(t[3].start, 1.2);
  EXPECT_EQ(t[3].acceleration, t[2].acceleration);  // the slot's force goes on
  // Later slots draw the same forces as an undisturbed twin: collisions do not reseed.
  probe.realize_until(5);
  twin.realize_until(5);
  const Trajectory& u = twin.trajectory(1);
  const Trajectory& w = probe.trajectory(1);
  ASSERT_EQ(w.size(), u.size() + 1);
  for (std::size_t k = 3; k < u.size(); ++k) EXPECT_EQ(w[k + 1].acceleration, u[k].acceleration);
  // A velocity change exactly at a boundary replaces that piece's velocity.
  probe.set_velocity(1, 5.0, {0, 0, 0});
  EXPECT_EQ(probe.trajectory(1).back().start, 5.0);
  EXPECT_EQ(probe.state(1, 5.0).velocity, (Vec<3>{0, 0, 0}));
  // The past can be read, not rewritten.
  EXPECT_EQ(probe.state(1, 1.2).velocity, v);
  EXPECT_THROW(probe.set_velocity(1, 4.0, v), InvalidInput);
  EXPECT_THROW(probe.set_velocity(1, 6.0, {0, NAN, 0}), InvalidInput);
  EXPECT_THROW((void)probe.state(7, 1.0), InvalidInput);
}

TEST(PiecewiseAccelerationProbe, DeterministicWhateverTheQueryOrder) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const auto spheres = random_spheres(rng, 20);
  PiecewiseAccelerationProbe forward(spheres, 0.1, seed), backward(spheres, 0.1, seed), other(spheres, 0.1, seed + 1);
  for (SphereId i = 0; i < 20; ++i) (void)forward.state(i, 3.0);
  for (SphereId i = 20; i-- > 0;) (void)backward.state(i, 3.0);
  (void)other.state(0, 3.0);
  for (SphereId i = 0; i < 20; ++i) {
    const Trajectory &a = forward.trajectory(i), &b = backward.trajectory(i);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) EXPECT_EQ(a[k].acceleration, b[k].acceleration);
  }
  EXPECT_NE(forward.trajectory(0)[5].acceleration, other.trajectory(0)[5].acceleration);
}

TEST(PiecewiseAccelerationProbe, MisbehaviourBreaksTheBoundFromItsTime) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const auto spheres = random_spheres(rng, 4);
  PiecewiseAccelerationProbe probe(spheres, 0.1, seed, Misbehaviour{2, 1.0, 100.0});
  probe.realize_until(3);
  for (SphereId i = 0; i < 4; ++i)
    for (const auto& p : probe.trajectory(i)) {
      if (i == 2 && p.start >= 1.0)
        EXPECT_NEAR(norm(p.acceleration), 100.0, 1e-9);
      else
        EXPECT_LE(norm(p.acceleration), spheres[i].max_acceleration);
    }
  // Over a whole slot the 100 acceleration shows through the bound of eq. (2).
  EXPECT_GT(bound_excess(probe, 2, 1.5, 1.6, spheres[2].max_acceleration), 0.1);
  EXPECT_LE(bound_excess(probe, 2, 0.5, 0.6, spheres[2].max_acceleration), 0);
}

TEST(VelocityField, CirculatesUpTheAxisAndDownTheSides) {
  const CirculationField f{{{0, 0, 0}, {200, 200, 200}}, 40};
  EXPECT_NEAR(circulation_velocity(f, {100, 100, 100})[2], 40, 1e-12);   // up along the axis
  EXPECT_NEAR(circulation_velocity(f, {0.5, 100, 100})[2], -40, 0.01);  // down along a side face
  EXPECT_LT(circulation_velocity(f, {199, 199, 100})[2], -39.9);         // and in the corners
  const Vec<3> top = circulation_velocity(f, {150, 100, 200});           // outwards under the top
  EXPECT_GT(top[0], 5);
  EXPECT_NEAR(top[2], 0, 1e-12);
  EXPECT_LT(circulation_velocity(f, {150, 100, 0})[0], -5);  // inwards over the bottom
  EXPECT_GT(circulation_velocity(f, {100, 50, 0})[1], 5);
}

TEST(VelocityField, ParticlesFollowTheFieldWithinTheirBound) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const Box3 box{{0, 0, 0}, {200, 200, 200}};
  std::vector<Sphere> s(200);
  for (Sphere& x : s) {
    x.position = {20 + 160 * u(rng), 20 + 160 * u(rng), 20 + 160 * u(rng)};
    x.radius = 1 + 9 * u(rng);
    x.max_acceleration = 30;
  }
  VelocityFieldProbe probe(s, {box, 40});
  probe.realize_until(6);
  double agreement = 0;
  for (SphereId i = 0; i < s.size(); ++i) {
    for (const auto& p : probe.trajectory(i)) EXPECT_LE(norm(p.acceleration), 30.0);
    const SphereState st = probe.state(i, 6);
    const Vec<3> want = circulation_velocity(probe.field(), st.position);
    agreement += (st.velocity[0] * want[0] + st.velocity[1] * want[1] + st.velocity[2] * want[2]) /
                 (norm(st.velocity) * norm(want) + 1e-12);
  }
  EXPECT_GT(agreement / static_cast<double>(s.size()), 0.8);  // mean cosine with the field after 6 s
}

}  // namespace
}  // namespace kds::testing
