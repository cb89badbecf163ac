// Kinetic box overlap on degenerate scenes built on purpose, audited after every event and
// against all-pairs: simultaneous events, boxes tangent at the start, equal extremes that
// stay equal, events at time 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "collision_world_support.hpp"
#include "structures/box_overlap/box_overlap.hpp"

namespace kds::testing {
namespace {

/// A contact tolerance that is a power of two, so that box extremes are exact sums.
constexpr double kTolerance = 0x1p-20;

/// Both broad phases, audited: the same contacts; returns them.
std::vector<Contact> twins(const std::vector<Sphere>& spheres, double t_end, Vec<3> gravity = {0, 0, 0},
                           double box = 100, const char* name = "box-overlap") {
  SimulatorSettings audited;
  audited.audit = true;
  auto settings = world_settings(cube(box), name, 1.0, gravity);
  settings.contact_tolerance = kTolerance;
  TwinResult r;
  EXPECT_NO_THROW(r = run_twins(spheres, settings, t_end, audited, name));
  EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
  return r.tested;
}

/// The overlap set of a fresh world over these spheres.
struct Started {
  explicit Started(const std::vector<Sphere>& s) : run(s, settings()) {}
  static CollisionWorldSettings settings() {
    auto st = world_settings(cube(100), "box-overlap");
    st.contact_tolerance = kTolerance;
    return st;
  }
  const BoxOverlap& bo() const { return dynamic_cast<const BoxOverlap&>(run.world->broad_phase()); }
  WorldRun run;
};

TEST(BoxOverlapDegenerate, SimultaneousCollisionsInTieKeyOrder) {
  EXPECT_TRUE(same_contacts(twins(simultaneous_contacts_scene(), 4.5), simultaneous_contacts_expected()));
}

TEST(BoxOverlapDegenerate, TwoRowsWhoseBoxesAllStartOverlappingAtOnce) {
  // Two rows of equal spheres on the same y and z, one moving in +x and one in -x: every
  // box of one row meets the box of its partner at the same instant, and many extremes are
  // equal on y and z for the whole run. Then the rows collide pairwise, all at t = 4.
  std::vector<Sphere> s;
  for (int i = 0; i < 6; ++i) {
    s.push_back(ball({20, 10 + 12.0 * i, 50}, {1, 0, 0}));
    s.push_back(ball({30, 10 + 12.0 * i, 50}, {-1, 0, 0}));
  }
  const auto c = twins(s, 6);
  ASSERT_GE(c.size(), 6u);
  for (SphereId i = 0; i < 6; ++i) EXPECT_TRUE(same_contact(c[i], pair_contact(4, 2 * i, 2 * i + 1))) << describe(c[i]);
}

TEST(BoxOverlapDegenerate, FourSpheresConvergingMeetAtAnIrrationalTime) {
  const std::vector<Sphere> s{ball({60, 50, 50}, {-1, 0, 0}), ball({50, 60, 50}, {0, -1, 0}),
                              ball({40, 50, 50}, {1, 0, 0}), ball({50, 40, 50}, {0, 1, 0})};
  const auto c = twins(s, 30);
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c[0].a, 0u);
  EXPECT_EQ(c[0].b, 1u);
  // And the tetrahedron: six pairs at once.
  const std::vector<Sphere> four{ball({52, 52, 52}, {-1, -1, -1}), ball({52, 48, 48}, {-1, 1, 1}),
                                 ball({48, 52, 48}, {1, -1, 1}), ball({48, 48, 52}, {1, 1, -1})};
  const auto c4 = twins(four, 30);
  ASSERT_GE(c4.size(), 2u);
  EXPECT_NEAR(c4[0].time, 2 - 1 / std::sqrt(2.0), 1e-14);
}

TEST(BoxOverlapDegenerate, BoxesTangentAtTheStart) {
  // Radius 1 grown by 2^-20: boxes of spheres 2 + 2^-19 apart on x touch exactly.
  const double d = 2 + 2 * kTolerance;
  const std::vector<Sphere> s{
      ball({10, 10, 10}, {1, 0, 0}), ball({10 + d, 10, 10}, {-1, 0, 0}),  // approaching: overlap just after 0
      ball({10, 30, 10}, {-1, 0, 0}), ball({10 + d, 30, 10}, {1, 0, 0}),  // separating: apart
      ball({10, 50, 10}, {0, 1, 0}), ball({10 + d, 50, 10}, {0, 1, 0}),   // moving together: the tie stays
      ball({10, 70, 10}, {0, 0, 0}), ball({10 + d, 70 + d, 10}, {0, 0, 0}),  // corners touching, at rest
  };
  {
    const Started st(s);
    EXPECT_TRUE(st.bo().overlaps().contains(0, 1));
    EXPECT_FALSE(st.bo().overlaps().contains(2, 3));
    // Ties with the same future: either order is right, and stays right.
    const auto& o = st.bo().overlaps();
    EXPECT_EQ(o.size(), 1u + o.contains(4, 5) + o.contains(6, 7));
  }
  const auto c = twins(s, 1.0);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_FALSE(c[0].with_wall);
  EXPECT_EQ(c[0].a, 0u);
  EXPECT_EQ(c[0].b, 1u);
  EXPECT_NEAR(c[0].time, kTolerance, 1e-15);
}

TEST(BoxOverlapDegenerate, SpheresTouchingAtTheStartCollideAtTimeZero) {
  const std::vector<Sphere> s = touching_at_start_scene();
  const Started st(s);
  for (SphereId i = 0; i < 10; i += 2) EXPECT_TRUE(st.bo().overlaps().contains(i, i + 1)) << i;
  const auto c = twins(s, 0.5);
  EXPECT_TRUE(same_contacts(c, {pair_contact(0, 0, 1), pair_contact(0, 8, 9)}));
}

TEST(BoxOverlapDegenerate, TouchingWallsAtTheStart) {
  const std::vector<Sphere> s{ball({1, 50, 50}, {-1, 0, 0}), ball({99, 20, 50}, {1, 0, 0}), ball({1, 80, 50}, {1, 0, 0}),
                              ball({1, 1, 1}, {-1, -1, -1})};
  const auto c = twins(s, 0.5);
  EXPECT_TRUE(same_contacts(c, {wall_contact(0, 0, Wall::x_lo), wall_contact(0, 1, Wall::x_hi),
                                wall_contact(0, 3, Wall::x_lo), wall_contact(0, 3, Wall::y_lo),
                                wall_contact(0, 3, Wall::z_lo)}));
}

TEST(BoxOverlapDegenerate, EqualExtremesThatStayEqual) {
  // A column of spheres of radius 1 with the same x and vx (equal x extremes for ever),
  // spheres of radii 1 and 2 whose low y extremes coincide and move alike, and a ball
  // crossing them all.
  std::vector<Sphere> s;
  for (int i = 0; i < 5; ++i) s.push_back(ball({30, 20 + 6.0 * i, 50}, {2, 0, 0}));
  s.push_back(ball({60, 21, 30}, {0, 1, 0}, 2));  // low y extreme 19 (+- tolerance), like 0's
  s.push_back(ball({70, 20, 30}, {0, 1, 0}, 1));  // low y extreme 19 too
  s.push_back(ball({50, 40, 50}, {-3, -1, 0}));   // crosses the column
  s.push_back(ball({50, 50, 30}, {0, -3, 0}, 1.5));
  const auto c = twins(s, 20);
  EXPECT_GE(c.size(), 3u);
}

TEST(BoxOverlapDegenerate, NewtonsCradle) {
  std::vector<Sphere> s{ball({10, 50, 50}, {1, 0, 0})};
  for (int i = 0; i < 5; ++i) s.push_back(ball({20 + 2.0 * i, 50, 50}, {0, 0, 0}));
  const auto c = twins(s, 50);
  ASSERT_EQ(c.size(), 5u);
  for (SphereId i = 0; i < 5; ++i) EXPECT_EQ(c[i].b, i + 1);
}

TEST(BoxOverlapDegenerate, GravityBouncesAndSpheresFallingTogether) {
  const std::vector<Sphere> s{ball({20, 60, 30}, {0, 0, 0}), ball({20, 60, 10}, {0, 0, 0}), ball({50, 50, 50}, {3, 0, 2}),
                              ball({50, 20, 99}, {0, 0, 0})};
  const auto c = twins(s, 6, {0, 0, -9.81});
  EXPECT_GE(c.size(), 3u);
}

TEST(BoxOverlapDegenerate, AFlatSceneNeverSwapsOnZ) {
  // The world is 3D; a 2D scene is a flat one: every centre at z = 50, no z velocity.
  std::vector<Sphere> s;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      s.push_back(ball({10 + 14.0 * i, 10 + 14.0 * j, 50}, {std::cos(i + 7.0 * j), std::sin(i + 7.0 * j), 0},
                       1 + 0.1 * ((i + j) % 4)));
  const auto c = twins(s, 30);
  EXPECT_GT(c.size(), 20u);
  WorldRun w(s, Started::settings());
  ASSERT_TRUE(w.run_until(30));
  const auto& bo = dynamic_cast<const BoxOverlap&>(w.world->broad_phase());
  EXPECT_EQ(bo.list(2).swaps(), 0u);
  EXPECT_GT(bo.list(0).swaps() + bo.list(1).swaps(), 100u);
}

TEST(BoxOverlapDegenerate, TheTwoListVariantOnAFlatSceneKeepsTheSameOverlaps) {
  // "box-overlap-2d": rectangles in the x-y plane, two lists. On a flat scene the z
  // intervals always overlap, so its overlap set is the three-list one after every event.
  std::vector<Sphere> s;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      s.push_back(ball({10 + 14.0 * i, 10 + 14.0 * j, 50}, {std::cos(i + 7.0 * j), std::sin(i + 7.0 * j), 0},
                       1 + 0.1 * ((i + j) % 4)));
  const auto planar = twins(s, 30, {0, 0, 0}, 100, "box-overlap-2d");
  EXPECT_TRUE(same_contacts(planar, twins(s, 30)));
  auto settings = Started::settings();
  WorldRun three(s, settings);
  settings.broad_phase = "box-overlap-2d";
  WorldRun two(s, settings);
  const auto& bo3 = dynamic_cast<const BoxOverlap&>(three.world->broad_phase());
  const auto& bo2 = dynamic_cast<const BoxOverlap&>(two.world->broad_phase());
  EXPECT_EQ(bo2.axes(), 2);
  EXPECT_STREQ(bo2.name(), "box-overlap-2d");
  for (double t = 1; t <= 30; t += 1) {
    ASSERT_TRUE(three.run_until(t));
    ASSERT_TRUE(two.run_until(t));
    for (SphereId a = 0; a < s.size(); ++a) {
      auto p3 = bo3.overlaps().partners(a), p2 = bo2.overlaps().partners(a);
      std::vector<SphereId> v3(p3.begin(), p3.end()), v2(p2.begin(), p2.end());
      std::sort(v3.begin(), v3.end());
      std::sort(v2.begin(), v2.end());
      ASSERT_EQ(v3, v2) << "sphere " << a << " at t = " << t;
    }
  }
  EXPECT_EQ(bo2.swaps(), bo3.swaps());  // the third list never swaps here
}

TEST(BoxOverlapDegenerate, TheTwoListVariantIsRightInSpaceToo) {
  // In a scene that moves in z it certifies more pairs (rectangles overlap whenever boxes
  // do), but finds the same contacts.
  const std::vector<Sphere> s{ball({20, 50, 20}, {1, 0, 0}),  ball({40, 50, 80}, {-1, 0, 0}),
                              ball({30, 50, 50}, {0, 0, 1}),  ball({70, 20, 50}, {0, 1, 0.5}),
                              ball({70, 80, 50}, {0, -1, -0.5}), ball({10, 10, 10}, {0, 0, 0}),
                              ball({10, 10, 90}, {0, 0, 0})};  // one above the other
  const auto planar = twins(s, 60, {0, 0, 0}, 100, "box-overlap-2d");
  EXPECT_TRUE(same_contacts(planar, twins(s, 60)));
  EXPECT_GE(planar.size(), 2u);
  // The stacked pair: their rectangles overlap, their boxes do not.
  auto settings = Started::settings();
  WorldRun three(s, settings);
  settings.broad_phase = "box-overlap-2d";
  WorldRun two(s, settings);
  auto partners = [](const WorldRun& w, SphereId a) {
    auto p = dynamic_cast<const BoxOverlap&>(w.world->broad_phase()).overlaps().partners(a);
    return std::vector<SphereId>(p.begin(), p.end());
  };
  EXPECT_EQ(partners(two, 5), std::vector<SphereId>{6});
  EXPECT_TRUE(partners(three, 5).empty());
  EXPECT_THROW(BoxOverlap(4), InvalidInput);
}

}  // namespace
}  // namespace kds::testing
