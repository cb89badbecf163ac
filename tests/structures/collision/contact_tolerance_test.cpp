// A valid contact tolerance never aborts a run: the smallest tolerance the world accepts
// (2^-40 of the coordinates of its local frame) holds for any length of run and any speed,
// because the overlap that the rounding of the clock leaves at a contact (speed x one ulp
// of the time, which grows with both) is removed by the response (CollisionWorld::separate)
// instead of being carried into the next contact.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../collision_world_support.hpp"
#include "structures/collision/input_range.hpp"

namespace {

using kds::Sphere;
using namespace kds::testing;

// The two-sphere example of docs/scene-format.md: balls bouncing under gravity in a box of
// side 200, with the smallest tolerance allowed there.
std::vector<Sphere> two_balls(double speed) {
  return {ball({10, 10, 10}, {speed, 0, 0}, 1, 1), ball({30, 10, 10}, {-speed, 0, 0}, 2, 8)};
}

void runs_at_the_smallest_tolerance(double speed, double until) {
  for (const char* broad_phase : {"all-pairs", "tvb-grid"}) {
    SCOPED_TRACE(std::string(broad_phase) + ", speed " + std::to_string(speed));
    auto settings = world_settings(cube(200), broad_phase, 1.0, {0, 0, -9.81});
    settings.contact_tolerance = kds::input_range::min_tolerance_per_coordinate * 200;
    // Every contact checks the overlap it leaves against the tolerance (and throws beyond
    // it); an audit at the end checks every pair and wall exactly.
    WorldRun run(two_balls(speed), settings, kds::SimulatorSettings{.audit = false});
    bool finished = false;
    ASSERT_NO_THROW(finished = run.run_until(until));
    ASSERT_TRUE(finished);
    EXPECT_NO_THROW(run.sim->audit());
    EXPECT_GT(run.contacts().size(), 100u);
  }
}

TEST(ContactTolerance, TheSmallestHoldsOverALongRun) {
  // Wall contacts with the same parabola again and again: before, the overlap of each bounce
  // stayed in the next one's certificate, and the run aborted near t = 4210.
  runs_at_the_smallest_tolerance(5, 6000);
}

TEST(ContactTolerance, TheSmallestHoldsAtHighSpeed) {
  // At 1e5 per second one ulp of time at t = 10 (1.8e-15) is 1.8e-10 of travel, the
  // tolerance itself.
  runs_at_the_smallest_tolerance(1e5, 12);
}

}  // namespace
