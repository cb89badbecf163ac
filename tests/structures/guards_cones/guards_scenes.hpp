#pragma once
// What the degenerate and grazing tests of guards and cones share: the world's settings
// (a power-of-two contact tolerance) and the audited run beside all-pairs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "collision_world_support.hpp"

namespace kds::testing {

/// A power of two, so that box extremes are exact sums.
inline constexpr double kGuardsTolerance = 0x1p-20;

inline CollisionWorldSettings guards_settings(double box = 100, const std::string& broad_phase = "guards-cones") {
  auto s = world_settings(cube(box), broad_phase);
  s.contact_tolerance = kGuardsTolerance;
  return s;
}

/// Guards-cones (or another broad phase) audited after every event, and all-pairs: the
/// same contacts; returns them.
inline std::vector<Contact> guards_twins(const std::vector<Sphere>& spheres, double t_end, double box = 100,
                                         const std::string& broad_phase = "guards-cones") {
  SimulatorSettings audited;
  audited.audit = true;
  TwinResult r;
  EXPECT_NO_THROW(r = run_twins(spheres, guards_settings(box, broad_phase), t_end, audited, broad_phase));
  EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
  return r.tested;
}

}  // namespace kds::testing
