// Deferred failure times (CertificateBase::holds_before, Simulator::front): the same
// events at the same exact times, in the same order, as with every failure time computed
// at once (SimulatorSettings::defer_failure_times = false), with either queue. Hand-made
// certificates make the degenerate cases: a deferred time equal to the certificate's own
// failure time and to another event's (ties), run_until to exactly a deferred time and to
// the horizon, a failure found beyond the horizon once computed, handlers that reschedule
// or destroy a deferred certificate, a motion change at a rounded irrational time with
// certificates deferred to exactly that rounded time.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "kds/motion.hpp"
#include "kds/observer.hpp"
#include "kds/simulator.hpp"

namespace {

using kds::Polynomial;
constexpr double inf = std::numeric_limits<double>::infinity();

/// f(t) = T - t: fails at T. holds_before answers `holds` (-inf: nothing).
class Line final : public kds::Certificate<Line> {
 public:
  using Handler = std::function<void(kds::Simulator&, Line&)>;
  Line(kds::BodyId b, double T, double holds, const char* kind, Handler on = nullptr)
      : Certificate<Line>({b}), T(T), holds(holds), kind_(kind), on_(std::move(on)) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return Polynomial<NT>{NT(NT(T) - NT(origin)), NT(-1.0)};
  }
  double holds_before(const kds::Root&, double) const override { return holds; }
  void on_failure(kds::Simulator& sim) override {
    if (on_) on_(sim, *this);
    else sim.destroy(this);
  }
  const char* kind() const override { return kind_; }
  double T, holds;

 private:
  const char* kind_;
  Handler on_;
};

/// f(t) = 2 - t^2: fails at sqrt(2), an irrational time; the handler changes a motion.
class Parabola final : public kds::Certificate<Parabola> {
 public:
  Parabola(kds::BodyId b, kds::BodyId moved) : Certificate<Parabola>({b}), moved_(moved) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return Polynomial<NT>{NT(NT(2.0) - NT(origin) * NT(origin)), NT(NT(-2.0) * NT(origin)), NT(-1.0)};
  }
  void on_failure(kds::Simulator& sim) override {
    sim.bodies().set_motion(moved_, kds::Motion<1>::linear(sim.round_clock(), {0.0}, {1.0}));
    sim.destroy(this);
  }
  const char* kind() const override { return "parabola"; }

 private:
  kds::BodyId moved_;
};

struct Event {
  kds::Root time;
  std::string kind;
  unsigned body;
};

class Recorder final : public kds::Observer {
 public:
  explicit Recorder(kds::Simulator& sim) : sim_(sim) { sim_.add_observer(*this); }
  ~Recorder() override { sim_.remove_observer(*this); }
  void on_event(const kds::EventRecord& e) override { events.push_back({e.time, e.kind, e.bodies[0].index}); }
  std::vector<Event> events;

 private:
  kds::Simulator& sim_;
};

using Scene = std::function<void(kds::Simulator&)>;

struct Outcome {
  std::vector<Event> events;
  std::uint64_t deferred = 0, computed_later = 0;
};

Outcome run(const Scene& scene, bool defer, kds::QueueKind queue) {
  kds::SimulatorSettings settings;
  settings.defer_failure_times = defer;
  settings.queue = queue;
  settings.audit = false;  // an audit computes deferred failure times early
  kds::Simulator sim(settings);
  Recorder recorder(sim);
  scene(sim);
  return {recorder.events, sim.statistics().failures_deferred, sim.statistics().deferred_computed};
}

/// The scene with deferral off (the heap) against deferral on and off with both queues:
/// the same kinds, bodies and exact times, in the same order. Returns the deferred run.
Outcome expect_same_events(const Scene& scene) {
  const Outcome reference = run(scene, false, kds::QueueKind::heap);
  EXPECT_EQ(reference.deferred, 0u);
  Outcome deferred;
  for (bool defer : {true, false})
    for (kds::QueueKind queue : {kds::QueueKind::heap, kds::QueueKind::reference}) {
      SCOPED_TRACE(std::string(defer ? "deferred" : "not deferred") +
                   (queue == kds::QueueKind::heap ? ", heap" : ", reference queue"));
      const Outcome r = run(scene, defer, queue);
      if (defer && queue == kds::QueueKind::heap) deferred = r;
      EXPECT_EQ(r.events.size(), reference.events.size());
      for (std::size_t i = 0; i < std::min(r.events.size(), reference.events.size()); ++i) {
        EXPECT_EQ(r.events[i].kind, reference.events[i].kind) << "event " << i;
        EXPECT_EQ(r.events[i].body, reference.events[i].body) << "event " << i;
        EXPECT_EQ(kds::compare(r.events[i].time, reference.events[i].time), 0) << "event " << i;
      }
    }
  return deferred;
}

kds::BodyId body(kds::Simulator& sim) { return sim.bodies().insert(kds::Motion<1>::constant({0.0})); }

TEST(DeferredFailureTimes, TiesRunUntilAndTheHorizon) {
  const Outcome o = expect_same_events([](kds::Simulator& sim) {
    const kds::BodyId a = body(sim), b = body(sim), c = body(sim), d = body(sim), e = body(sim);
    sim.create<Line>(a, 1.0, -inf, "timer");                    // older: first among ties
    sim.create<Line>(b, 1.0, 1.0, "own time")->set_horizon(2);  // deferred to its own failure time
    sim.create<Line>(c, 1.5, 1.0, "later")->set_horizon(2);     // deferred to the timer's time
    sim.create<Line>(d, 3.0, 1.0, "beyond")->set_horizon(2);    // found beyond the horizon: no event
    sim.create<Line>(e, 2.0, 2.0, "at horizon")->set_horizon(2);  // deferred to exactly the horizon
    sim.run_until(1.0);  // exactly the deferred times
    EXPECT_EQ(kds::compare(sim.next_event_time(), 1.5), 0);
    EXPECT_TRUE(sim.time_between_events().has_value());
    sim.run_until(2.0);  // exactly the horizon
    sim.run_until(4.0);
  });
  EXPECT_EQ(o.events.size(), 4u);  // timer, own time, later, at horizon
  EXPECT_EQ(o.deferred, 4u);
  EXPECT_EQ(o.computed_later, 4u);
}

TEST(DeferredFailureTimes, HandlersRescheduleAndDestroyDeferredCertificates) {
  const Outcome o = expect_same_events([](kds::Simulator& sim) {
    const kds::BodyId a = body(sim), b = body(sim), c = body(sim);
    Line* moved = sim.create<Line>(b, 2.0, 1.0, "moved");
    moved->set_horizon(5);
    Line* gone = sim.create<Line>(c, 1.25, 1.25, "gone");
    gone->set_horizon(5);
    sim.create<Line>(a, 1.0, -inf, "timer", [moved, gone](kds::Simulator& s, Line& self) {
      moved->T = 1.0;  // now fails at this very instant
      moved->holds = -inf;
      s.reschedule(moved);
      s.destroy(gone);
      s.destroy(&self);
    });
    sim.run_until(3.0);
  });
  EXPECT_EQ(o.events.size(), 2u);  // timer, moved (at 1)
  EXPECT_EQ(o.deferred, 2u);
  // "moved" is deferred to the timer's own time, so it is computed just before the timer fires
  // (a deferred certificate comes first at equal times); "gone" is destroyed before its time.
  EXPECT_EQ(o.computed_later, 1u);
}

TEST(DeferredFailureTimes, MotionChangeAtARoundedIrrationalTime) {
  // The handler at sqrt(2) rounds the clock up to the next double r: certificates failing
  // at or before r move to r, where tie keys order them; those deferred to exactly r must
  // be computed first, from the exact clock.
  const double s = std::sqrt(2.0);
  const double r = std::fma(s, s, -2.0) < 0 ? std::nextafter(s, 2.0) : s;  // the smallest double >= sqrt(2)
  const Outcome outcome = expect_same_events([r](kds::Simulator& sim) {
    const kds::BodyId a = body(sim), b = body(sim), m = body(sim);
    sim.create<Line>(a, r, r, "at r, older")->set_horizon(10);
    sim.create<Parabola>(b, m);
    sim.create<Line>(a, r, r, "at r, younger")->set_horizon(10);
    sim.create<Line>(a, std::nextafter(r, 2.0), r, "after r")->set_horizon(10);
    sim.run_until(5.0);
  });
  EXPECT_EQ(outcome.events.size(), 4u);
  EXPECT_EQ(outcome.deferred, 3u);
}

}  // namespace
