// Bad input to the rolling tree: each an InvalidInput naming the ball and the problem,
// at the start (not tangent to the floor, a vertical velocity, gravity out of the plane,
// an unknown trajectory, a zero or negative radius, overlapping balls) and later (a
// response or a flight-plan update that lifts a ball off the plane).
#include <gtest/gtest.h>

#include "rolling_support.hpp"

namespace kds::testing {
namespace {

std::string start_error(std::vector<Sphere> balls, Vec<3> gravity = {0, 0, 0}, TrajectoryProbe* probe = nullptr) {
  auto settings = world_settings(table(50), "rolling-tree", 1.0, gravity);
  settings.probe = probe;
  return invalid_input_message([&] {
    Simulator sim;
    CollisionWorld world(sim, settings, balls);
  });
}

std::vector<Sphere> two_balls() { return {rolling_ball(10, 10, 1, 0, 1), rolling_ball(20, 10, -1, 0, 2)}; }

TEST(RollingBadInput, BallNotTangentToTheFloor) {
  auto balls = two_balls();
  balls[1].position[2] = 2.5;  // radius 2: hovering 0.5 above the floor
  EXPECT_TRUE(message_has(start_error(balls), {"rolling-tree", "ball 1", "not tangent", "height 2.5", "radius 2"}));
  balls[1].position[2] = 1.5;  // sunk into the floor: the world's own check names it first
  EXPECT_TRUE(message_has(start_error(balls), {"sphere 1", "outside the box"}));
}

TEST(RollingBadInput, NotTangentToAFloorAwayFromZeroSaysTheUsersHeights) {
  // The world works in a local frame here (the box lies within a factor 2 of its corner):
  // the message still gives the floor and the height in the scene's coordinates.
  std::vector<Sphere> balls{rolling_ball(10, 10, 1, 0, 1), rolling_ball(20, 10, -1, 0, 2)};
  for (Sphere& b : balls) b.position[2] = 5 + b.radius;
  balls[1].position[2] = 7.5;  // radius 2 on the floor z = 5: 0.5 above it
  auto settings = world_settings(Box3{{0, 0, 5}, {50, 50, 12}}, "rolling-tree");
  const std::string message = invalid_input_message([&] {
    Simulator sim;
    CollisionWorld world(sim, settings, balls);
  });
  EXPECT_TRUE(message_has(message, {"ball 1", "not tangent to the plane z = 5", "height 7.5", "radius 2"})) << message;
}

TEST(RollingBadInput, VerticalVelocityOrGravityOutOfThePlane) {
  auto balls = two_balls();
  balls[0].velocity[2] = 0.25;
  EXPECT_TRUE(message_has(start_error(balls), {"ball 0", "leaves the plane", "vertical velocity 0.25"}));
  EXPECT_TRUE(message_has(start_error(two_balls(), {0, 0, -9.81}), {"ball 0", "vertical acceleration", "gravity"}));
}

TEST(RollingBadInput, UnknownTrajectory) {
  struct Still : TrajectoryProbe {
    SphereState state(SphereId, double) override { return {}; }
    void set_velocity(SphereId, double, const Vec<3>&) override {}
  } probe;
  auto balls = two_balls();
  balls[1].max_acceleration = 1;
  EXPECT_TRUE(message_has(start_error(balls, {0, 0, 0}, &probe), {"ball 1", "unknown trajectory"}));
}

TEST(RollingBadInput, ZeroOrNegativeRadius) {
  for (double r : {0.0, -1.0}) {
    auto balls = two_balls();
    balls[1].radius = r;
    balls[1].position[2] = r;
    EXPECT_TRUE(message_has(start_error(balls), {"sphere 1", "radius"})) << r;
  }
}

TEST(RollingBadInput, OverlappingStart) {
  // Tangency points 2 apart; touching needs 2 sqrt(1 * 2) = 2.83.
  std::vector<Sphere> balls{rolling_ball(10, 10, 0, 0, 1), rolling_ball(12, 10, 0, 0, 2)};
  EXPECT_TRUE(message_has(start_error(balls), {"sphere", "0", "1", "overlap"}));
}

TEST(RollingBadInput, DefaultResponseLiftsUnequalBallsOffThePlane) {
  // Without the planar response, the impulse along the 3D line of centres has a vertical
  // part: the tree refuses the new motion, naming the ball.
  Simulator sim;
  CollisionWorld world(sim, world_settings(table(50), "rolling-tree"), two_balls());
  const std::string m = invalid_input_message([&] { sim.run_until(10); });
  EXPECT_TRUE(message_has(m, {"rolling-tree", "ball 0", "at t = ", "leaves the plane", "vertical velocity"}));
}

TEST(RollingBadInput, FlightPlanUpdateOffThePlane) {
  Simulator sim;
  CollisionWorld world(sim, world_settings(table(50), "rolling-tree-global"), two_balls());
  sim.run_until(1);
  const std::string m = invalid_input_message([&] {
    sim.bodies().set_motion(world.body(1), Motion<3>::linear(1, {20, 30, 2}, {0, 0, 1}));
  });
  EXPECT_TRUE(message_has(m, {"rolling-tree-global", "ball 1", "at t = 1", "leaves the plane"}));
}

}  // namespace
}  // namespace kds::testing
