// The plain floating-point code for unknown trajectories (bench/baselines/bound_spheres.hpp)
// against kds's collision world on the same spheres driven by the same random forces: the
// same contacts in the same order at the same times up to the contact tolerance; its
// bounds' meeting time against a brute-force search; its refusals of bad input.
#include "bench/baselines/bound_spheres.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <vector>

#include "examples/paper_experiment/paper_scene.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"
#include "test_seed.hpp"

namespace {

using kds::baseline::BallContact;
using kds::baseline::BoundBall;
using kds::baseline::BoundSpheres;
using kds::baseline::first_meeting;
using kds::baseline::Vec3;

constexpr double infinity = std::numeric_limits<double>::infinity();

/// |d0 + d1 s| - (r0 + r1 s + r2 s^2): negative where the bounds overlap.
double gap(const Vec3& d0, const Vec3& d1, double r0, double r1, double r2, double s) {
  double d2 = 0;
  for (int k = 0; k < 3; ++k) d2 += (d0[k] + d1[k] * s) * (d0[k] + d1[k] * s);
  return std::sqrt(d2) - (r0 + (r1 + r2 * s) * s);
}

/// The first meeting by brute force: the gap sampled at 200,000 points of the window, the
/// first step from positive to non-positive bisected (at 0 when they overlap, unless both
/// are their spheres and they move apart).
double brute_meeting(const Vec3& d0, const Vec3& d1, double r0, double r1, double r2, double window,
                     bool both_reset = false) {
  auto g = [&](double s) { return gap(d0, d1, r0, r1, r2, s); };
  constexpr int steps = 200000;
  bool apart = g(0) > 0;
  if (!apart && (!both_reset || g(window * 1e-9) < g(0))) return 0;
  double previous = 0;
  for (int i = 1; i <= steps; ++i) {
    const double s = window * i / steps;
    if (apart && g(s) <= 0) {
      double lo = previous, hi = s;
      for (int k = 0; k < 200; ++k) {
        const double mid = 0.5 * (lo + hi);
        (g(mid) > 0 ? lo : hi) = mid;
      }
      return hi;
    }
    if (g(s) > 0) apart = true;
    previous = s;
  }
  return infinity;
}

TEST(BoundSpheresMeeting, MatchesBruteForceOnRandomBounds) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1), p(0, 1);
  int met = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Vec3 d0{8 * u(rng), 8 * u(rng), 8 * u(rng)}, d1{20 * u(rng), 20 * u(rng), 20 * u(rng)};
    const bool both_reset = trial % 3 == 0;  // then r1 = 0: both bounds start as their spheres
    const double r0 = 0.5 + 4 * p(rng), r1 = both_reset ? 0 : 5 * p(rng), r2 = 5 * p(rng), window = 0.1 + 3 * p(rng);
    const double plain = first_meeting(d0, d1, r0, r1, r2, window, both_reset);
    const double brute = brute_meeting(d0, d1, r0, r1, r2, window, both_reset);
    if (brute == infinity) {
      // A meeting the sampling missed is at most a graze between two samples.
      if (plain != infinity) EXPECT_LT(std::fabs(gap(d0, d1, r0, r1, r2, plain)), 1e-6) << "trial " << trial << ", seed " << seed;
      continue;
    }
    if (brute > 0) ++met;
    ASSERT_NE(plain, infinity) << "trial " << trial << ", seed " << seed << ": brute force meets at " << brute;
    EXPECT_NEAR(plain, brute, 1e-9 * std::max(1.0, brute)) << "trial " << trial << ", seed " << seed;
  }
  std::cout << "[ meeting  ] " << met << " of 400 random pairs meet after 0 within their window\n";
  EXPECT_GT(met, 20);
}

TEST(BoundSpheresMeeting, DegenerateBounds) {
  const Vec3 x{10, 0, 0}, still{0, 0, 0}, closing{-4, 0, 0}, opening{4, 0, 0};
  // Head on: 10 - 4 s = 2 + s^2 at s = 2 (the root of s^2 + 4 s - 8 = 0 is 2 sqrt(3) - 2).
  EXPECT_NEAR(first_meeting(x, closing, 2, 0, 1, 10), 2 * std::sqrt(3.0) - 2, 1e-14);
  // The window ends first.
  EXPECT_EQ(first_meeting(x, closing, 2, 0, 1, 1), infinity);
  // Growth alone: 10 = 2 + 2 s^2 at s = 2.
  EXPECT_NEAR(first_meeting(x, still, 2, 0, 2, 10), 2.0, 1e-14);
  // Two spheres just reset, touching and approaching: now. Touching and moving apart: when
  // growth catches up.
  EXPECT_EQ(first_meeting(x, closing, 10, 0, 1, 10, true), 0.0);
  const double later = first_meeting(x, opening, 10, 0, 1, 10, true);  // 10 + 4 s = 10 + s^2 at s = 4
  EXPECT_NEAR(later, 4.0, 1e-12);
  // Overlapping and moving apart: the next meeting after they part, if both are their
  // spheres; now if either bound has grown (the spheres may touch anywhere in the overlap).
  EXPECT_NEAR(first_meeting(x, opening, 11, 0, 0.1, 100, true), brute_meeting(x, opening, 11, 0, 0.1, 100, true), 1e-9);
  EXPECT_GT(first_meeting(x, opening, 11, 0, 0.1, 100, true), 0.2);
  EXPECT_EQ(first_meeting(x, opening, 11, 1, 0.1, 100), 0.0);
  // Passing side by side without growth: never; with just enough growth: a graze.
  EXPECT_EQ(first_meeting({10, 5, 0}, {-4, 0, 0}, 4, 0, 0, 10), infinity);
  const double graze = brute_meeting({10, 5, 0}, {-4, 0, 0}, 4, 0, 0.2, 10);
  ASSERT_LT(graze, 2.5);
  EXPECT_NEAR(first_meeting({10, 5, 0}, {-4, 0, 0}, 4, 0, 0.2, 10), graze, 1e-9);
  // Equal motions, no growth: never.
  EXPECT_EQ(first_meeting(x, still, 2, 0, 0, 10), infinity);
}

// ---------------------------------------------------------------- against kds

/// Contacts as both codes report them: time, then the pair (smaller index first) or the
/// sphere and 1000000 + its wall.
struct Seen {
  double time;
  std::uint32_t a, b;
};
constexpr std::uint32_t wall_tag = 1000000;
constexpr double force_interval = 0.1;

std::vector<Seen> kds_contacts(const std::vector<kds::Sphere>& spheres, const kds::Box3& box, std::uint64_t seed,
                               double until) {
  kds::PiecewiseAccelerationProbe probe(spheres, force_interval, seed);
  kds::Simulator sim;
  kds::CollisionWorldSettings settings;
  settings.box = box;
  settings.broad_phase = "tvb-grid";
  settings.probe = &probe;
  settings.cell_ratio = 2;
  kds::CollisionWorld world(sim, settings, spheres);
  sim.run_until(until);
  std::vector<Seen> seen;
  for (const kds::Contact& c : world.contacts())
    seen.push_back(c.with_wall ? Seen{c.time, c.a, wall_tag + static_cast<std::uint32_t>(c.wall)}
                               : Seen{c.time, std::min(c.a, c.b), std::max(c.a, c.b)});
  return seen;
}

class ProbedMotions final : public kds::baseline::TrueMotions {
 public:
  explicit ProbedMotions(kds::TrajectoryProbe& probe) : probe_(&probe) {}
  void state(std::uint32_t sphere, double t, Vec3& position, Vec3& velocity) override {
    const kds::SphereState s = probe_->state(sphere, t);
    position = s.position;
    velocity = s.velocity;
  }
  void set_velocity(std::uint32_t sphere, double t, const Vec3& velocity) override {
    probe_->set_velocity(sphere, t, velocity);
  }

 private:
  kds::TrajectoryProbe* probe_;
};

std::vector<BoundBall> balls_of(const std::vector<kds::Sphere>& spheres) {
  std::vector<BoundBall> balls;
  for (const kds::Sphere& s : spheres)
    balls.push_back(BoundBall{s.position, s.velocity, s.radius, s.mass, s.max_acceleration});
  return balls;
}

std::vector<Seen> plain_contacts(const std::vector<kds::Sphere>& spheres, const kds::Box3& box, std::uint64_t seed,
                                 double until) {
  kds::PiecewiseAccelerationProbe probe(spheres, force_interval, seed);
  ProbedMotions motions(probe);
  BoundSpheres world(box.lo, box.hi, balls_of(spheres), motions, 2);
  std::vector<BallContact> log;
  world.log_contacts(&log);
  while (world.step() && world.time() <= until) {
  }
  std::vector<Seen> seen;
  for (const BallContact& c : log)
    if (c.time <= until)
      seen.push_back(c.with_wall ? Seen{c.time, c.a, wall_tag + static_cast<std::uint32_t>(c.wall)}
                                 : Seen{c.time, std::min(c.a, c.b), std::max(c.a, c.b)});
  return seen;
}

TEST(BoundSpheres, ContactsMatchKdsOnThePaperSceneSmall) {
  // The paper's spheres at small n (radii 0.1 to 10, speeds up to 43, A from 10 to 20) in
  // boxes small enough for tens of contacts. Each code declares a contact at a gap within
  // the tolerance (1e-6), so times agree to about the tolerance over the closing speed, and
  // the responses then differ by as much: pairs are compared for the first contacts, while
  // the differences are far below what a different pair would make.
  const std::uint64_t seed = kds::testing::test_seed();
  for (std::size_t n : {20u, 40u}) {
    SCOPED_TRACE("n " + std::to_string(n) + ", seed " + std::to_string(seed));
    kds::paper::PaperScene scene;
    scene.n = n;
    scene.seed = seed;
    scene.box_side = 80;
    const std::vector<kds::Sphere> spheres = kds::paper::paper_spheres(scene);
    const kds::Box3 box = kds::paper::cube(scene.box_side);
    const std::vector<Seen> exact = kds_contacts(spheres, box, seed, 2.0), plain = plain_contacts(spheres, box, seed, 2.0);
    ASSERT_GT(exact.size(), 10u);
    const std::size_t compared = std::min<std::size_t>(exact.size(), 30);
    ASSERT_GE(plain.size(), compared);
    for (std::size_t i = 0; i < compared; ++i) {
      EXPECT_EQ(exact[i].a, plain[i].a) << "contact " << i << " at " << exact[i].time;
      EXPECT_EQ(exact[i].b, plain[i].b) << "contact " << i << " at " << exact[i].time;
      EXPECT_NEAR(exact[i].time, plain[i].time, 1e-5) << "contact " << i;
    }
  }
}

TEST(BoundSpheres, RejectsBadInputNamingIt) {
  const Vec3 lo{0, 0, 0}, hi{10, 10, 10};
  struct Still final : kds::baseline::TrueMotions {
    void state(std::uint32_t, double, Vec3&, Vec3&) override {}
    void set_velocity(std::uint32_t, double, const Vec3&) override {}
  } still;
  auto message = [&](std::vector<BoundBall> balls, double ratio = 2) {
    try {
      BoundSpheres world(lo, hi, balls, still, ratio);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const BoundBall good{{2, 2, 2}, {1, 0, 0}, 1, 1, 5};
  BoundBall nan = good, radius = good, mass = good, outside = good, overlap = good, accel = good;
  nan.position[1] = NAN;
  radius.radius = -1;
  mass.mass = 0;
  outside.position[0] = 0.5;
  overlap.position[0] = 3.5;
  accel.max_acceleration = -1;
  EXPECT_EQ(message({good, {{7, 7, 7}, {0, 0, 0}, 0.2, 1, 1}}), "accepted");
  EXPECT_EQ(message({good, nan}), "sphere 1: position must be finite");
  EXPECT_EQ(message({radius}), "sphere 0: radius must be positive and finite");
  EXPECT_EQ(message({mass}), "sphere 0: mass must be positive and finite");
  EXPECT_EQ(message({outside}), "sphere 0: not inside the box");
  EXPECT_EQ(message({good, overlap}), "sphere 0: overlaps sphere 1");
  EXPECT_EQ(message({accel}), "sphere 0: acceleration bound must be finite and non-negative");
  EXPECT_EQ(message({good}, 1.5), "cell ratio must be at least 2, got 1.500000");
}

}  // namespace
