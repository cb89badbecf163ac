// HardSphereWorld (structures/hard_spheres) against its brute-force twin, the collision
// world over the all-pairs broad phase: the same contacts (pairs, walls, order, and times
// compared exactly) on random scenes (seed printed, KDS_TEST_SEED to replay) and on
// degenerate ones (simultaneous collisions, contacts at time 0, a Newton's cradle,
// tangencies, unequal radii and masses); the same errors for bad input; audits.
#include "structures/hard_spheres/hard_sphere_world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <cmath>
#include <iostream>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench/tvb_grid/lattice_scene.hpp"
#include "kds/errors.hpp"
#include "kds/simulator.hpp"
#include "kds/solver.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/geometry.hpp"
#include "structures/collision/polytope.hpp"
#include "test_seed.hpp"

namespace {

using kds::Box3;
using kds::Contact;
using kds::Sphere;
using kds::SphereId;

kds::CollisionWorldSettings settings_for(const Box3& box, double restitution = 1) {
  kds::CollisionWorldSettings s;
  s.box = box;
  s.broad_phase = "all-pairs";
  s.restitution = restitution;
  return s;
}

std::vector<Contact> reference(const std::vector<Sphere>& spheres, const kds::CollisionWorldSettings& s,
                               std::size_t count) {
  kds::SimulatorSettings ss;
  ss.audit = false;
  kds::Simulator sim(ss);
  kds::CollisionWorld world(sim, s, spheres);
  while (world.contacts().size() < count && sim.step()) {
  }
  std::vector<Contact> c = world.contacts();
  if (c.size() > count) c.resize(count);
  return c;
}

std::vector<Contact> fast(const std::vector<Sphere>& spheres, const kds::CollisionWorldSettings& s, std::size_t count,
                          bool audit = false) {
  kds::HardSphereWorld world(s, spheres);
  if (audit) world.audit();
  while (world.contacts().size() < count && world.step())
    if (audit) world.audit();
  std::vector<Contact> c = world.contacts();
  if (c.size() > count) c.resize(count);
  return c;
}

std::string describe(const Contact& c) {
  std::ostringstream os;
  os.precision(17);
  os << "t = " << c.time << ": " << c.a << (c.with_wall ? " wall " : " and ")
     << (c.with_wall ? static_cast<int>(c.wall) : static_cast<int>(c.b));
  return os.str();
}

/// Identical sequences: same contacts in the same order at exactly the same times.
void expect_identical(const std::vector<Contact>& ref, const std::vector<Contact>& got) {
  const std::size_t n = std::min(ref.size(), got.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Contact &r = ref[i], &g = got[i];
    const bool same = r.time == g.time && r.a == g.a && r.with_wall == g.with_wall &&
                      (r.with_wall ? r.wall == g.wall : r.b == g.b);
    ASSERT_TRUE(same) << "contact " << i << ": all-pairs " << describe(r) << ", hard spheres " << describe(g);
  }
  ASSERT_EQ(ref.size(), got.size());
}

void compare(const std::vector<Sphere>& spheres, const kds::CollisionWorldSettings& s, std::size_t count,
             bool audit = false) {
  const auto ref = reference(spheres, s, count);
  ASSERT_FALSE(ref.empty());
  expect_identical(ref, fast(spheres, s, count, audit));
}

Sphere ball(kds::Vec<3> x, kds::Vec<3> v, double r = 1, double m = 1) {
  Sphere s;
  s.position = x;
  s.velocity = v;
  s.radius = r;
  s.mass = m;
  return s;
}

TEST(HardSphereWorld, RandomLatticeScenesMatchAllPairs) {
  const std::uint64_t seed = kds::testing::test_seed();
  for (double phi : {0.1, 0.3, 0.45}) {
    SCOPED_TRACE("phi " + std::to_string(phi) + ", seed " + std::to_string(seed));
    const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(125, phi, seed);
    const auto ref = reference(scene.spheres, settings_for(scene.box), 900);
    ASSERT_FALSE(ref.empty());
    expect_identical(ref, fast(scene.spheres, settings_for(scene.box), 900));
  }
}

TEST(HardSphereWorld, UnequalRadiiAndMassesMatchAllPairs) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  std::vector<Sphere> spheres;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 4; ++k)
        spheres.push_back(ball({3.0 * i + 1.5, 3.0 * j + 1.5, 3.0 * k + 1.5},
                               {2 * unit() - 1, 2 * unit() - 1, 2 * unit() - 1}, 0.2 + 1.2 * unit(), 0.5 + 2 * unit()));
  for (double e : {1.0, 0.7}) {
    SCOPED_TRACE("restitution " + std::to_string(e) + ", seed " + std::to_string(seed));
    compare(spheres, settings_for(Box3{{0, 0, 0}, {15, 15, 12}}, e), 800);
  }
}

TEST(HardSphereWorld, CellsHoldingManySpheresMatchAllPairs) {
  // One large sphere sets the cells' side (a largest diameter, 6): the small ones crowd
  // dozens to a cell (2 x 2 x 2 cells for about 300 spheres), past a cell's two slots, so
  // that the cells' overflow is listed in scans and changes at crossings. Audited after
  // every event (which checks the cells' lists and the scans' buffers), and compared
  // with all-pairs.
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  std::vector<Sphere> spheres{ball({9, 9, 9}, {0.3, -0.2, 0.1}, 3, 20)};
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j)
      for (int k = 0; k < 4; ++k) {
        const kds::Vec<3> x{2.0 * i + 1, 2.0 * j + 1, 4.5 * k + 1 + (i + j) % 2};
        if (kds::norm(kds::sub(x, kds::Vec<3>{9, 9, 9})) < 4.5) continue;  // clear of the large sphere
        spheres.push_back(ball(x, {2 * unit() - 1, 2 * unit() - 1, 2 * unit() - 1}, 0.4 + 0.3 * unit()));
      }
  SCOPED_TRACE("seed " + std::to_string(seed));
  compare(spheres, settings_for(Box3{{0, 0, 0}, {18, 18, 18}}), 600, true);
}

TEST(HardSphereWorld, DegenerateScenesMatchAllPairs) {
  const Box3 box{{0, 0, 0}, {20, 20, 20}};
  // Mirror-image pairs meeting at the same time; a pair touching at time 0 and
  // approaching; a sphere touching a wall at time 0 moving into it; a Newton's cradle;
  // a grazing pair (tangent: centres pass at exactly the sum of the radii).
  const std::vector<Sphere> spheres{
      ball({2, 10, 4}, {1, 0, 0}),   ball({6, 10, 4}, {-1, 0, 0}),     ball({14, 10, 4}, {1, 0, 0}),
      ball({18, 10, 4}, {-1, 0, 0}), ball({5, 3, 10}, {0.5, 0, 0}),    ball({7, 3, 10}, {-0.5, 0, 0}),
      ball({1, 17, 10}, {-1, 0.25, 0}), ball({2, 3, 16}, {1, 0, 0}),   ball({5, 3, 16}, {0, 0, 0}),
      ball({8, 3, 16}, {-1, 0, 0}),  ball({3, 14, 16}, {1, 0, 0}),     ball({13, 16, 16}, {-1, 0, 0})};
  compare(spheres, settings_for(box), 60, true);
}

TEST(HardSphereWorld, CrowdedIntegerSceneMatchesAllPairs) {
  // Spheres on an integer grid moving along the axes at unit speeds: many contacts at
  // exactly equal times, at doubles, three or four spheres at once.
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  std::vector<Sphere> spheres;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) {
        kds::Vec<3> v{0, 0, 0};
        v[rng() % 3] = (rng() % 2 == 0) ? 1.0 : -1.0;
        spheres.push_back(ball({3.0 * i + 2, 3.0 * j + 2, 3.0 * k + 2}, v));
      }
  SCOPED_TRACE("seed " + std::to_string(seed));
  compare(spheres, settings_for(Box3{{0, 0, 0}, {13, 13, 13}}), 400, true);
  // The world numbers the spheres by cell: in any order the user gives them, the
  // simultaneous contacts still go in the order of the user's ids, as in the reference.
  std::shuffle(spheres.begin(), spheres.end(), rng);
  compare(spheres, settings_for(Box3{{0, 0, 0}, {13, 13, 13}}), 400, true);
}

TEST(HardSphereWorld, StatesAndContactsAreInTheUsersIds) {
  // A scene given in an order far from the world's own (by cell): the contacts name the
  // user's ids, state(id) is that sphere's, and the run matches the same scene given in
  // cell order with the ids renamed.
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(216, 0.3, seed);
  std::vector<std::size_t> order(scene.spheres.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<Sphere> shuffled;
  for (const std::size_t k : order) shuffled.push_back(scene.spheres[k]);  // user id u is scene sphere order[u]
  const auto settings = settings_for(scene.box);
  kds::HardSphereWorld a(settings, scene.spheres), b(settings, shuffled);
  for (SphereId u = 0; u < shuffled.size(); ++u) {
    ASSERT_EQ(b.state(u, 0).position, shuffled[u].position) << "sphere " << u;
    ASSERT_EQ(b.state(u, 0).velocity, shuffled[u].velocity) << "sphere " << u;
  }
  a.run_until(2.0);
  b.run_until(2.0);
  ASSERT_GT(a.contacts().size(), 100u);
  ASSERT_EQ(a.contacts().size(), b.contacts().size());
  for (std::size_t k = 0; k < a.contacts().size(); ++k) {
    const Contact& x = a.contacts()[k];
    Contact y = b.contacts()[k];
    y.a = static_cast<SphereId>(order[y.a]);
    if (!y.with_wall) {
      y.b = static_cast<SphereId>(order[y.b]);
      if (y.a > y.b) std::swap(y.a, y.b);
    }
    ASSERT_EQ(describe(x), describe(y)) << "contact " << k;
  }
  for (SphereId u = 0; u < shuffled.size(); ++u) {
    ASSERT_EQ(a.state(static_cast<SphereId>(order[u]), 2.0).position, b.state(u, 2.0).position) << "sphere " << u;
    ASSERT_EQ(a.state(static_cast<SphereId>(order[u]), 2.0).velocity, b.state(u, 2.0).velocity) << "sphere " << u;
  }
  // (Summed in each one's user order: equal up to the rounding of the sums.)
  EXPECT_NEAR(a.kinetic_energy(2.0), b.kinetic_energy(2.0), 1e-12 * a.kinetic_energy(2.0));
  EXPECT_THROW(b.state(static_cast<SphereId>(shuffled.size()), 0), std::out_of_range);
}

TEST(HardSphereWorld, BoxFarFromZeroMatchesAllPairs) {
  // The local frame (box.hpp, local_origin): the same translation as the world's.
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  kds::bench::LatticeScene scene = kds::bench::lattice_spheres(64, 0.3, seed);
  for (int k = 0; k < 3; ++k) {
    scene.box.lo[k] += 1e6;
    scene.box.hi[k] += 1e6;
    for (Sphere& s : scene.spheres) s.position[k] += 1e6;
  }
  compare(scene.spheres, settings_for(scene.box), 500);
}

TEST(HardSphereWorld, RunUntilStopsAtTheTargetAndCallsObservers) {
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(64, 0.3, 7);
  kds::HardSphereWorld world(settings_for(scene.box), scene.spheres);
  std::size_t seen = 0;
  world.on_contact([&](const Contact&) { ++seen; });
  world.run_until(2.5);
  EXPECT_EQ(world.now(), 2.5);
  ASSERT_FALSE(world.contacts().empty());
  EXPECT_EQ(seen, world.contacts().size());
  for (const Contact& c : world.contacts()) EXPECT_LE(c.time, 2.5);
  world.audit();
  EXPECT_THROW(world.run_until(1.0), kds::InvalidInput);
  // The reference, run to the same time, logged the same contacts.
  kds::SimulatorSettings ss;
  ss.audit = false;
  kds::Simulator sim(ss);
  kds::CollisionWorld reference_world(sim, settings_for(scene.box), scene.spheres);
  sim.run_until(2.5);
  expect_identical(reference_world.contacts(), world.contacts());
}

TEST(HardSphereWorld, AuditsHoldOnARandomScene) {
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(64, 0.35, seed);
  compare(scene.spheres, settings_for(scene.box), 300, true);
}

TEST(HardSphereWorld, FirstEventsAreEachSpheresOwnScan) {
  // The constructor computes each pair's window once for both of its spheres; the audit
  // before the first step checks every sphere's first event against schedule()'s scan
  // from scratch, field for field (ties included): on random lattices, on unequal
  // spheres, and on scenes whose windows tie (an integer grid at unit speeds, mirror
  // pairs, contacts at time 0).
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  auto audited = [](const std::vector<Sphere>& spheres, const Box3& box) {
    const kds::HardSphereWorld world(settings_for(box), spheres);
    world.audit();
  };
  for (double phi : {0.1, 0.3, 0.45}) {
    const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(343, phi, seed + 1);
    audited(scene.spheres, scene.box);
  }
  auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  std::vector<Sphere> unequal, grid;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 4; ++k) {
        unequal.push_back(ball({3.0 * i + 1.5, 3.0 * j + 1.5, 3.0 * k + 1.5},
                               {2 * unit() - 1, 2 * unit() - 1, 2 * unit() - 1}, 0.2 + 1.2 * unit(), 0.5 + 2 * unit()));
        kds::Vec<3> v{0, 0, 0};
        v[rng() % 3] = (rng() % 2 == 0) ? 1.0 : -1.0;
        grid.push_back(ball({3.0 * i + 2, 3.0 * j + 2, 3.0 * k + 2}, v));
      }
  audited(unequal, Box3{{0, 0, 0}, {15, 15, 12}});
  audited(grid, Box3{{0, 0, 0}, {16, 16, 13}});
  audited({ball({2, 10, 4}, {1, 0, 0}), ball({6, 10, 4}, {-1, 0, 0}), ball({5, 3, 10}, {0.5, 0, 0}),
           ball({7, 3, 10}, {-0.5, 0, 0}), ball({1, 17, 10}, {-1, 0.25, 0}), ball({4, 10, 6}, {0, 0, -1})},
          Box3{{0, 0, 0}, {20, 20, 20}});
}

TEST(HardSphereWorld, KeepsEnergyAndCountsTheExactPath) {
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(1000, 0.4, kds::testing::test_seed());
  kds::HardSphereWorld world(settings_for(scene.box), scene.spheres);
  const double e0 = world.kinetic_energy(0);
  world.keep_contacts(false);
  while (world.sphere_contacts() < 20000 && world.step()) {
  }
  EXPECT_NEAR(world.kinetic_energy(world.now()) / e0, 1.0, 1e-11);
  const auto& t = world.stats().times;
  // The doubles decide almost every failure time; the exact path stays rare.
  EXPECT_GT(t.pair_tests, 0u);
  EXPECT_LT(t.exact_fallbacks * 100, t.pair_tests + t.wall_tests);
  std::cout << "pair tests " << t.pair_tests << ", windows " << t.pair_windows << ", instants " << t.instants << " (exact in the last ulps " << t.instants_exact << ")" << ", exact fallbacks "
            << t.exact_fallbacks << ", stale " << world.stats().stale << '\n';
}

TEST(HardSphereEventTimes, EqualVelocitiesAndSlidingPairsAreDecidedByTheDoubles) {
  // Pairs whose failure the doubles decide exactly without kds's exact path (issue 8):
  // equal velocities (the centres' difference is constant), and a sphere sliding past
  // another perpendicular to their centres' line (B = 0, no real root). Each answer is
  // checked against the exact path's; pairs the doubles cannot decide (touching, or
  // overlapping, at rest) still take it.
  using kds::hard_spheres::Kinematics;
  struct Case {
    const char* what;
    Kinematics a, b;
    bool decided_by_doubles;
  };
  const std::vector<Case> cases{
      {"at rest, apart", {{0, 0, 0}, {0, 0, 0}, 0}, {{1.015625, 0, 0}, {0, 0, 0}, 0}, true},
      {"equal velocities, other starts", {{0, 0, 0}, {0.1, -3, 7}, 0.5}, {{0.3, 1.1, 0.2}, {0.1, -3, 7}, 0.25}, true},
      {"sliding past", {{0, 0, 0}, {5, 0, 0}, 0}, {{0, 1.25, 0}, {0, 0, 0}, 0}, true},
      {"grazing (tangent)", {{0, 0, 0}, {1, 0, 0}, 0}, {{3, 1, 0}, {0, 0, 0}, 0}, false},
      {"touching at rest", {{0, 0, 0}, {0, 0, 0}, 0}, {{1, 0, 0}, {0, 0, 0}, 0}, false},
      {"overlapping at rest", {{0, 0, 0}, {0, 0, 0}, 0}, {{0.75, 0, 0}, {0, 0, 0}, 0}, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    kds::hard_spheres::TimeCounters counters;
    const kds::hard_spheres::Window w =
        kds::hard_spheres::pair_window(c.a, 0.5, c.b, 0.5, 0, kds::hard_spheres::never, counters);
    const kds::hard_spheres::PairFunction f(c.a, 0.5, c.b, 0.5, 0);
    const kds::Root exact = kds::hard_spheres::pair_root(f, std::max(c.a.start, c.b.start));
    EXPECT_EQ(w.fails(), !exact.is_infinite());
    if (w.fails()) EXPECT_EQ(kds::hard_spheres::pair_instant(c.a, 0.5, c.b, 0.5, 0, w, counters), kds::ceil_to_double(exact));
    EXPECT_EQ(counters.exact_fallbacks, c.decided_by_doubles ? 0u : 1u);
  }
}

TEST(HardSphereEventTimes, OverflowingProductsAreNotTakenForMovingApart) {
  // Found by review: with |D_k V_k| beyond the largest double, B = D.V rounds to +infinity
  // although the pair approaches (the other axes outweigh the one that overflowed). The
  // window must then come from the exact path, not from "moving apart".
  using kds::hard_spheres::Kinematics;
  const double L = 0x1p500, w = 0x1p524, r = 0.85 * L;  // R = 1.7 L: closest approach 1.64 L < R < |D| = 1.73 L
  const Kinematics a{{L, L, L}, {1.01 * w, -0.99 * w, -0.99 * w}, 0}, b{{0, 0, 0}, {0, 0, 0}, 0};
  kds::hard_spheres::TimeCounters counters;
  const kds::hard_spheres::Window win = kds::hard_spheres::pair_window(a, r, b, r, 0, kds::hard_spheres::never, counters);
  const kds::hard_spheres::PairFunction f(a, r, b, r, 0);
  const kds::Root exact = kds::hard_spheres::pair_root(f, 0);
  ASSERT_FALSE(exact.is_infinite());
  ASSERT_TRUE(win.fails());
  EXPECT_EQ(kds::hard_spheres::pair_instant(a, r, b, r, 0, win, counters), kds::ceil_to_double(exact));
  EXPECT_EQ(counters.pair_rejected, 0u);
}

TEST(HardSphereEventTimes, FirstTestsAnswerAsThePairsOwnBounds) {
  // pair_window decides most pairs with coarse bounds on the roundings (from a bound on
  // every coordinate's magnitude, or the pair's own), and passes the others to
  // pair_window_closing, whose bounds are the pair's own. Each answer must be exactly the
  // one pair_window_closing gives alone: random pairs far from and near the origin, pairs
  // sliding past each other (B within its rounding of 0), grazing (the discriminant within
  // its rounding of 0), touching now, at equal velocities, and starts far apart in time.
  using kds::hard_spheres::Kinematics;
  using kds::hard_spheres::Window;
  std::mt19937_64 rng(kds::testing::test_seed());
  std::uniform_real_distribution<double> unit(-1, 1), exponent(-15, 0);
  auto scale = [&] { return std::pow(10.0, exponent(rng)); };
  auto vec = [&](double m) { return kds::Vec<3>{m * unit(rng), m * unit(rng), m * unit(rng)}; };
  using V3 = kds::Vec<3>;
  auto add = [](const V3& x, const V3& y) { return V3{x[0] + y[0], x[1] + y[1], x[2] + y[2]}; };
  auto times = [](const V3& x, double c) { return V3{c * x[0], c * x[1], c * x[2]}; };
  auto cross = [](const V3& x, const V3& y) {
    return V3{x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
  };
  const double r = 0.5, R = 2 * r;
  std::uint64_t decided_first = 0, beyond_first = 0, closing = 0, near_zero = 0, edges_beyond = 0;
  for (int trial = 0; trial < 16000; ++trial) {
    const double offset = std::pow(10.0, std::uniform_int_distribution<int>(0, 9)(rng)) * unit(rng);
    const kds::Vec<3> origin{offset, -offset, 0.5 * offset};
    Kinematics a{add(origin, vec(1)), vec(1), std::uniform_real_distribution<double>(0, 50)(rng)};
    Kinematics b = a;
    const int kind = trial % 5;
    // A unit direction from a to b and one perpendicular to it.
    kds::Vec<3> n = vec(1);
    n = times(n, 1 / kds::norm(n));
    kds::Vec<3> m = cross(n, kds::Vec<3>{0.6, 0.8, 0});
    m = times(m, 1 / kds::norm(m));
    b.start = a.start - std::uniform_real_distribution<double>(0, 20)(rng);
    switch (kind) {
      case 0:  // anywhere near
        b.p = add(a.p, vec(4));
        b.v = vec(2);
        break;
      case 1:  // sliding past: the relative velocity perpendicular to the centres' line
        b.p = add(a.p, times(n, R * (1 + scale())));
        b.v = add(a.v, add(times(m, 1 + unit(rng)), times(n, scale() * unit(rng))));
        break;
      case 2:  // grazing: passing at a distance within a tiny fraction of R
        b.p = add(add(a.p, times(m, R * (1 + scale() * unit(rng)))), times(n, 3));
        b.v = add(a.v, times(n, -1));
        break;
      case 3:  // touching now or overlapping, approaching or not
        b.p = add(a.p, times(n, R * (1 + (trial % 4 == 3 ? -1e-6 * scale() : 1e-15 * unit(rng)))));
        b.v = add(a.v, times(n, scale() * unit(rng)));
        break;
      default:  // equal velocities, or one at rest
        b.p = add(a.p, vec(3));
        b.v = trial % 2 == 0 ? a.v : kds::Vec<3>{0, 0, 0};
        break;
    }
    // b's motion starts earlier: its start point is where it was then.
    for (int k = 0; k < 3; ++k) b.p[k] -= b.v[k] * (a.start - b.start);
    if (trial % 2 == 1) std::swap(a, b);
    const double allowance = kind == 3 && trial % 3 == 0 ? 1e-12 * scale() : 0.0;
    const double bound = trial % 4 == 0 ? kds::hard_spheres::never : a.start + 10 * scale();
    kds::hard_spheres::TimeCounters own, plain, bounded;
    const Window w0 = kds::hard_spheres::pair_window_closing(a, r, b, r, allowance, bound,
                                                             kds::hard_spheres::pair_start(a, b), own);
    const Window w1 = kds::hard_spheres::pair_window(a, r, b, r, allowance, bound, plain);
    // Magnitudes of a world holding these two motions and others larger.
    kds::hard_spheres::Magnitudes magnitudes{0, 0};
    magnitudes.include(a);
    magnitudes.include(b);
    if (trial % 3 == 0) magnitudes.p *= 10, magnitudes.v *= 3;
    const Window w2 = kds::hard_spheres::pair_window(a, r, b, r, allowance, bound, bounded, magnitudes);
    auto same = [](const Window& x, const Window& y) {
      auto bits = [](double d) { return std::bit_cast<std::uint64_t>(d); };
      return bits(x.lo) == bits(y.lo) && bits(x.hi) == bits(y.hi) && bits(x.guess) == bits(y.guess) &&
             x.exact == y.exact;
    };
    ASSERT_TRUE(same(w0, w1)) << "trial " << trial << " kind " << kind << ": [" << w0.lo << ", " << w0.hi << "] against ["
                              << w1.lo << ", " << w1.hi << "]";
    ASSERT_TRUE(same(w0, w2)) << "trial " << trial << " kind " << kind << " with magnitudes: [" << w0.lo << ", " << w0.hi
                              << "] against [" << w2.lo << ", " << w2.hi << "]";
    // "Later than the bound" at its edge: bounds at and around the lower end of the window.
    if (w0.fails() && !w0.exact)
      for (const double edge : {kds::next_down(kds::next_down(w0.lo)), kds::next_down(w0.lo), w0.lo,
                                kds::next_up(w0.lo), w0.hi}) {
        kds::hard_spheres::TimeCounters ignored;
        const Window e0 = kds::hard_spheres::pair_window_closing(a, r, b, r, allowance, edge,
                                                                 kds::hard_spheres::pair_start(a, b), ignored);
        const Window e2 = kds::hard_spheres::pair_window(a, r, b, r, allowance, edge, ignored, magnitudes);
        ASSERT_TRUE(same(e0, e2)) << "trial " << trial << " kind " << kind << " bound at the window's edge " << edge;
        edges_beyond += e0.fails() ? 0 : 1;
      }
    decided_first += bounded.pair_rejected_coarse + bounded.pair_beyond_coarse;
    beyond_first += bounded.pair_beyond_coarse;
    closing += 1 - bounded.pair_rejected_coarse - bounded.pair_beyond_coarse;
    near_zero += own.exact_fallbacks;
  }
  std::cout << "decided by the first tests " << decided_first << " (beyond the bound " << beyond_first
            << "), by pair_window_closing " << closing << "; bounds at a window's edge found beyond it " << edges_beyond
            << " (its exact path " << near_zero << ")\n";
  // Both paths are exercised, and the exact one (signs the bounds cannot decide).
  EXPECT_GT(decided_first, 4000u);
  EXPECT_GT(beyond_first, 200u);
  EXPECT_GT(edges_beyond, 100u);
  EXPECT_GT(closing, 2000u);
  EXPECT_GT(near_zero, 100u);
}

TEST(HardSphereEventTimes, FourPairFirstTestsDecideAsPairWindow) {
  // A scan decides most pairs four at a time (first_tests_never4): each bit must be
  // pair_window's own decision by its first tests, in both builds (AVX2 where the
  // processor has it, and the SSE2 baseline), on random pairs, pairs sliding past or
  // grazing (their tests at the edge of the bounds), touching now, at equal velocities,
  // starting at the same instant (either sphere "later"), far from the origin and at
  // coordinates whose products overflow.
  using kds::hard_spheres::Kinematics;
  std::mt19937_64 rng(kds::testing::test_seed());
  std::uniform_real_distribution<double> unit(-1, 1), exponent(-15, 0);
  auto scale = [&] { return std::pow(10.0, exponent(rng)); };
  using V3 = kds::Vec<3>;
  auto vec = [&](double m) { return V3{m * unit(rng), m * unit(rng), m * unit(rng)}; };
  auto add = [](const V3& x, const V3& y) { return V3{x[0] + y[0], x[1] + y[1], x[2] + y[2]}; };
  auto times = [](const V3& x, double c) { return V3{c * x[0], c * x[1], c * x[2]}; };
  const bool avx2 = kds::hard_spheres::detail::first_tests_avx2();
  std::uint64_t never = 0, past = 0;
  std::vector<Kinematics> a(4), b(4);
  for (int group = 0; group < 6000; ++group) {
    kds::hard_spheres::FourPairs q;
    kds::hard_spheres::Magnitudes magnitudes{0, 0};
    for (int l = 0; l < 4; ++l) {
      // (A group with a pair that overflows has coarse bounds too wide for its others: such
      // pairs come in groups of their own.)
      const int trial = 4 * group + l, kind = group % 10 == 9 ? 6 : trial % 6;
      const double offset = std::pow(10.0, std::uniform_int_distribution<int>(0, 9)(rng)) * unit(rng);
      const V3 origin{offset, -offset, 0.5 * offset};
      const double R = 1.0;
      V3 n = vec(1);
      n = times(n, 1 / kds::norm(n));
      Kinematics& x = a[static_cast<std::size_t>(l)];
      Kinematics& y = b[static_cast<std::size_t>(l)];
      x = Kinematics{add(origin, vec(1)), vec(1), std::uniform_real_distribution<double>(0, 50)(rng)};
      y = x;
      y.start = kind == 5 ? x.start : x.start - std::uniform_real_distribution<double>(0, 20)(rng);
      switch (kind) {
        case 0:  // anywhere near
          y.p = add(x.p, vec(4));
          y.v = vec(2);
          break;
        case 1:  // sliding past, or nearly
          y.p = add(x.p, times(n, R * (1 + scale())));
          y.v = add(x.v, add(vec(1), times(n, scale() * unit(rng))));
          break;
        case 2:  // grazing
          y.p = add(x.p, times(n, 3));
          y.v = add(x.v, add(times(n, -1), times(vec(1), scale())));
          break;
        case 3:  // touching now or overlapping
          y.p = add(x.p, times(n, R * (1 + (trial % 4 == 3 ? -1e-6 * scale() : 1e-15 * unit(rng)))));
          y.v = add(x.v, times(n, scale() * unit(rng)));
          break;
        case 4:  // equal velocities, or one at rest
          y.p = add(x.p, vec(3));
          y.v = trial % 2 == 0 ? x.v : V3{0, 0, 0};
          break;
        case 5:  // both starting now
          y.p = add(x.p, vec(3));
          y.v = vec(2);
          break;
        default:  // products that overflow
          x.p = times(vec(1), 1e300);
          y.p = times(vec(1), 1e300);
          y.v = vec(1e10);
          break;
      }
      for (int k = 0; k < 3; ++k) y.p[k] -= y.v[k] * (x.start - y.start);
      if (trial % 2 == 1) std::swap(x, y);
      magnitudes.include(x);
      magnitudes.include(y);
      q.a[l] = &x;
      q.b[l] = &y;
      q.ra[l] = 0.5;
      q.rb[l] = 0.5 * (1 + (kind == 0 ? scale() : 0.0));
      q.allowance[l] = kind == 3 && trial % 3 == 0 ? 1e-12 * scale() : 0.0;
    }
    if (group % 3 == 0) magnitudes.p *= 10, magnitudes.v *= 3;
    if (!(magnitudes.p <= std::numeric_limits<double>::max() && magnitudes.v <= std::numeric_limits<double>::max())) continue;
    const unsigned baseline = kds::hard_spheres::detail::first_tests_never4_baseline(q, magnitudes);
    const unsigned dispatched = kds::hard_spheres::first_tests_never4(q, magnitudes);
    for (int l = 0; l < 4; ++l) {
      kds::hard_spheres::TimeCounters counters;
      kds::hard_spheres::pair_window(*q.a[l], q.ra[l], *q.b[l], q.rb[l], q.allowance[l], kds::hard_spheres::never,
                                     counters, magnitudes);
      const bool scalar = counters.pair_rejected_coarse == 1;
      ASSERT_EQ(((baseline >> l) & 1u) == 1u, scalar) << "group " << group << " lane " << l << " (baseline)";
      ASSERT_EQ(((dispatched >> l) & 1u) == 1u, scalar) << "group " << group << " lane " << l << " (dispatched)";
      if (avx2)
        ASSERT_EQ(((kds::hard_spheres::detail::first_tests_never4_avx2(q, magnitudes) >> l) & 1u) == 1u, scalar)
            << "group " << group << " lane " << l << " (AVX2)";
      (scalar ? never : past) += 1;
    }
  }
  std::cout << "four-pair first tests: " << never << " decided never, " << past << " past the first tests"
            << (avx2 ? " (AVX2 and baseline)" : " (baseline; no AVX2 here)") << "\n";
  EXPECT_GT(never, 5000u);
  EXPECT_GT(past, 5000u);
}

TEST(HardSphereEventTimes, PairAnswersDoNotDependOnWhichSphereComesFirst) {
  // The world numbers its spheres in its own order (by cell), so the sphere passed first
  // for a pair is not always the one of smaller id in the user's numbering, as it is in
  // the reference: every pair answer must be the same both ways, bit for bit (windows,
  // instants, and the value and slope allowances are decided from).
  using kds::hard_spheres::Kinematics;
  using kds::hard_spheres::Window;
  std::mt19937_64 rng(kds::testing::test_seed());
  std::uniform_real_distribution<double> unit(-1, 1);
  using V3 = kds::Vec<3>;
  auto vec = [&](double m) { return V3{m * unit(rng), m * unit(rng), m * unit(rng)}; };
  auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  auto same_window = [&](const Window& x, const Window& y) {
    return same(x.lo, y.lo) && same(x.hi, y.hi) && same(x.guess, y.guess) && x.exact == y.exact;
  };
  auto same_interval = [&](const kds::Interval& x, const kds::Interval& y) {
    return same(x.lo(), y.lo()) && same(x.hi(), y.hi());
  };
  std::uint64_t meeting = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const double offset = std::pow(10.0, std::uniform_int_distribution<int>(0, 9)(rng)) * unit(rng);
    Kinematics a{vec(1), vec(1), trial % 3 == 0 ? 5.0 : std::uniform_real_distribution<double>(0, 50)(rng)};
    for (double& x : a.p) x += offset;
    Kinematics b = a;
    b.start = trial % 3 == 0 ? a.start : a.start - std::uniform_real_distribution<double>(0, 20)(rng);
    // b at a.p + gap when a starts: a few radii away, or touching and approaching.
    b.v = trial % 5 == 0 ? V3{a.v[0] - 0.5, a.v[1] + 0.25 * unit(rng), a.v[2]} : vec(2);
    const V3 gap = trial % 5 == 0 ? V3{1.0 + 1e-15 * unit(rng), 0, 0} : vec(4);
    for (int k = 0; k < 3; ++k) b.p[k] = a.p[k] + gap[k] - b.v[k] * (a.start - b.start);
    const double ra = 0.5, rb = trial % 2 == 0 ? 0.5 : 0.25 + 0.5 * std::fabs(unit(rng));
    const double allowance = trial % 7 == 0 ? 1e-12 * std::fabs(unit(rng)) : 0.0;
    kds::hard_spheres::TimeCounters c1, c2;
    for (const double bound : {kds::hard_spheres::never, std::max(a.start, b.start) + 2.0 * std::fabs(unit(rng))}) {
      const Window w1 = kds::hard_spheres::pair_window(a, ra, b, rb, allowance, bound, c1);
      const Window w2 = kds::hard_spheres::pair_window(b, rb, a, ra, allowance, bound, c2);
      ASSERT_TRUE(same_window(w1, w2)) << "trial " << trial << ": the windows differ";
      if (!w1.fails()) continue;
      ++meeting;
      ASSERT_TRUE(same(kds::hard_spheres::pair_instant(a, ra, b, rb, allowance, w1, c1),
                       kds::hard_spheres::pair_instant(b, rb, a, ra, allowance, w2, c2)))
          << "trial " << trial << ": the instants differ";
    }
    const double t0 = std::max(a.start, b.start);
    const auto v1 = kds::hard_spheres::pair_value_and_slope(a, ra, b, rb, t0);
    const auto v2 = kds::hard_spheres::pair_value_and_slope(b, rb, a, ra, t0);
    ASSERT_TRUE(same_interval(v1.value, v2.value) && same_interval(v1.slope, v2.slope))
        << "trial " << trial << ": the values and slopes differ";
  }
  EXPECT_GT(meeting, 2000u);
}

/// The double `ulps` doubles above x (below it for a negative count).
double ulps_from(double x, int ulps) {
  for (int k = 0; k < std::abs(ulps); ++k) x = ulps < 0 ? kds::next_down(x) : kds::next_up(x);
  return x;
}

TEST(HardSphereEventTimes, InstantsAreTheExactRootsRoundedUp) {
  // pair_instant searches the doubles of a window with certified signs: double-double
  // evaluations, and around one of them the function's exact expansion (a quadratic) in
  // doubles. Judged by the exact root rounded up, on random approaching pairs at many
  // scales and offsets, and on pairs whose root is a double, or an ulp or two from one
  // (where the signs at the neighbouring doubles are the smallest).
  using kds::hard_spheres::Kinematics;
  std::mt19937_64 rng(kds::testing::test_seed());
  std::uniform_real_distribution<double> unit(-1, 1);
  using V3 = kds::Vec<3>;
  auto vec = [&](double m) { return V3{m * unit(rng), m * unit(rng), m * unit(rng)}; };
  std::uint64_t checked = 0, on_doubles = 0, shifted_guesses = 0, expansion_signs = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const double scale = std::pow(2.0, std::uniform_int_distribution<int>(-10, 20)(rng));
    const double offset = std::pow(10.0, std::uniform_int_distribution<int>(0, 8)(rng)) * unit(rng);
    const double r = (trial % 4 == 3 ? 2.5 : 0.5) * scale;  // 2r = 5 units, for the off-axis pairs below
    Kinematics a{V3{offset, 0.5 * offset, -offset}, vec(1), std::uniform_real_distribution<double>(0, 100)(rng)};
    Kinematics b = a;
    if (trial % 2 == 0) {
      // Random: b a few diameters away, heading roughly at a.
      const V3 gap = vec(6 * r);
      for (int k = 0; k < 3; ++k) b.p[k] = a.p[k] + gap[k];
      for (int k = 0; k < 3; ++k) b.v[k] = a.v[k] - gap[k] * (0.5 + unit(rng) * 0.4) + 0.3 * unit(rng);
    } else {
      // Head on along x, meeting when the gap 2r + T s closes at speed s. With T a
      // multiple of 1/16, r and s powers of two, the start 2r + T s is exact and the root
      // is the double T itself (the function is exactly 0 there); the start moved by an
      // ulp or a few puts the root that many ulps (over s) from T.
      // Half of them off the axis, as (3, 4, 0) against 2r = 5 (times a power of two),
      // at odd speeds: f is still exactly 0 at T, but its values and slope round.
      const double T = std::uniform_int_distribution<int>(8, 800)(rng) / 16.0;
      const bool off_axis = trial % 4 == 3;
      const double speed = std::pow(2.0, std::uniform_int_distribution<int>(-3, 3)(rng)) *
                           (off_axis ? std::uniform_int_distribution<int>(1, 4)(rng) * 2 - 1 : 1);
      a.start = b.start = 0;
      a.p = V3{0, 0, 0};
      a.v = V3{0, 0, 0};
      const double unit_length = 2 * r / 5;  // a power of two
      double x = (off_axis ? 3 * unit_length : 2 * r) + T * speed;
      for (int step = trial % 8 / 2; step > 0 && !off_axis; --step) x = trial % 3 == 0 ? kds::next_down(x) : kds::next_up(x);
      b.p = V3{x, off_axis ? 4 * unit_length : 0, 0};
      b.v = V3{-speed, 0, 0};
      if (trial % 3 == 1) std::swap(a, b);
      ++on_doubles;
    }
    const double allowance = trial % 5 == 0 ? 1e-14 * r * r : 0.0;
    kds::hard_spheres::TimeCounters counters;
    const kds::hard_spheres::Window w = kds::hard_spheres::pair_window(a, r, b, r, allowance, kds::hard_spheres::never, counters);
    if (!w.fails()) continue;
    const kds::hard_spheres::PairFunction f(a, r, b, r, allowance);
    const kds::Root exact = kds::hard_spheres::pair_root(f, std::max(a.start, b.start));
    ASSERT_FALSE(exact.is_infinite()) << "trial " << trial;
    const double instant = kds::ceil_to_double(exact);
    ASSERT_EQ(kds::hard_spheres::pair_instant(a, r, b, r, allowance, w, counters), instant) << "trial " << trial;
    ++checked;
    // The expansion's signs themselves, from centres a few ulps around the instant, at the
    // doubles around it, judged by the exact value there (0 at the instant of the pairs
    // whose root is a double: no sign may be claimed).
    if (trial % 3 == 0) {
      const kds::hard_spheres::PairFunction g(a, r, b, r, allowance);
      auto around = [&](int ulps) { return ulps_from(instant, ulps); };
      for (int from = -4; from <= 4; from += 2)
        for (int at = -2; at <= 2; ++at) {
          const double x0 = around(from), x = around(at);
          const kds::Sign claimed = kds::hard_spheres::detail::pair_sign_from_expansion(a, r, b, r, allowance, x0, x);
          if (claimed == kds::Sign::unknown) continue;
          const int truth = sgn(g.certificate.exact_value_at(x));
          ASSERT_EQ(claimed == kds::Sign::positive ? 1 : -1, truth)
              << "trial " << trial << ": the expansion at " << from << " ulps claims a sign at " << at << " ulps";
          ++expansion_signs;
        }
    }
    // The search starts at the window's guess: a guess a few ulps off makes the signs at
    // the instant and next to it come from the expansion at the guess (where the root is a
    // double, f is exactly 0 at the instant: no sign may be claimed there).
    if (!w.exact)
      for (int ulps : {-3, -1, 1, 2}) {
        const double guess = ulps_from(instant, ulps);
        if (!(guess > w.lo && guess < w.hi)) continue;
        kds::hard_spheres::Window shifted = w;
        shifted.guess = guess;
        ASSERT_EQ(kds::hard_spheres::pair_instant(a, r, b, r, allowance, shifted, counters), instant)
            << "trial " << trial << ", guess " << ulps << " ulps from the instant";
        ++shifted_guesses;
      }
  }
  std::cout << checked << " instants checked (" << on_doubles << " head-on pairs with roots at or next to doubles), "
            << shifted_guesses << " more from guesses off by a few ulps; " << expansion_signs
            << " signs from expansions checked exactly\n";
  EXPECT_GT(checked, 3500u);
  EXPECT_GT(shifted_guesses, 3000u);
  EXPECT_GT(expansion_signs, 20000u);
}

TEST(HardSphereEventTimes, ExpansionSignsAreExactWhereTheFunctionVanishesAtADouble) {
  // The hardest case for pair_instant's expansion: the function is exactly 0 at a double T
  // (the centres (3, 4, 0) units apart at T, 2r = 5 units) while every value and slope it
  // reads rounds (velocities of 53 random bits). From centres a few ulps around T, no sign
  // may be claimed at T, and every sign claimed elsewhere must be the exact one.
  using kds::hard_spheres::Kinematics;
  std::mt19937_64 rng(kds::testing::test_seed());
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uint64_t claimed_signs = 0, unknown_at_zero = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const double length = std::pow(2.0, std::uniform_int_distribution<int>(-8, 8)(rng));
    const double T = std::uniform_real_distribution<double>(0.5, 1e4)(rng);
    Kinematics a{{0, 0, 0}, {unit(rng), unit(rng), unit(rng)}, T};
    Kinematics b{{3 * length, 4 * length, 0}, {unit(rng), unit(rng), unit(rng)}, T};
    for (int k = 0; k < 3; ++k) a.v[k] *= std::pow(10.0, std::uniform_int_distribution<int>(-3, 3)(rng));
    if (trial % 2 == 1) std::swap(a, b);
    const double r = 2.5 * length;
    const kds::hard_spheres::PairFunction f(a, r, b, r, 0);
    ASSERT_EQ(sgn(f.certificate.exact_value_at(T)), 0);
    auto around = [&](int ulps) { return ulps_from(T, ulps); };
    for (int from = -6; from <= 6; ++from)
      for (int at = -3; at <= 3; ++at) {
        const double x0 = around(from), x = around(at);
        const kds::Sign claimed = kds::hard_spheres::detail::pair_sign_from_expansion(a, r, b, r, 0, x0, x);
        if (claimed == kds::Sign::unknown) {
          unknown_at_zero += at == 0 ? 1 : 0;
          continue;
        }
        ASSERT_EQ(claimed == kds::Sign::positive ? 1 : -1, sgn(f.certificate.exact_value_at(x)))
            << "trial " << trial << ": the expansion " << from << " ulps from T claims a sign " << at << " ulps from it";
        ++claimed_signs;
      }
  }
  std::cout << claimed_signs << " signs claimed and checked exactly; " << unknown_at_zero << " left unknown at T\n";
  EXPECT_GT(claimed_signs, 50000u);
}

TEST(HardSphereEventTimes, ReviewedExtremesAnswerAsTheExactRoot) {
  // Found by review, each with the exact first root as the judge:
  // - a root more than the largest double after t0 (t0 near -1e308): the first tests'
  //   lower bound on it overflowed to infinity, was rounded down to the largest double and
  //   answered "later than the bound", though the root comes before it;
  // - velocities differing by about 1e-155, far apart: A = V.V underflows, its error bound
  //   had no floor, and the pair was "passing by" although it meets.
  using kds::hard_spheres::Kinematics;
  using kds::hard_spheres::Window;
  struct Case {
    const char* what;
    Kinematics a, b;
    double r, bound;
  };
  const double t0 = -0x1.c7b1f3cac7433p+1019;
  const std::vector<Case> cases{
      {"a root beyond the largest double",
       {{0, 0, 0}, {0, 0, 0}, t0},
       {{0x1.7dddf6b095ff1p+511, 0, 0}, {-0x1.7bb60d2054fc8p-514, 0, 0}, t0},
       0x1.7dddf6b095ff1p+509,
       0x1.f26aa2a5c9f18p+1023},
      {"velocities differing by 1e-155",
       {{0, 0, 0}, {0, 0, 0}, 0},
       {{0x1p+41, 0, 0}, {-0x1.9be76c8b43958p-531, 0x1.dba0327fdc3eap-532, 0}, 0},
       0x1p+39,
       kds::hard_spheres::never},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const kds::hard_spheres::PairFunction f(c.a, c.r, c.b, c.r, 0);
    const kds::Root exact = kds::hard_spheres::pair_root(f, std::max(c.a.start, c.b.start));
    ASSERT_FALSE(exact.is_infinite());
    ASSERT_LT(kds::compare(exact, kds::Root::at(c.bound)), 0) << "the case must fail before its bound";
    kds::hard_spheres::Magnitudes magnitudes{0, 0};
    magnitudes.include(c.a);
    magnitudes.include(c.b);
    for (const bool with_magnitudes : {false, true}) {
      kds::hard_spheres::TimeCounters counters;
      const Window w = with_magnitudes ? kds::hard_spheres::pair_window(c.a, c.r, c.b, c.r, 0, c.bound, counters, magnitudes)
                                       : kds::hard_spheres::pair_window(c.a, c.r, c.b, c.r, 0, c.bound, counters);
      ASSERT_TRUE(w.fails()) << (with_magnitudes ? "with" : "without") << " magnitudes";
      EXPECT_EQ(kds::hard_spheres::pair_instant(c.a, c.r, c.b, c.r, 0, w, counters), kds::ceil_to_double(exact));
    }
  }
}

/// MotionPair's centre and radius only: BoundSeparation builds its generic function.
struct GenericMotionPair {
  kds::hard_spheres::MotionPair pair;
  template <class NT>
  kds::Polynomial<NT> centre(kds::BodyId id, int axis, double origin) const {
    return pair.centre<NT>(id, axis, origin);
  }
  template <class NT>
  kds::Polynomial<NT> radius(kds::BodyId id, double origin) const {
    return pair.radius<NT>(id, origin);
  }
  void separation_failed(kds::BoundSeparation<GenericMotionPair>&, kds::Simulator&) {}
};

template <class NT>
bool same_number(const NT& a, const NT& b) {
  if constexpr (std::is_same_v<NT, kds::Interval>)
    return std::bit_cast<std::uint64_t>(a.lo()) == std::bit_cast<std::uint64_t>(b.lo()) &&
           std::bit_cast<std::uint64_t>(a.hi()) == std::bit_cast<std::uint64_t>(b.hi());
  else
    return a == b;
}

/// The pair certificate's function against the generic one: exactly, bit for bit; in
/// intervals (BoundSeparation's bounded doubles), the same degree and enclosures of the
/// exact coefficients.
void expect_same_pair_function(const kds::hard_spheres::PairFunction& f, double origin) {
  const GenericMotionPair generic{f.owner};
  const kds::BoundSeparation<GenericMotionPair> twin(const_cast<GenericMotionPair&>(generic), kds::BodyId{0, 0},
                                                     kds::BodyId{1, 0}, "collision", 0, f.certificate.allowance());
  const kds::Polynomial<kds::Rational> p = twin.function<kds::Rational>(origin), q = f.certificate.function<kds::Rational>(origin);
  ASSERT_EQ(p.degree(), q.degree());
  for (int i = 0; i <= p.degree(); ++i) EXPECT_TRUE(same_number(p[i], q[i])) << "coefficient " << i;
  const kds::Polynomial<kds::Interval> pi = twin.function<kds::Interval>(origin), qi = f.certificate.function<kds::Interval>(origin);
  ASSERT_EQ(pi.degree(), qi.degree());
  // (Intervals may not prove a leading coefficient zero that is: then they keep it.)
  ASSERT_GE(qi.degree(), p.degree());
  for (int i = 0; i <= qi.degree(); ++i) {
    const kds::Rational exact = i <= p.degree() ? p[i] : kds::Rational(0);
    EXPECT_LE(kds::Rational(qi[i].lo()), exact) << "coefficient " << i;
    EXPECT_GE(kds::Rational(qi[i].hi()), exact) << "coefficient " << i;
  }
}

TEST(HardSphereEventTimes, PairFunctionIsTheGenericOne) {
  // The pair certificate of the hard-sphere path builds its function on the stack
  // (BoundSeparation's fast path for linear centres); the exact path must see the
  // collision world's function bit for bit, and the intervals must enclose it. (The
  // collision world builds the same certificate: its intervals are these, bit for bit.)
  // Random ballistic pairs (starts, origins, allowances) and degenerate ones (at rest,
  // equal velocities, one axis, origin at a start), in intervals and exactly.
  std::mt19937_64 rng(kds::testing::test_seed());
  std::uniform_real_distribution<double> pos(-100, 100), vel(-3, 3), when(0, 10), rad(0.01, 5);
  using kds::hard_spheres::Kinematics;
  auto check = [](const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance, double origin) {
    const kds::hard_spheres::PairFunction f(a, ra, b, rb, allowance);
    expect_same_pair_function(f, origin);
  };
  for (int i = 0; i < 500; ++i) {
    const Kinematics a{{pos(rng), pos(rng), pos(rng)}, {vel(rng), vel(rng), vel(rng)}, when(rng)};
    const Kinematics b{{pos(rng), pos(rng), pos(rng)}, {vel(rng), vel(rng), vel(rng)}, when(rng)};
    const double allowance = i % 3 == 0 ? 0 : std::ldexp(when(rng), -40);
    check(a, rad(rng), b, rad(rng), allowance, std::max(a.start, b.start) + (i % 2 == 0 ? 0 : when(rng)));
  }
  check({{0, 0, 0}, {0, 0, 0}, 0}, 0.5, {{1, 0, 0}, {0, 0, 0}, 0}, 0.5, 0, 0);
  check({{0, 0, 0}, {0.1, -3, 7}, 0.5}, 1, {{0.3, 1.1, 0.2}, {0.1, -3, 7}, 0.25}, 2, 1e-12, 0.5);
  check({{0, 0, 0}, {1, 0, 0}, 0}, 0.5, {{3, 0, 0}, {-1, 0, 0}, 0}, 0.5, 0, 0.75);
  check({{1e8, 0, 0}, {1, 0, 0}, 1e3}, 0.5, {{1e8 + 3, 0, 0}, {-1, 0, 0}, 0}, 0.5, 0, 1e3 + 0.1);
}

TEST(HardSphereEventTimes, PairValueAndSlopeAreTheFunctionsBitForBit) {
  // The allowance of a pair left touching reads the first two coefficients of its
  // function's interval polynomial: pair_value_and_slope computes just those, and must give
  // them bit for bit (the collision world computes the same allowance from the whole
  // polynomial). Random pairs at their later start and later, degenerate ones: at rest, a
  // sphere at the origin, equal velocities (a constant difference on every axis), motion on
  // one axis (zero lines), a zero radius, starts after the origin's double.
  std::mt19937_64 rng(kds::testing::test_seed());
  std::uniform_real_distribution<double> pos(-100, 100), vel(-3, 3), when(0, 10), rad(0.01, 5);
  using kds::hard_spheres::Kinematics;
  int checked = 0;
  auto check = [&](const Kinematics& a, double ra, const Kinematics& b, double rb, double origin) {
    const kds::hard_spheres::PairFunction f(a, ra, b, rb, 0);
    const kds::Polynomial<kds::Interval> p = f.certificate.interval_polynomial(origin);
    const kds::hard_spheres::ValueAndSlope got = kds::hard_spheres::pair_value_and_slope(a, ra, b, rb, origin);
    const kds::Interval slope = p.degree() >= 1 ? p[1] : kds::Interval(0.0);
    EXPECT_TRUE(same_number(p[0], got.value)) << "value " << p[0] << " against " << got.value << " at " << origin;
    EXPECT_TRUE(same_number(slope, got.slope)) << "slope " << slope << " against " << got.slope << " at " << origin;
    ++checked;
  };
  for (int i = 0; i < 2000; ++i) {
    const Kinematics a{{pos(rng), pos(rng), pos(rng)}, {vel(rng), vel(rng), vel(rng)}, when(rng)};
    Kinematics b{{pos(rng), pos(rng), pos(rng)}, {vel(rng), vel(rng), vel(rng)}, when(rng)};
    if (i % 5 == 1) b.v = a.v;                 // equal velocities
    if (i % 5 == 2) b.v[i % 3] = a.v[i % 3];   // one axis constant
    if (i % 7 == 3) b.p = a.p;                 // same start positions
    const double t0 = std::max(a.start, b.start);
    check(a, rad(rng), b, rad(rng), i % 2 == 0 ? t0 : t0 + when(rng));
  }
  check({{0, 0, 0}, {0, 0, 0}, 0}, 0.5, {{1, 0, 0}, {0, 0, 0}, 0}, 0.5, 0);
  check({{0, 0, 0}, {0, 0, 0}, 0}, 0.5, {{0, 0, 0}, {0, 0, 0}, 0}, 0.5, 0);
  check({{0, 0, 0}, {1, 0, 0}, 0}, 0.5, {{3, 0, 0}, {-1, 0, 0}, 0}, 0.5, 0.75);
  check({{0, 0, 0}, {1, 0, 0}, 0}, 0, {{2, 0, 0}, {1, 0, 0}, 0}, 0, 1);
  check({{0, 0, 0}, {0, 0, 0}, 0}, 0, {{0, 0, 0}, {0, 0, 0}, 0}, 0, 0);
  check({{0.1, 0.2, 0.3}, {0.1, -3, 7}, 0.5}, 1, {{0.3, 1.1, 0.2}, {0.1, -3, 7}, 0.25}, 2, 0.5);
  check({{1e8, 0, 0}, {1, 0, 0}, 1e3}, 0.5, {{1e8 + 3, 0, 0}, {-1, 0, 0}, 0}, 0.5, 1e3 + 0.1);
  check({{1, 2, 3}, {0, 0, 1e-300}, 0}, 1, {{3, 2, 3}, {0, 0, -1e-300}, 0}, 1, 1e300);
  // Speeds whose squares overflow the bounded doubles: the interval path's fallback, with
  // its sums that copy a missing side's coefficients (one radius zero, axes at rest).
  check({{0, 0, 0}, {1e200, 0, 0}, 0}, 0.5, {{-1, 0, 0}, {0, 0, 0}, 0}, 0.5, 0);
  check({{0, 0, 0}, {1e200, 0, 0}, 0}, 0, {{-1, 0, 0}, {0, 0, 0}, 0}, 0.5, 0);
  check({{0, 0, 0}, {1e200, 0, 0}, 0}, 0, {{-1, 5, 0}, {0, 0, 0}, 0}, 0, 0);
  EXPECT_EQ(checked, 2011);
}

TEST(HardSphereWorld, SpheresAtRestNeedNoExactPath) {
  // A bullet through a slab of spheres at rest (kds generate bullet-through-paper): most
  // pairs a sphere is asked about are two spheres at rest, whose failure the doubles
  // decide ("never") exactly. Before that, two thirds of the failure times took the
  // exact path. The same contacts as all-pairs.
  std::vector<Sphere> spheres{ball({20, 4.3, 4.45}, {64, 0, 0}, 0.125, 100)};
  for (int layer = 0; layer < 2; ++layer)
    for (int y = 0; y < 8; ++y)
      for (int z = 0; z < 8; ++z)
        spheres.push_back(ball({32 + 1.015625 * layer, 0.5078125 + 1.015625 * y, 0.5078125 + 1.015625 * z}, {0, 0, 0},
                               0.5, 1));
  const auto s = settings_for(Box3{{0, 0, 0}, {48, 8.125, 8.125}});
  kds::HardSphereWorld world(s, spheres);
  world.run_until(1);
  kds::SimulatorSettings ss;
  ss.audit = false;
  kds::Simulator sim(ss);
  kds::CollisionWorld reference_world(sim, s, spheres);
  sim.run_until(1);
  ASSERT_GE(world.contacts().size(), 5u);
  expect_identical(reference_world.contacts(), world.contacts());
  const auto& t = world.stats().times;
  std::cout << world.contacts().size() << " contacts, " << t.pair_tests + t.wall_tests << " failure times, "
            << t.exact_fallbacks << " exact fallbacks\n";
  EXPECT_GT(t.pair_tests, 1000u);
  EXPECT_LE(t.exact_fallbacks * 100, t.pair_tests + t.wall_tests);
}

TEST(HardSphereWorld, RejectsWhatTheCollisionWorldRejectsWithTheSameMessages) {
  const Box3 box{{0, 0, 0}, {10, 10, 10}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Bad {
    std::vector<Sphere> spheres;
    kds::CollisionWorldSettings settings;
  };
  auto good = [&] { return std::vector<Sphere>{ball({2, 2, 2}, {1, 0, 0}), ball({6, 6, 6}, {0, 1, 0})}; };
  std::vector<Bad> corpus;
  auto with = [&](auto change) {
    Bad b{good(), settings_for(box)};
    change(b);
    corpus.push_back(b);
  };
  with([&](Bad& b) { b.spheres[1].position[0] = nan; });
  with([&](Bad& b) { b.spheres[0].velocity[2] = std::numeric_limits<double>::infinity(); });
  with([&](Bad& b) { b.spheres[1].radius = 0; });
  with([&](Bad& b) { b.spheres[0].radius = -1; });
  with([&](Bad& b) { b.spheres[1].mass = 0; });
  with([&](Bad& b) { b.spheres[0].mass = nan; });
  with([&](Bad& b) { b.spheres[1].position = {2.5, 2, 2}; });  // overlap
  with([&](Bad& b) { b.spheres[0].position = {0.5, 2, 2}; });  // through a wall
  with([&](Bad& b) { b.spheres[0].position = {20, 2, 2}; });   // outside the box
  with([&](Bad& b) { b.settings.box.hi[1] = 0; });
  with([&](Bad& b) { b.settings.restitution = 1.5; });
  with([&](Bad& b) { b.settings.contact_tolerance = -1; });
  with([&](Bad& b) { b.spheres[1].max_acceleration = 1; });  // unknown trajectory, no probe
  // Overlaps the hard-sphere path finds over its own cells before it asks the full
  // validation, which names the pair: in a lattice of 125 (one sphere moved onto its
  // neighbour), with several overlapping pairs of different radii (the pair reported is
  // the validation's first), overlapping by one ulp of the distance, and an overlap
  // together with a bad sphere of higher index (the sphere is reported first).
  const kds::bench::LatticeScene lattice = kds::bench::lattice_spheres(125, 0.3, 7);
  auto in_lattice = [&](auto change) {
    Bad b{lattice.spheres, settings_for(lattice.box)};
    change(b);
    corpus.push_back(b);
  };
  in_lattice([&](Bad& b) { b.spheres[60].position[2] = b.spheres[61].position[2] - 1.5; });
  in_lattice([&](Bad& b) {
    b.spheres[10].position = b.spheres[11].position;
    b.spheres[10].position[0] += 0.3;
    b.spheres[10].radius = 0.5;
    b.spheres[90].position[1] = b.spheres[95].position[1] - 1.9;
  });
  in_lattice([&](Bad& b) {
    b.spheres[30].position[0] += 0.7;
    b.spheres[124].mass = -1;
  });
  with([&](Bad& b) {
    b.spheres[1].position = {2, 2, std::nextafter(4.0, 0.0)};  // distance 2 - ulp < 2
  });
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    SCOPED_TRACE("bad scene " + std::to_string(i));
    std::string world_message, fast_message;
    try {
      kds::Simulator sim;
      kds::CollisionWorld w(sim, corpus[i].settings, corpus[i].spheres);
    } catch (const kds::InvalidInput& e) {
      world_message = e.what();
    }
    try {
      kds::HardSphereWorld w(corpus[i].settings, corpus[i].spheres);
    } catch (const kds::InvalidInput& e) {
      fast_message = e.what();
    }
    EXPECT_FALSE(world_message.empty());
    EXPECT_EQ(world_message, fast_message);
  }
  // Accepted by both: touching exactly, and apart by one ulp (the double test cannot
  // decide these; the exact one does).
  for (double z : {4.0, std::nextafter(4.0, 5.0)}) {
    const std::vector<Sphere> touching{ball({2, 2, 2}, {1, 0, 0}), ball({2, 2, z}, {0, 1, 0})};
    kds::Simulator sim;
    EXPECT_NO_THROW(kds::CollisionWorld(sim, settings_for(box), touching));
    EXPECT_NO_THROW(kds::HardSphereWorld(settings_for(box), touching));
  }
  // What only the hard-sphere path refuses: gravity, unknown trajectories (with a probe)
  // and polytopes (which the collision world takes), each message naming the structure as
  // the user typed it, "hard-spheres", never the class.
  auto refusal = [](const kds::CollisionWorldSettings& s, const std::vector<Sphere>& spheres) -> std::string {
    try {
      kds::HardSphereWorld w(s, spheres);
    } catch (const kds::InvalidInput& e) {
      return e.what();
    }
    return "accepted";
  };
  auto s = settings_for(box);
  s.gravity = {0, 0, -1};
  const std::vector<Sphere> dice{kds::polytope_body(kds::ConvexPolytope::cube(0.5), {2, 2, 2}, {1, 0, 0}),
                                 kds::polytope_body(kds::ConvexPolytope::cube(0.5), {6, 6, 6}, {0, 1, 0})};
  const std::string gravity = refusal(s, good()), polytope = refusal(settings_for(box), dice);
  EXPECT_EQ(gravity.rfind("hard-spheres: gravity must be 0", 0), 0u) << gravity;
  EXPECT_NE(polytope.find("object 0: is a convex polytope; hard-spheres takes spheres only"), std::string::npos) << polytope;
  for (const std::string& m : {gravity, polytope}) EXPECT_EQ(m.find("HardSphereWorld"), std::string::npos) << m;
}

TEST(HardSphereWorld, MovedInputIsReleasedAndGivesTheSameRun) {
  // The constructor taking the spheres by rvalue empties them (so that they do not sit
  // beside the world in memory) and runs exactly as the one that copies them; bad input
  // gets the same message.
  const kds::bench::LatticeScene scene = kds::bench::lattice_spheres(125, 0.35, kds::testing::test_seed());
  const auto s = settings_for(scene.box);
  kds::HardSphereWorld copied(s, scene.spheres);
  std::vector<Sphere> given = scene.spheres;
  kds::HardSphereWorld moved(s, std::move(given));
  EXPECT_TRUE(given.empty());
  EXPECT_EQ(given.capacity(), 0u);
  while (copied.contacts().size() < 400 && copied.step()) ASSERT_TRUE(moved.step());
  ASSERT_EQ(copied.contacts().size(), moved.contacts().size());
  expect_identical(copied.contacts(), moved.contacts());
  EXPECT_EQ(copied.now(), moved.now());
  std::vector<Sphere> bad = scene.spheres;
  bad[3].radius = -1;
  std::string copied_message, moved_message;
  try {
    kds::HardSphereWorld w(s, bad);
  } catch (const kds::InvalidInput& e) {
    copied_message = e.what();
  }
  try {
    kds::HardSphereWorld w(s, std::move(bad));
  } catch (const kds::InvalidInput& e) {
    moved_message = e.what();
  }
  EXPECT_FALSE(copied_message.empty());
  EXPECT_EQ(copied_message, moved_message);
}


TEST(HardSphereWorld, ASphereHitFromBothSidesAtOnceKeepsBothAllowances) {
  // Two spheres meet a third one at rest from opposite sides at (nearly) the same exact
  // time, far from t = 0, where the instant (the double at or after it) leaves the pairs
  // overlapping by up to speed * ulp(t): the middle sphere then holds an allowance with
  // each of them at once. The audit after every event checks that every stored allowance
  // is found (the spheres' marks); the contacts are the all-pairs reference's.
  const kds::CollisionWorldSettings settings = settings_for(Box3{{0, 0, 0}, {400, 40, 40}});
  for (double gap : {100.3, 77.7, 123.45, 31.4159})
    for (double v : {1e-4, 3.3e-5, 1.7e-3}) {
      SCOPED_TRACE("gap " + std::to_string(gap) + ", speed " + std::to_string(v));
      const std::vector<Sphere> spheres{ball({200 - 2 - gap, 10, 10}, {v, 0, 0}), ball({200, 10, 10}, {0, 0, 0}),
                                        ball({200 + 2 + gap, 10, 10}, {-v, 0, 0})};
      compare(spheres, settings, 12, true);
    }
}

}  // namespace
