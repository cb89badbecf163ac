// A run that makes no progress in time (issue 12, item 7): a certificate whose repair
// makes it fail again at the same instant, forever. The simulator stops after the
// documented number of events at one instant (SimulatorSettings) with NoProgress naming
// the bodies involved, and leaves its state intact; events at many different times are
// not bounded.
#include <gtest/gtest.h>

#include <string>

#include "kds/errors.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"

namespace kds::testing {
namespace {

/// Fails at `at` and, when processed, reschedules itself: with `at` fixed it fails again
/// at once (the clock cannot move on); with `step` > 0 it moves its time on by `step`.
class Stubborn final : public Certificate<Stubborn> {
 public:
  Stubborn(BodyId a, BodyId b, double at, double step) : Certificate<Stubborn>({a, b}), at_(at), step_(step) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return Polynomial<NT>{NT(NT(at_) - NT(origin)), NT(-1.0)};
  }
  void on_failure(Simulator& sim) override {
    ++fired;
    sim.reschedule(this);  // first: the clock, a root of the old function, is pinned
    at_ += step_;
  }
  const char* kind() const override { return "stubborn"; }
  std::uint64_t fired = 0;

 private:
  double at_, step_;
};

TEST(NoProgress, EndlessEventsAtOneInstantStopWithTheBodiesNamed) {
  SimulatorSettings settings;
  settings.max_events_at_one_instant = 500;
  settings.max_events_at_one_instant_per_body = 100;
  Simulator sim(settings);
  BodyId bodies[3];
  for (BodyId& b : bodies) b = sim.bodies().insert(Motion<1>::linear(0.0, {0.0}, {0.0}));
  auto* c = sim.create<Stubborn>(bodies[1], bodies[2], 2.5, 0.0);
  std::string what;
  try {
    sim.run_until(10);
  } catch (const NoProgress& e) {
    what = e.what();
    EXPECT_EQ(e.bodies, (std::vector<BodyId>{bodies[1], bodies[2]}));
  }
  // 500 + 100 per body, 3 bodies: 800 events at t = 2.5, then no more.
  EXPECT_EQ(c->fired, 800u);
  EXPECT_NE(what.find("no progress in time: 800 events at t = 2.5"), std::string::npos) << what;
  EXPECT_NE(what.find("'stubborn'"), std::string::npos) << what;
  EXPECT_NE(what.find("bodies 1, 2"), std::string::npos) << what;
  // The event that would exceed the bound is still queued: the state is intact.
  EXPECT_EQ(sim.pending_events(), 1u);
  EXPECT_EQ(compare(sim.next_event_time(), 2.5), 0);
}

/// A simulator with the given bound (no per-body part) and a Stubborn certificate on two bodies.
struct OneStubborn {
  OneStubborn(std::uint64_t bound, double at, double step) : sim(settings(bound)) {
    const BodyId a = sim.bodies().insert(Motion<1>::linear(0.0, {0.0}, {0.0}));
    const BodyId b = sim.bodies().insert(Motion<1>::linear(0.0, {0.0}, {0.0}));
    c = sim.create<Stubborn>(a, b, at, step);
  }
  static SimulatorSettings settings(std::uint64_t bound) {
    SimulatorSettings s;
    s.max_events_at_one_instant = bound;
    s.max_events_at_one_instant_per_body = 0;
    return s;
  }
  Simulator sim;
  Stubborn* c = nullptr;
};

TEST(NoProgress, ManyEventsAtDifferentTimesAreNotBounded) {
  OneStubborn s(10, 0.5, 0.25);
  s.sim.run_until(1000);
  EXPECT_EQ(s.c->fired, 3999u);  // at 0.5, 0.75, ..., 1000
}

TEST(NoProgress, NoBoundWhenBothSettingsAreZero) {
  OneStubborn s(0, 1.0, 0.0);
  for (int i = 0; i < 50000; ++i) ASSERT_TRUE(s.sim.step());
  EXPECT_EQ(s.c->fired, 50000u);
}

}  // namespace
}  // namespace kds::testing
