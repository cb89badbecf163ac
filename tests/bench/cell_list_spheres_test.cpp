// The plain floating-point hard-sphere code of bench/baselines/ against kds's collision
// world (tvb-grid broad phase, exact) on the same spheres: the same contacts, in the same
// order, at the same times up to rounding, for the first 1000 contacts of random scenes
// and for scenes built to be degenerate (simultaneous collisions, contacts at time 0).
#include "bench/baselines/cell_list_spheres.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>
#include <vector>

#include "bench/tvb_grid/lattice_scene.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"
#include "test_seed.hpp"

namespace {

using kds::baseline::Ball;
using kds::baseline::BallContact;
using kds::baseline::CellListSpheres;

/// A contact in a form both codes share: the time, and the pair (smaller index first) or
/// the sphere and its wall (b = 1000000 + wall).
struct Seen {
  double time;
  std::uint32_t a, b;
};
constexpr std::uint32_t wall_tag = 1000000;

std::vector<Seen> kds_contacts(const std::vector<kds::Sphere>& spheres, const kds::Box3& box, std::size_t count) {
  kds::Simulator sim;
  kds::CollisionWorldSettings settings;
  settings.box = box;
  settings.broad_phase = "tvb-grid";
  kds::CollisionWorld world(sim, settings, spheres);
  while (world.contacts().size() < count && sim.step()) {
  }
  std::vector<Seen> seen;
  for (const kds::Contact& c : world.contacts())
    seen.push_back(c.with_wall ? Seen{c.time, c.a, wall_tag + static_cast<std::uint32_t>(c.wall)}
                               : Seen{c.time, std::min(c.a, c.b), std::max(c.a, c.b)});
  if (seen.size() > count) seen.resize(count);
  return seen;
}

std::vector<Seen> baseline_contacts(const std::vector<kds::Sphere>& spheres, const kds::Box3& box, std::size_t count) {
  std::vector<Ball> balls;
  for (const kds::Sphere& s : spheres) balls.push_back(Ball{s.position, s.velocity, s.radius, s.mass});
  CellListSpheres world(box.lo, box.hi, balls);
  std::vector<BallContact> log;
  world.log_contacts(&log);
  while (log.size() < count && world.step()) {
  }
  std::vector<Seen> seen;
  for (const BallContact& c : log)
    seen.push_back(c.with_wall ? Seen{c.time, c.a, wall_tag + static_cast<std::uint32_t>(c.wall)}
                               : Seen{c.time, std::min(c.a, c.b), std::max(c.a, c.b)});
  if (seen.size() > count) seen.resize(count);
  return seen;
}

/// The two sequences agree: the same length, and the same contacts at times equal within
/// `tolerance` (relative); contacts at equal times may come in either order (the two codes
/// break ties differently), so each run of equal times is compared as a set.
void expect_same(const std::vector<Seen>& exact, const std::vector<Seen>& plain, double tolerance) {
  ASSERT_EQ(exact.size(), plain.size());
  auto close = [&](double x, double y) { return std::fabs(x - y) <= tolerance * std::max(1.0, std::fabs(x)); };
  std::size_t i = 0;
  while (i < exact.size()) {
    std::size_t j = i + 1;
    while (j < exact.size() && close(exact[j].time, exact[i].time)) ++j;
    auto key = [](const Seen& s) { return std::make_tuple(s.a, s.b); };
    std::vector<std::tuple<std::uint32_t, std::uint32_t>> a, b;
    for (std::size_t k = i; k < j; ++k) {
      a.push_back(key(exact[k]));
      b.push_back(key(plain[k]));
      ASSERT_TRUE(close(exact[k].time, plain[k].time))
          << "contact " << k << ": kds at " << exact[k].time << ", baseline at " << plain[k].time;
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    ASSERT_EQ(a, b) << "contacts " << i << " to " << j - 1 << " (time " << exact[i].time << ") differ";
    i = j;
  }
}

/// Hard spheres are chaotic: the two codes differ by rounding at first (1e-15 relative),
/// and every collision amplifies it, about tenfold per 100 contacts at N = 100 (measured
/// over seeds 1-12: at most 2e-7 after 1000 contacts). Wrong physics would show as a
/// different pair, or times off by far more.
constexpr double chaos_tolerance = 1e-5;

TEST(CellListSpheres, FirstThousandContactsMatchKdsOnRandomScenes) {
  const std::uint64_t seed = kds::testing::test_seed();
  for (double phi : {0.1, 0.3}) {
    SCOPED_TRACE("phi " + std::to_string(phi));
    const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(100, phi, seed);
    const std::vector<Seen> exact = kds_contacts(scene.spheres, scene.box, 1000);
    ASSERT_EQ(exact.size(), 1000u);
    expect_same(exact, baseline_contacts(scene.spheres, scene.box, 1000), chaos_tolerance);
  }
}

TEST(CellListSpheres, UnequalSpheresMatchKds) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  // Random sizes and masses, placed on a coarse lattice so that none overlap.
  std::vector<kds::Sphere> spheres;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 4; ++k) {
        kds::Sphere s;
        s.radius = 0.2 + 1.2 * unit();
        s.mass = 0.5 + 2 * unit();
        s.position = {3.0 * i + 1.5, 3.0 * j + 1.5, 3.0 * k + 1.5};
        s.velocity = {2 * unit() - 1, 2 * unit() - 1, 2 * unit() - 1};
        spheres.push_back(s);
      }
  const kds::Box3 box{{0, 0, 0}, {15, 15, 12}};
  const std::vector<Seen> exact = kds_contacts(spheres, box, 500);
  ASSERT_EQ(exact.size(), 500u);
  expect_same(exact, baseline_contacts(spheres, box, 500), chaos_tolerance);
}

TEST(CellListSpheres, DegenerateScenesMatchKds) {
  auto ball = [](kds::Vec<3> x, kds::Vec<3> v) {
    kds::Sphere s;
    s.position = x;
    s.velocity = v;
    return s;
  };
  const kds::Box3 box{{0, 0, 0}, {20, 20, 20}};
  // Two mirror-image pairs colliding at the same time; a pair touching at time 0 and
  // approaching; a sphere touching a wall at time 0 and moving into it; a Newton's cradle
  // (three spheres in a row, the outer two meeting the middle one at the same time).
  const std::vector<kds::Sphere> spheres{ball({2, 10, 4}, {1, 0, 0}),      ball({6, 10, 4}, {-1, 0, 0}),
                                         ball({14, 10, 4}, {1, 0, 0}),     ball({18, 10, 4}, {-1, 0, 0}),
                                         ball({5, 3, 10}, {0.5, 0, 0}),    ball({7, 3, 10}, {-0.5, 0, 0}),
                                         ball({1, 17, 10}, {-1, 0.25, 0}), ball({2, 3, 16}, {1, 0, 0}),
                                         ball({5, 3, 16}, {0, 0, 0}),      ball({8, 3, 16}, {-1, 0, 0})};
  const std::vector<Seen> exact = kds_contacts(spheres, box, 40);
  ASSERT_GE(exact.size(), 10u);
  expect_same(exact, baseline_contacts(spheres, box, exact.size()), 1e-9);
  EXPECT_EQ(exact[0].time, 0.0);
  EXPECT_EQ(exact[1].time, 0.0);
}

TEST(CellListSpheres, KeepsEnergyOverManyCollisions) {
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(1000, 0.4, kds::testing::test_seed());
  std::vector<Ball> balls;
  for (const kds::Sphere& s : scene.spheres) balls.push_back(Ball{s.position, s.velocity, s.radius, s.mass});
  CellListSpheres world(scene.box.lo, scene.box.hi, balls);
  const double e0 = world.kinetic_energy();
  while (world.counters().sphere_collisions < 100000 && world.step()) {
  }
  EXPECT_EQ(world.counters().sphere_collisions, 100000u);
  EXPECT_LT(std::fabs(world.kinetic_energy() - e0) / e0, 1e-11);
  // No sphere left the box.
  for (std::uint32_t i = 0; i < world.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      const double x = world.position(i, world.time())[static_cast<std::size_t>(k)];
      EXPECT_GE(x, scene.box.lo[static_cast<std::size_t>(k)] + 1 - 1e-9);
      EXPECT_LE(x, scene.box.hi[static_cast<std::size_t>(k)] - 1 + 1e-9);
    }
}

TEST(CellListSpheres, RejectsBadSpheresNamingThem) {
  const kds::Vec<3> lo{0, 0, 0}, hi{10, 10, 10};
  auto message = [&](std::vector<Ball> balls) {
    try {
      CellListSpheres world(lo, hi, balls);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const Ball good{{2, 2, 2}, {1, 0, 0}, 1, 1};
  Ball nan = good, radius = good, mass = good, outside = good, overlap = good;
  nan.velocity[1] = NAN;
  radius.radius = 0;
  mass.mass = -1;
  outside.position[2] = 9.5;
  overlap.position[0] = 3;
  EXPECT_EQ(message({good, {{5, 5, 5}, {0, 0, 0}, 1, 1}}), "accepted");
  EXPECT_EQ(message({{{5, 5, 5}, {0, 0, 0}, 1, 1}, nan}), "sphere 1: velocity must be finite");
  EXPECT_EQ(message({radius}), "sphere 0: radius must be positive and finite");
  EXPECT_EQ(message({mass}), "sphere 0: mass must be positive and finite");
  EXPECT_EQ(message({outside}), "sphere 0: not inside the box");
  EXPECT_EQ(message({good, overlap}), "sphere 0: overlaps sphere 1");
}

}  // namespace
