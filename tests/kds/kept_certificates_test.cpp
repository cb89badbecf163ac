// Simulator::keep: a certificate whose structure has proven that its schedule holds of
// the new function stays as it is through the motion changes that follow, up to the next
// flush. Only idle and deferred certificates can be kept (their schedule needs no
// function); a computed failure time, a certificate not scheduled yet and the failure
// being processed are refused and rescheduled as usual. A kept certificate destroyed or
// renewed before the flush leaves the list of kept ones.
#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "kds/motion.hpp"
#include "kds/simulator.hpp"

namespace {

using kds::Polynomial;
constexpr double inf = std::numeric_limits<double>::infinity();

/// f(t) = T - t over one body (its motion is not read: the tests count reschedules).
/// holds_before answers `holds`; the failure handler runs `on` if set, else destroys it.
class Line final : public kds::Certificate<Line> {
 public:
  Line(kds::BodyId b, double T, double holds) : Certificate<Line>({b}), T(T), holds(holds) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return Polynomial<NT>{NT(NT(T) - NT(origin)), NT(-1.0)};
  }
  double holds_before(const kds::Root&, double) const override { return holds; }
  void on_failure(kds::Simulator& sim) override {
    if (on) on(sim, *this);
    else sim.destroy(this);
  }
  const char* kind() const override { return "line"; }
  double T, holds;
  std::function<void(kds::Simulator&, Line&)> on;
};

kds::BodyId body(kds::Simulator& sim) { return sim.bodies().insert(kds::Motion<1>::constant({0.0})); }

void move(kds::Simulator& sim, kds::BodyId b) {
  sim.bodies().set_motion(b, kds::Motion<1>::linear(sim.round_clock(), {0.0}, {1.0}));
}

TEST(KeptCertificates, AnIdleOneIsNotRescheduledUntilTheNextFlush) {
  kds::Simulator sim;
  const kds::BodyId b = body(sim);
  Line* c = sim.create<Line>(b, 5.0, inf);  // apart up to its horizon: idle
  c->set_horizon(10);
  sim.flush();
  EXPECT_TRUE(c->failure_time().is_infinite());
  const std::uint64_t before = sim.statistics().certificates_rescheduled;
  EXPECT_TRUE(sim.keep(c));
  move(sim, b);
  move(sim, b);  // every motion change up to the flush
  EXPECT_EQ(sim.statistics().certificates_rescheduled, before);
  EXPECT_EQ(sim.statistics().certificates_kept, 1u);
  sim.flush();
  move(sim, b);  // the next one reschedules it
  EXPECT_EQ(sim.statistics().certificates_rescheduled, before + 1);
}

TEST(KeptCertificates, ADeferredOneKeepsItsQueuedTimeAndFailsWhenItsFunctionSays) {
  kds::Simulator sim;
  const kds::BodyId b = body(sim);
  Line* c = sim.create<Line>(b, 5.0, 3.0);  // holds before 3: deferred there
  c->set_horizon(10);
  sim.flush();
  ASSERT_TRUE(c->deferred());
  EXPECT_TRUE(sim.keep(c));
  move(sim, b);
  EXPECT_TRUE(c->deferred());
  EXPECT_EQ(kds::compare(sim.next_event_time(), 5.0), 0);  // computed from the deferred time on
  EXPECT_TRUE(sim.step());
  EXPECT_EQ(kds::compare(sim.now(), 5.0), 0);
}

TEST(KeptCertificates, AComputedFailureTimeAndAnUnscheduledOneAreRefused) {
  kds::Simulator sim;
  const kds::BodyId b = body(sim);
  Line* scheduled = sim.create<Line>(b, 5.0, -inf);  // nothing proven: failure time computed
  scheduled->set_horizon(10);
  sim.flush();
  Line* fresh = sim.create<Line>(b, 6.0, inf);  // not flushed yet
  fresh->set_horizon(10);
  EXPECT_FALSE(sim.keep(scheduled));
  EXPECT_FALSE(sim.keep(fresh));
  const std::uint64_t before = sim.statistics().certificates_rescheduled;
  move(sim, b);
  EXPECT_EQ(sim.statistics().certificates_rescheduled, before + 2);  // both, as without keep
  EXPECT_EQ(sim.statistics().certificates_kept, 0u);
}

TEST(KeptCertificates, TheFailureBeingProcessedIsRefused) {
  kds::Simulator sim;
  const kds::BodyId b = body(sim);
  Line* c = sim.create<Line>(b, 1.0, -inf);
  bool refused = false;
  c->on = [&](kds::Simulator& s, Line& self) {
    refused = !s.keep(&self);
    s.destroy(&self);
  };
  EXPECT_TRUE(sim.step());
  EXPECT_TRUE(refused);
}

TEST(KeptCertificates, DestroyedOrRenewedBeforeTheFlushTheyAreForgotten) {
  kds::Simulator sim;
  const kds::BodyId b = body(sim), other = body(sim);
  Line* gone = sim.create<Line>(b, 5.0, inf);
  Line* renewed = sim.create<Line>(b, 6.0, inf);
  gone->set_horizon(10);
  renewed->set_horizon(10);
  sim.flush();
  EXPECT_TRUE(sim.keep(gone));
  EXPECT_TRUE(sim.keep(renewed));
  sim.destroy(gone);
  sim.renew(renewed, {other}, [&] { renewed->holds = -inf; });
  renewed->set_horizon(10);  // (a renewal clears it)
  move(sim, other);  // the renewed one is pending: left to the flush
  sim.flush();
  EXPECT_EQ(kds::compare(renewed->failure_time(), 6.0), 0);
  // Kept again and still exempt after the clock moved on (set_now clears the graveyard).
  renewed->holds = inf;
  sim.reschedule(renewed);
  renewed->set_horizon(10);
  sim.flush();
  EXPECT_TRUE(sim.keep(renewed));
  sim.run_until(1.0);
  const std::uint64_t before = sim.statistics().certificates_rescheduled;
  move(sim, other);
  EXPECT_EQ(sim.statistics().certificates_rescheduled, before + 1);  // run_until flushed: no longer kept
}

}  // namespace
