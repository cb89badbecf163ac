// The build configuration reaches programs through the generated kds/config.hpp, not
// through compile definitions: a validating build (CMake option KDS_VALIDATING_BUILD)
// makes simulators audit by default, and an ordinary build does not.
#include <gtest/gtest.h>

#include "kds/config.hpp"
#include "kds/simulator.hpp"

namespace {

// KDS_TEST_VALIDATING_BUILD is the CMake option as this test's CMakeLists.txt saw it.
constexpr bool kOptionOn = KDS_TEST_VALIDATING_BUILD;

TEST(Config, ValidatingBuildFollowsTheCMakeOption) { EXPECT_EQ(kds::config::validating_build, kOptionOn); }

TEST(Config, SimulatorsAuditByDefaultExactlyInAValidatingBuild) { EXPECT_EQ(kds::SimulatorSettings{}.audit, kOptionOn); }

}  // namespace
