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
  // Kept again; the clock moving on (run_until flushes) ends the exemption.
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

/// f(t) = x(t), the body's coordinate; holds_before answers `holds`.
class Coordinate final : public kds::Certificate<Coordinate> {
 public:
  Coordinate(kds::Simulator& sim, kds::BodyId b, double holds, int& against_20)
      : Certificate<Coordinate>({b}), sim_(sim), holds(holds), against_20(against_20) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return sim_.bodies().coordinate<NT>(bodies()[0], 0, origin);
  }
  double holds_before(const kds::Root&, double) const override { return holds; }
  void on_failure(kds::Simulator& sim) override {
    against_20 = kds::compare(sim.now(), 20.0);  // now (a root of this function) is read while it lives
    sim.destroy(this);
  }
  const char* kind() const override { return "coordinate"; }
  kds::Simulator& sim_;
  double holds;
  int& against_20;  // outside: the certificate is gone when the test reads it
};

/// f(t) = 2 - t^2: fails at sqrt(2), not a double; its handler runs `on`.
class Parabola final : public kds::Certificate<Parabola> {
 public:
  explicit Parabola(kds::BodyId b) : Certificate<Parabola>({b}) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    const NT o(origin);
    return Polynomial<NT>{NT(NT(2.0) - o * o), NT(NT(-2.0) * o), NT(-1.0)};
  }
  void on_failure(kds::Simulator& sim) override {
    on(sim);
    sim.destroy(this);
  }
  const char* kind() const override { return "parabola"; }
  std::function<void(kds::Simulator&)> on;
};

// Kept at a clock that is not a double: the motion change rounds the clock first, which
// may compute the deferred failure time from the old motion; that schedule reads the old
// function, so the motion change must reschedule it after all. (Found by review: the
// failure then came at the old root, 10, where the new function is 10.)
TEST(KeptCertificates, AFailureTimeComputedFromTheOldMotionIsRescheduled) {
  kds::Simulator sim;
  const kds::BodyId x = sim.bodies().insert(kds::Motion<1>::linear(0, {10.0}, {-1.0}));  // 10 - t
  const kds::BodyId e = body(sim);
  int against_20 = 2;  // the failure time compared with 20, the new function's root
  Coordinate* c = sim.create<Coordinate>(sim, x, 5.0, against_20);  // deferred to 5
  c->set_horizon(100);
  Parabola* p = sim.create<Parabola>(e);
  bool kept = false;
  p->on = [&](kds::Simulator& s) {
    EXPECT_FALSE(s.now().is_point());
    kept = s.keep(c);
    // 20 - t from 1.5 on: positive wherever 10 - t is.
    s.bodies().set_motion(x, kds::Motion<1>::linear(1.5, {18.5}, {-1.0}));
  };
  sim.run_until(30);
  EXPECT_TRUE(kept);
  EXPECT_EQ(against_20, 0);
}

}  // namespace
