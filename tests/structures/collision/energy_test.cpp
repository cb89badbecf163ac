// Energy: kept to 1e-9 relative over 10^6 elastic collisions; lost with restitution < 1,
// contact by contact, by what the impulse formula says.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "collision_world_support.hpp"
#include "structures/collision/response.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

/// A dense small gas: 64 spheres of radius 1 and masses 1 to 3 in a box of side 10
/// (volume fraction 0.27), velocity components up to 10. Measured: about 1.9 events and
/// 40 microseconds per collision (Release, one core of the project machine), so 10^6
/// collisions take about 40 s; the fastest of the scenes tried (denser scenes cannot be
/// placed at random, sparser ones spend more events on walls and cells per collision).
constexpr double kGasBox = 10;
std::vector<Sphere> dense_gas(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return random_scene(rng, SceneSpec{64, kGasBox, 1, 1, 10, 1, 3});
}

TEST(Energy, ElasticCollisionsKeepKineticEnergyOverAMillionCollisions) {
  const std::uint64_t seed = test_seed();
  const auto spheres = dense_gas(seed);
  WorldRun w(spheres, world_settings(cube(kGasBox), "tvb-grid"));
  const double e0 = w.world->kinetic_energy(0);
  ASSERT_GT(e0, 0);
  constexpr std::uint64_t target = 1'000'000;
  double worst = 0;
  std::uint64_t next_check = 10'000;
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t steps = 0;
  while (w.world->sphere_contacts() < target) {
    ASSERT_TRUE(w.sim->step()) << "no more events";
    ++steps;
    if (w.world->sphere_contacts() >= next_check) {
      next_check += 10'000;
      const double e = w.world->kinetic_energy(w.sim->now_approx());
      worst = std::max(worst, std::fabs(e - e0) / e0);
      ASSERT_LT(worst, 1e-9) << "after " << w.world->sphere_contacts() << " collisions";
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double e = w.world->kinetic_energy(w.sim->now_approx());
  worst = std::max(worst, std::fabs(e - e0) / e0);
  EXPECT_LT(worst, 1e-9);
  std::cout << "[ energy   ] " << w.world->sphere_contacts() << " collisions, " << w.world->wall_contacts()
            << " wall contacts, " << steps << " events in " << w.sim->now_approx() << " simulated s, " << seconds
            << " s wall time; worst relative energy drift " << worst << '\n';
  // And every sphere is still in the box.
  const double t = w.sim->now_approx();
  for (SphereId i = 0; i < w.world->size(); ++i) {
    const Vec<3> x = w.world->state(i, t).position;
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(x[k] - spheres[i].radius, -1e-6) << "sphere " << i;
      EXPECT_LE(x[k] + spheres[i].radius, kGasBox + 1e-6) << "sphere " << i;
    }
  }
}

/// Expected energy loss of one contact from the states before it (001's impulse with
/// restitution e): (1 - e^2) / 2 * mu * u^2, u the approach speed along the normal and mu
/// the reduced mass (the sphere's mass for a wall).
double expected_loss(const CollisionWorld& w, const Contact& c, double e) {
  const SphereState a = w.state(c.a, c.time);
  if (c.with_wall) {
    const double u = a.velocity[wall_axis(c.wall)];
    return 0.5 * (1 - e * e) * w.sphere(c.a).mass * u * u;
  }
  const SphereState b = w.state(c.b, c.time);
  Vec<3> n{b.position[0] - a.position[0], b.position[1] - a.position[1], b.position[2] - a.position[2]};
  const double len = norm3(n);
  for (double& x : n) x /= len;
  const double u = dot3(a.velocity, n) - dot3(b.velocity, n);
  const double ma = w.sphere(c.a).mass, mb = w.sphere(c.b).mass;
  return 0.5 * (1 - e * e) * (ma * mb / (ma + mb)) * u * u;
}

TEST(Energy, RestitutionBelowOneLosesEnergyAsTheImpulseSays) {
  const std::uint64_t seed = test_seed();
  for (double e : {0.0, 0.5, 0.9, 0.99}) {
    SCOPED_TRACE("restitution " + std::to_string(e));
    std::mt19937_64 rng(seed);
    const auto spheres = random_scene(rng, SceneSpec{40, 20, 0.5, 1.5, 10, 1, 4});
    WorldRun w(spheres, world_settings(cube(20), "tvb-grid", e));
    // In the contact callback the world still holds the motions before the response.
    double loss = 0;
    w.world->on_contact([&](const Contact& c) { loss = expected_loss(*w.world, c, e); });
    double energy = w.world->kinetic_energy(0);
    const double e0 = energy;
    std::uint64_t contacts = 0;
    while (contacts < 3000 && w.sim->step()) {
      if (w.world->contacts().size() == contacts) continue;
      ++contacts;
      const double now = w.world->kinetic_energy(w.sim->now_approx());
      ASSERT_LE(now, energy * (1 + 1e-12)) << "energy rose at contact #" << contacts << ": "
                                           << describe(w.world->contacts().back());
      EXPECT_NEAR(energy - now, loss, 1e-9 * e0) << "contact #" << contacts << ": " << describe(w.world->contacts().back());
      energy = now;
      loss = 0;
    }
    EXPECT_EQ(contacts, 3000u);
    EXPECT_LT(energy, e0 * 0.95);
    std::cout << "[ energy   ] restitution " << e << ": kinetic energy " << e0 << " -> " << energy << " after " << contacts
              << " contacts\n";
  }
}

}  // namespace
}  // namespace kds::testing
