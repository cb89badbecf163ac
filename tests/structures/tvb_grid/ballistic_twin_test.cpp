// Ballistic mode: the grid ("tvb-grid") against its brute-force twin ("all-pairs") on
// random and on purposely degenerate scenes, bit for bit;
// audits on small scenes; contact times against an independent exact computation; and
// the floating-point-only mode against the filtered one.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision_world_support.hpp"
#include "structures/collision/response.hpp"
#include "structures/tvb_grid/tvb_grid.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

const Vec<3> kGravity{0, 0, -9.81};

// ---------------------------------------------------------------- random scenes

using RandomCase = TwinCase;

class RandomTwins : public ::testing::TestWithParam<RandomCase> {};

TEST_P(RandomTwins, GridReproducesAllPairsExactly) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  expect_twins_on_random_scenes(rng, seed, GetParam(), "tvb-grid");
}

INSTANTIATE_TEST_SUITE_P(
    Scenes, RandomTwins,
    ::testing::Values(
        RandomCase{"n20_equal_elastic", {20, 20, 1, 1, 10, 1, 1}, false, 1.0, 20},
        RandomCase{"n100_spread_elastic", {100, 60, 0.3, 4, 10, 0.5, 4}, false, 1.0, 6},
        RandomCase{"n300_spread_elastic", {300, 60, 0.2, 3, 10, 1, 10}, false, 1.0, 1.5},
        RandomCase{"n60_gravity_elastic", {60, 40, 0.5, 2, 8, 1, 3}, true, 1.0, 4},
        RandomCase{"n80_inelastic", {80, 40, 0.5, 2, 10, 1, 2}, false, 0.8, 5},
        // Gravity with restitution < 1 has a Zeno point: a sphere coming to rest on the floor
        // bounces ever faster (the world has no resting contact), so keep this run short.
        RandomCase{"n40_gravity_inelastic", {40, 20, 0.5, 2, 8, 1, 2}, true, 0.9, 1.0}),
    [](const ::testing::TestParamInfo<RandomCase>& i) { return std::string(i.param.name); });

// Small scenes with audits after every event: bounds inside registered cells, every
// close pair certified, no overlap beyond the tolerance, every certificate valid.
TEST(BallisticAudit, SmallRandomScenesPassEveryAudit) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  SimulatorSettings audited;
  audited.audit = true;
  for (int scene = 0; scene < 6; ++scene) {
    SCOPED_TRACE("scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
    SceneSpec spec{12, 12, 0.4, 1.5, 6, 1, 3};
    const auto spheres = random_scene(rng, spec);
    // Gravity only with restitution 1 here: inelastic bounces under gravity approach a Zeno
    // point as a sphere settles on the floor, and every one of those events is audited.
    const bool gravity = scene % 2 == 1 && scene < 4;
    const double e = scene >= 4 ? 0.85 : 1.0;
    auto settings = world_settings(cube(spec.box), "tvb-grid", e, gravity ? kGravity : Vec<3>{});
    TwinResult r;
    ASSERT_NO_THROW(r = run_twins(spheres, settings, 3.0, audited));
    EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
    EXPECT_GT(r.tested.size(), 5u);
  }
}

// Random scenes whose spheres start on cell faces, touching cell faces, and move along
// them: the grid's degenerate cases, audited.
TEST(BallisticDegenerate, RandomSpheresSnappedToCellFaces) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const Box3 box = cube(30);
  const double r_small = 0.5, r_large = 1.25;
  // A world with the extreme radii only, to read the grid a scene with these radii gets.
  auto settings = world_settings(box, "tvb-grid");
  settings.cell_ratio = 3;
  std::vector<Sphere> extremes(2);
  extremes[0].position = {2, 2, 2};
  extremes[0].radius = r_small;
  extremes[1].position = {20, 20, 20};
  extremes[1].radius = r_large;
  WorldRun probe(extremes, settings);
  const HierarchicalGrid& grid = *dynamic_cast<const TvbGrid&>(probe.world->broad_phase()).grid();
  SimulatorSettings audited;
  audited.audit = true;
  for (int scene = 0; scene < 4; ++scene) {
    SCOPED_TRACE("scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
    std::vector<Sphere> spheres = extremes;
    int attempts = 0;
    while (spheres.size() < 40 && ++attempts < 100000) {
      Sphere s;
      s.radius = u(rng) < 0.5 ? r_small : r_large;
      const int level = grid.level_for(s.radius, probe.world->cell_ratio());
      for (int k = 0; k < 3; ++k) {
        const double x = s.radius + (box.hi[k] - 2 * s.radius) * u(rng);
        const auto i = static_cast<std::int32_t>(std::floor((x - grid.plane(level, k, 0)) / grid.side(level)));
        const double p = grid.plane(level, k, i + static_cast<std::int32_t>(rng() % 2));
        switch (rng() % 4) {
          case 0: s.position[k] = p; break;             // centre on the face
          case 1: s.position[k] = p + s.radius; break;  // touching the face from above
          case 2: s.position[k] = p - s.radius; break;  // touching it from below
          default: s.position[k] = x;
        }
        // Some components zero: moving along the face it touches.
        s.velocity[k] = rng() % 3 == 0 ? 0.0 : 8 * (2 * u(rng) - 1);
      }
      bool ok = true;
      for (int k = 0; k < 3; ++k)
        ok = ok && s.position[k] - s.radius >= box.lo[k] && s.position[k] + s.radius <= box.hi[k];
      for (const Sphere& t : spheres) {
        Vec<3> d{s.position[0] - t.position[0], s.position[1] - t.position[1], s.position[2] - t.position[2]};
        ok = ok && norm3(d) > (s.radius + t.radius) * (1 + 1e-9);
      }
      if (ok) spheres.push_back(s);
    }
    ASSERT_EQ(spheres.size(), 40u);
    TwinResult r;
    ASSERT_NO_THROW(r = run_twins(spheres, settings, 2.5, audited));
    EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
    EXPECT_GT(r.tested.size(), 10u);
  }
}

// Same input, same contacts: twice in a row, and with the reference event queue (a scan
// for the minimum) instead of the heap.
TEST(BallisticDeterminism, SameContactsTwiceAndWithTheReferenceQueue) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const auto spheres = random_scene(rng, SceneSpec{80, 30, 0.3, 2, 10, 1, 3});
  const auto settings = world_settings(cube(30), "tvb-grid", 1.0, kGravity);
  SimulatorSettings reference;
  reference.queue = QueueKind::reference;
  WorldRun first(spheres, settings), second(spheres, settings), slow(spheres, settings, reference);
  ASSERT_TRUE(first.run_until(3));
  ASSERT_TRUE(second.run_until(3));
  ASSERT_TRUE(slow.run_until(3));
  EXPECT_GT(first.contacts().size(), 100u);
  EXPECT_TRUE(same_contacts(first.contacts(), second.contacts()));
  EXPECT_TRUE(same_contacts(first.contacts(), slow.contacts()));
}

// ---------------------------------------------------------------- degenerate scenes, by hand

/// Both broad phases, audited, the same contacts; returns them.
std::vector<Contact> twins(const std::vector<Sphere>& spheres, double t_end, double restitution = 1.0,
                           Vec<3> gravity = {0, 0, 0}, double box = 100) {
  SimulatorSettings audited;
  audited.audit = true;
  TwinResult r;
  EXPECT_NO_THROW(r = run_twins(spheres, world_settings(cube(box), "tvb-grid", restitution, gravity), t_end, audited));
  EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
  return r.tested;
}

TEST(BallisticDegenerate, SimultaneousCollisionsInTieKeyOrder) {
  EXPECT_TRUE(same_contacts(twins(simultaneous_contacts_scene(), 4.5), simultaneous_contacts_expected()));
}

TEST(BallisticDegenerate, FourSpheresConvergingMeetPairwiseAtAnIrrationalTime) {
  // Adjacent spheres of the square touch when sqrt(2) (10 - t) = 2: t = 10 - sqrt(2),
  // four pairs at exactly the same (irrational) time.
  const std::vector<Sphere> s{ball({60, 50, 50}, {-1, 0, 0}), ball({50, 60, 50}, {0, -1, 0}),
                              ball({40, 50, 50}, {1, 0, 0}), ball({50, 40, 50}, {0, 1, 0})};
  const auto c = twins(s, 30);
  ASSERT_GE(c.size(), 2u);
  EXPECT_FALSE(c[0].with_wall);
  // ceil(10 - sqrt 2), exactly: 10 - T <= sqrt 2 < 10 - prev(T).
  const Rational T(c[0].time), prev(std::nextafter(c[0].time, 0.0));
  EXPECT_LE(Rational((10 - T) * (10 - T)), 2) << describe(c[0]);
  EXPECT_GT(Rational((10 - prev) * (10 - prev)), 2) << describe(c[0]);
  // The sequence after the first contact is fixed by the tie keys: pair (0, 1) first.
  EXPECT_EQ(c[0].a, 0u);
  EXPECT_EQ(c[0].b, 1u);
}

TEST(BallisticDegenerate, ThreeSpheresMeetAtOnePointAtOnce) {
  // Centres at (50,50,50) + 3 e_k moving to the centroid: by symmetry under permutation of
  // the axes, the three pairs touch at exactly t = 1 - 2 / (3 sqrt 2).
  const std::vector<Sphere> three{ball({53, 50, 50}, {-2, 1, 1}), ball({50, 53, 50}, {1, -2, 1}),
                                  ball({50, 50, 53}, {1, 1, -2})};
  const auto c3 = twins(three, 30);
  ASSERT_GE(c3.size(), 2u);
  EXPECT_NEAR(c3[0].time, 1 - 2 / (3 * std::sqrt(2.0)), 1e-15);
  // And four spheres at the vertices of a regular tetrahedron: six pairs at once.
  const std::vector<Sphere> four{ball({52, 52, 52}, {-1, -1, -1}), ball({52, 48, 48}, {-1, 1, 1}),
                                 ball({48, 52, 48}, {1, -1, 1}), ball({48, 48, 52}, {1, 1, -1})};
  const auto c4 = twins(four, 30);
  ASSERT_GE(c4.size(), 2u);
  EXPECT_NEAR(c4[0].time, 2 - 1 / std::sqrt(2.0), 1e-14);
  // Nearly symmetric: an equilateral triangle rounded to doubles, whose contact times
  // differ by a few ulps only (exact comparisons decide their order).
  std::vector<Sphere> tri;
  for (int i = 0; i < 3; ++i) {
    const double a = 2 * M_PI * i / 3 + 0.1;
    tri.push_back(ball({50 + 5 * std::cos(a), 50 + 5 * std::sin(a), 50}, {-std::cos(a), -std::sin(a), 0}));
  }
  const auto ct = twins(tri, 30);
  EXPECT_GE(ct.size(), 2u);
}

TEST(BallisticDegenerate, GrazingContactsAreNotCollisions) {
  // 3's path is (30 + 3t, 10 + 4t), through (60, 50) at t = 10; 4 sits at (60, 50) + (4, -3),
  // perpendicular to the path at distance exactly 5 = 2.5 + 2.5.
  const std::vector<Sphere> s{
      ball({10, 50, 50}, {5, 0, 0}), ball({50, 52, 50}, {0, 0, 0}),            // 0 grazes 1: closest distance exactly 2
      ball({10, 30, 99}, {5, 0, 0}),                                           // 2 slides along the ceiling, touching it
      ball({30, 10, 10}, {3, 4, 0}, 2.5), ball({64, 47, 10}, {0, 0, 0}, 2.5),  // 3 grazes 4 along a 3-4-5 direction
  };
  const auto c = twins(s, 12);
  EXPECT_TRUE(c.empty()) << describe(c.front());
  // An ulp closer is a collision, an ulp further is not.
  for (double y : {std::nextafter(52.0, 0.0), std::nextafter(52.0, 100.0)}) {
    std::vector<Sphere> h{ball({10, 50, 50}, {5, 0, 0}), ball({50, y, 50}, {0, 0, 0})};
    const auto ch = twins(h, 12);
    EXPECT_EQ(ch.size(), y < 52 ? 1u : 0u) << "y = " << y;
  }
}

TEST(BallisticDegenerate, TouchingWallsAtTheStart) {
  const std::vector<Sphere> s{
      ball({1, 50, 50}, {-1, 0, 0}),   // into the low x wall: contact at t = 0
      ball({99, 20, 50}, {1, 0, 0}),   // into the high x wall: contact at t = 0
      ball({1, 80, 50}, {1, 0, 0}),    // away from it: no contact
      ball({50, 1, 30}, {1, 0, 0}),    // along it
      ball({1, 1, 1}, {-1, -1, -1}),   // in a corner, into three walls at once
  };
  const auto c = twins(s, 0.5);
  const std::vector<Contact> expected{wall_contact(0, 0, Wall::x_lo), wall_contact(0, 1, Wall::x_hi),
                                      wall_contact(0, 4, Wall::x_lo), wall_contact(0, 4, Wall::y_lo),
                                      wall_contact(0, 4, Wall::z_lo)};
  EXPECT_TRUE(same_contacts(c, expected));
}

TEST(BallisticDegenerate, TouchingEachOtherAtTheStart) {
  const auto c = twins(touching_at_start_scene(), 0.5);
  const std::vector<Contact> expected{pair_contact(0, 0, 1), pair_contact(0, 8, 9)};
  EXPECT_TRUE(same_contacts(c, expected));
}

TEST(BallisticDegenerate, NewtonsCradle) {
  // A striker (0) and five balls touching in a row (1..5).
  std::vector<Sphere> s{ball({10, 50, 50}, {1, 0, 0})};
  for (int i = 0; i < 5; ++i) s.push_back(ball({20 + 2.0 * i, 50, 50}, {0, 0, 0}));
  const auto c = twins(s, 50);
  ASSERT_EQ(c.size(), 5u);
  for (SphereId i = 0; i < 5; ++i) {
    EXPECT_FALSE(c[i].with_wall);
    EXPECT_EQ(c[i].a, i);
    EXPECT_EQ(c[i].b, i + 1);
    EXPECT_NEAR(c[i].time, 8, 1e-12);
    if (i > 0) EXPECT_GE(c[i].time, c[i - 1].time);
  }
  // The last ball leaves with the striker's velocity, the others stay at rest.
  WorldRun w(s, world_settings(cube(100), "tvb-grid"));
  ASSERT_TRUE(w.run_until(50));
  for (SphereId i = 0; i < 6; ++i) {
    const Vec<3> v = w.world->state(i, 50).velocity;
    EXPECT_EQ(v[0], i == 5 ? 1.0 : 0.0) << "sphere " << i;
  }
  // Masses differing: the sequence is still the same in both broad phases.
  for (std::size_t i = 0; i < s.size(); ++i) s[i].mass = 1 + 0.5 * double(i);
  twins(s, 120);
}

TEST(BallisticDegenerate, GravityBouncesAndRestingOnTheFloor) {
  const std::vector<Sphere> s{
      ball({20, 60, 30}, {0, 0, 0}),   // falling: bounces
      ball({20, 60, 10}, {0, 0, 0}),   // falling below it: the two fall together, then meet
      ball({50, 50, 50}, {3, 0, 2}),   // a parabola
      ball({50, 20, 99}, {0, 0, 0}),   // starts touching the ceiling, falls away from it
  };
  const auto c = twins(s, 6, 1.0, kGravity);
  EXPECT_GE(c.size(), 3u);
  for (const Contact& k : c) EXPECT_FALSE(k.with_wall && k.wall == Wall::z_hi) << describe(k);
}

// ---------------------------------------------------------------- exact contact times

/// The logged time of each contact is the smallest double >= the exact contact time of
/// the motions in force before it, computed here independently (closed form, rationals).
class ContactTimeChecker {
 public:
  explicit ContactTimeChecker(CollisionWorld& world) : world_(world) {}
  void operator()(const Contact& c) {
    ++checked_;
    // In the contact callback the bounds still hold the motions before the response.
    const Rational T(c.time), prev(std::nextafter(c.time, -INFINITY));
    if (c.with_wall) {
      const int k = wall_axis(c.wall);
      const bool low = wall_is_low(c.wall);
      const Motion<3>& m = world_.centre_motion(c.a);
      const Box3& box = world_.settings().box;
      const double allowance = wall_allowance(c.a, k, low);
      // g(t) = gap to the wall + allowance; a polynomial of degree <= 2 in t.
      auto g = [&](const Rational& t) {
        const Rational x = exact_coordinate(m, k, t);
        const Rational gap = low ? x - Rational(box.lo[k]) : Rational(box.hi[k]) - x;
        return Rational(gap - Rational(world_.sphere(c.a).radius) + Rational(allowance));
      };
      check(g, c, T, prev, m.start());
    } else {
      const Motion<3>& ma = world_.centre_motion(c.a);
      const Motion<3>& mb = world_.centre_motion(c.b);
      const double allowance = pair_allowance(c.a, c.b);
      const Rational R = Rational(world_.sphere(c.a).radius) + Rational(world_.sphere(c.b).radius);
      auto f = [&](const Rational& t) {
        Rational d2 = 0;
        for (int k = 0; k < 3; ++k) {
          const Rational d = exact_coordinate(ma, k, t) - exact_coordinate(mb, k, t);
          d2 += d * d;
        }
        return Rational(d2 - R * R + Rational(allowance));
      };
      check(f, c, T, prev, std::max(ma.start(), mb.start()));
    }
  }
  int checked() const { return checked_; }

 private:
  // The function is positive from the motions' start until its first root t*, and the
  // logged time T must be ceil(t*): f(T) <= 0 and f(prev(T)) > 0, with prev(T) >= start.
  // (Polynomials of degree <= 2 in t with f > 0 at the start: on [start, t*) f > 0, and
  // f(T) <= 0 puts T in [t*, t**].) f(prev) > 0 alone could mean prev > t**; the check
  // that f <= 0 on [T, T] and f > 0 at prev, with T - prev one ulp and f's two roots
  // farther apart than an ulp for an approaching pair, pins T = ceil(t*).
  template <class F>
  void check(F&& f, const Contact& c, const Rational& T, const Rational& prev, double start) {
    EXPECT_LE(sgn(f(T)), 0) << describe(c) << ": the exact function is still positive at the logged time";
    if (Rational(start) <= prev)
      EXPECT_GT(sgn(f(prev)), 0) << describe(c) << ": the contact happened before the logged time's predecessor";
    else
      EXPECT_EQ(T, Rational(start)) << describe(c);
  }
  double pair_allowance(SphereId a, SphereId b) const {
    if (const auto* p = world_.pair_certificate(a, b)) return p->allowance();
    ADD_FAILURE() << "no certificate for spheres " << a << " and " << b;
    return 0;
  }
  double wall_allowance(SphereId id, int axis, bool low) const {
    if (const auto* p = world_.wall_certificate(id, wall_of(axis, low))) return p->allowance();
    ADD_FAILURE() << "no wall certificate for sphere " << id;
    return 0;
  }
  CollisionWorld& world_;
  int checked_ = 0;
};

TEST(BallisticExactTimes, TwoSpheresMatchTheClosedForm) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int scene = 0; scene < 40; ++scene) {
    SCOPED_TRACE("scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
    const bool gravity = scene % 4 == 3;
    SceneSpec spec{2, 10, 0.5, 2, 7, 0.5, 3};
    const auto spheres = random_scene(rng, spec);
    for (const char* bp : {"tvb-grid", "all-pairs"}) {
      WorldRun w(spheres, world_settings(cube(spec.box), bp, 1.0, gravity ? kGravity : Vec<3>{}));
      ContactTimeChecker checker(*w.world);
      w.world->on_contact([&](const Contact& c) { checker(c); });
      // The first contact, from the given doubles, by the textbook formula as well.
      if (!gravity && std::string(bp) == "tvb-grid") {
        Vec<3> p, v;
        for (int k = 0; k < 3; ++k) {
          p[k] = spheres[0].position[k] - spheres[1].position[k];
          v[k] = spheres[0].velocity[k] - spheres[1].velocity[k];
        }
        const double R = spheres[0].radius + spheres[1].radius;
        const double a = dot3(v, v), b = dot3(p, v), cc = dot3(p, p) - R * R, disc = b * b - a * cc;
        w.run_until(50);
        const auto& cs = w.contacts();
        if (!cs.empty() && !cs.front().with_wall) {
          EXPECT_LT(b, 0);
          EXPECT_GT(disc, 0);
          EXPECT_NEAR(cs.front().time, (-b - std::sqrt(disc)) / a, 1e-9 * (1 + cs.front().time));
        }
      } else {
        w.run_until(50);
      }
      EXPECT_EQ(checker.checked(), static_cast<int>(w.contacts().size()));
      EXPECT_GT(w.contacts().size(), 20u);
    }
  }
}

// ---------------------------------------------------------------- floating vs filtered

TEST(FloatingMode, SameContactsOnGenericInput) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  SimulatorSettings floating;
  floating.exactness = Exactness::floating;
  std::size_t compared = 0, equal_times = 0;
  for (int scene = 0; scene < 4; ++scene) {
    SCOPED_TRACE("scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
    SceneSpec spec{60, 40, 0.5, 2, 10, 1, 3};
    const auto spheres = random_scene(rng, spec);
    const auto settings = world_settings(cube(spec.box), "tvb-grid", 1.0, scene % 2 ? kGravity : Vec<3>{});
    WorldRun exact(spheres, settings);
    WorldRun fp(spheres, settings, floating);
    ASSERT_TRUE(exact.run_until(3));
    ASSERT_TRUE(fp.run_until(3));
    // The floating mode computes roots in doubles, so its contact times may differ from
    // the exact ones by a few ulps (the filtered mode logs the smallest double >= the exact
    // time). A hard-sphere gas is chaotic: such a difference grows from contact to contact
    // until the two runs part. Compare up to the first contact that differs in its pair.
    const auto& a = exact.contacts();
    const auto& b = fp.contacts();
    ASSERT_GT(a.size(), 40u);
    std::size_t i = 0, same_time = 0;
    double worst = 0;
    for (; i < std::min(a.size(), b.size()); ++i) {
      if (a[i].a != b[i].a || a[i].with_wall != b[i].with_wall || (a[i].with_wall ? a[i].wall != b[i].wall : a[i].b != b[i].b))
        break;
      worst = std::max(worst, std::fabs(a[i].time - b[i].time) / (1 + a[i].time));
      same_time += a[i].time == b[i].time;
    }
    compared += i;
    equal_times += same_time;
    std::cout << "[ floating ] scene " << scene << ": " << i << " of " << a.size() << " contacts agree in pair and order ("
              << same_time << " at bit-identical times, worst relative time difference " << worst << ")\n";
    EXPECT_GE(i, std::min<std::size_t>(a.size(), 40));
    EXPECT_LT(worst, 1e-9);
  }
  std::cout << "[ floating ] " << equal_times << " of " << compared << " agreeing contacts at bit-identical times\n";
}

}  // namespace
}  // namespace kds::testing
