// The floating-point-only mode (issue 12, item 9): a failure of a function positive at
// now lies strictly after now, even when the root is within half an ulp of the clock. It
// was rounded to now: the certificate fired while it still held, the repair re-created
// certificates that saw the state before the event, and a diagonal Newton's cradle on
// the grid looped at one instant with memory growing by 100 MB/s.
#include <gtest/gtest.h>

#include <cmath>

#include "collision_world_support.hpp"
#include "kds/solver.hpp"
#include "test_functions.hpp"

namespace kds::testing {
namespace {

TEST(FloatingMode, AFailureOfAFunctionPositiveNowIsAfterNow) {
  const double now = 267.39227345522039;  // ulp 5.7e-14
  Polynomial<Rational> p;  // 2.3e-14 - (t - now): positive now, root 2.3e-14 later
  p.set(0, Rational(2.3e-14));
  p.set(1, -1);
  const RationalFunction f(p, now);
  const Root r = first_failure(f, Root::at(now), Birth::generic, Exactness::floating);
  ASSERT_FALSE(r.is_infinite());
  EXPECT_GT(r.lo(), now);
  EXPECT_EQ(r.lo(), std::nextafter(now, INFINITY));
}

TEST(FloatingMode, ADiagonalNewtonsCradleRunsLikeTheExactMode) {
  // Five unit spheres a hair apart on the diagonal, the first moving along it.
  const double d = 2 / std::sqrt(3.0) * (1 + 1e-15);
  std::vector<Sphere> s;
  for (int i = 0; i < 5; ++i) {
    const double c = 5 + i * d;
    s.push_back(ball({c, c, c}, i == 0 ? Vec<3>{1, 1, 1} : Vec<3>{0, 0, 0}));
  }
  for (const char* broad_phase : {"tvb-grid", "all-pairs"}) {
    SimulatorSettings floating;
    floating.exactness = Exactness::floating;
    WorldRun f(s, world_settings(cube(40), broad_phase), floating);
    ASSERT_TRUE(f.run_until(1000, 100000)) << broad_phase;
    WorldRun e(s, world_settings(cube(40), broad_phase));
    ASSERT_TRUE(e.run_until(1000, 100000)) << broad_phase;
    // Nearly equal events may be ordered differently; the counts are close.
    EXPECT_NEAR(double(f.contacts().size()), double(e.contacts().size()), 0.2 * double(e.contacts().size()))
        << broad_phase;
    EXPECT_GT(f.contacts().size(), 100u) << broad_phase;
  }
}

}  // namespace
}  // namespace kds::testing
