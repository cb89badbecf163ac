// The rolling tree against all-pairs on scenes built to be degenerate, audited after
// every event, for both layouts: simultaneous contacts, contacts at time 0, a tangency
// point that starts on a threshold-box side or rides along one forever (equal keys in a
// sorted list), equal radii, radii three orders of magnitude apart, a floor away from zero.
#include <gtest/gtest.h>

#include "rolling_support.hpp"
#include "structures/rolling_balls/threshold_box.hpp"

namespace kds::testing {
namespace {

void expect_twins(const std::vector<Sphere>& balls, const Box3& box, double t_end, std::size_t min_pairs) {
  SimulatorSettings audited;
  audited.audit = true;
  for (const std::string& layout : rolling_layouts()) {
    SCOPED_TRACE(layout);
    TwinResult r;
    ASSERT_NO_THROW(r = run_rolling_twins(balls, box, layout, t_end, audited));
    EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
    EXPECT_GE(pair_contacts(r.tested), min_pairs);
  }
}

TEST(RollingDegenerate, SimultaneousHeadOnContacts) {
  // Four rows of equal balls meeting head-on at t = 1, all at once.
  std::vector<Sphere> balls;
  for (int k = 0; k < 4; ++k) {
    balls.push_back(rolling_ball(10, 5 + 5 * k, 2, 0));
    balls.push_back(rolling_ball(16, 5 + 5 * k, -2, 0));
  }
  expect_twins(balls, table(40), 3, 4);
}

TEST(RollingDegenerate, FourBallsMeetingSymmetrically) {
  // From left, right, below and above towards one point: four contacts at the same time
  // (each ball with its two neighbours), then more.
  std::vector<Sphere> balls{rolling_ball(27, 30, 1, 0, 0.5), rolling_ball(33, 30, -1, 0, 0.5),
                            rolling_ball(30, 27, 0, 1, 0.5), rolling_ball(30, 33, 0, -1, 0.5)};
  expect_twins(balls, table(60), 6, 4);
}

TEST(RollingDegenerate, LatticeOfEqualBallsMovingInColumns) {
  // Equal radii on a lattice, columns moving in opposite directions: many points cross
  // many box sides at the same instants, and contacts come in simultaneous rows.
  std::vector<Sphere> balls;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) balls.push_back(rolling_ball(5 + 4 * i, 5 + 4 * j, i % 2 == 0 ? 1.5 : -1.5, 0, 1));
  expect_twins(balls, table(28), 6, 10);
}

TEST(RollingDegenerate, ContactsAtTimeZero) {
  // Touching at t = 0 (tangency points exactly 2 sqrt(r_i r_j) apart): one pair approaching
  // (a contact at 0), one separating (none), with radii 4 and 1, and 1 and 1.
  std::vector<Sphere> balls{rolling_ball(10, 10, 0, 0, 4), rolling_ball(14, 10, -1, 0, 1),
                            rolling_ball(30, 30, 0, 0, 1), rolling_ball(32, 30, 1, 0, 1),
                            rolling_ball(20, 40, 0.5, -1, 2)};
  expect_twins(balls, table(50), 5, 1);
  // And the contact at 0 is first.
  RollingRun run(balls, world_settings(table(50), "rolling-tree"));
  ASSERT_TRUE(run.run_until(1));
  ASSERT_FALSE(run.contacts().empty());
  EXPECT_EQ(run.contacts()[0].time, 0.0);
  EXPECT_EQ(run.contacts()[0].a, 0u);
  EXPECT_EQ(run.contacts()[0].b, 1u);
}

// Ball 0 (radius 0.25) is the only large ball of the root; ball 1 (radius 0.1) starts with
// its tangency point exactly on the high x side of ball 0's threshold box.
std::vector<Sphere> point_on_box_side(double vx1, double vy0, double vy1) {
  const double h = threshold_half_width(0.25, 0.25);
  const double x0 = 0.375, x1 = x0 + h;
  EXPECT_EQ(Rational(x1), Rational(x0) + Rational(h)) << "the side must be exactly a double";
  return {rolling_ball(x0, 5, 0, vy0, 0.25), rolling_ball(x1, 5.15, vx1, vy1, 0.1),
          rolling_ball(0.375, 9, 0, -1, 0.25)};
}

TEST(RollingDegenerate, PointStartsOnABoxSideMovingIn) {
  expect_twins(point_on_box_side(-0.5, 0, 0), table(10), 6, 1);
}

TEST(RollingDegenerate, PointRidesABoxSideForever) {
  // Same velocity: the x-key of ball 1's point equals ball 0's box side at all times
  // (until a wall or ball 2 changes a motion), an equal pair of keys in the x-list.
  expect_twins(point_on_box_side(0, 1, 1), table(10), 10, 1);
}

TEST(RollingDegenerate, RadiiThreeOrdersOfMagnitudeApart) {
  // Tiny balls (0.01) around and onto a huge one (10), along axes and diagonals.
  std::vector<Sphere> balls{rolling_ball(50, 50, 0, 0, 10)};
  int k = 0;
  for (double dx : {-1.0, 0.0, 1.0})
    for (double dy : {-1.0, 0.0, 1.0}) {
      if (dx == 0 && dy == 0) continue;
      const double d = 11 + 0.5 * k++;
      balls.push_back(rolling_ball(50 + d * dx, 50 + d * dy, -2 * dx, -2 * dy, 0.01));
    }
  balls.push_back(rolling_ball(50, 80, 0, -2, 0.1));
  balls.push_back(rolling_ball(20, 50, 3, 0, 1));
  expect_twins(balls, table(100), 10, 6);
}

TEST(RollingDegenerate, FloorAwayFromZero) {
  // Boxes within a factor 2 of their corner nearest zero get a local frame (local_origin):
  // the tree once compared the local heights with the user's floor and refused every such
  // scene. Floors at 5 and at 1e7 (x and y shifted too), against all-pairs: three equal
  // balls in a row, the outer two meeting the middle one at the same instant (t = 4), and
  // two balls of other sizes.
  for (const double floor : {5.0, 1e7}) {
    SCOPED_TRACE(floor);
    const double shift = floor == 5.0 ? 0.0 : 1e7;
    const Box3 box{{shift, shift, floor}, {shift + 40, shift + 40, floor + 4}};
    std::vector<Sphere> balls{rolling_ball(shift + 10, shift + 20, 2, 0, 1), rolling_ball(shift + 20, shift + 20, 0, 0, 1),
                              rolling_ball(shift + 30, shift + 20, -2, 0, 1), rolling_ball(shift + 20, shift + 5, 0, 1, 0.5),
                              rolling_ball(shift + 5, shift + 35, 1, -1, 2)};
    for (Sphere& b : balls) b.position[2] = floor + b.radius;
    expect_twins(balls, box, 12, 2);
  }
}

}  // namespace
}  // namespace kds::testing
