// Bodies: ids with generations (stale and foreign ids are errors naming the body), the
// motion-change protocol (round the clock, replace, reschedule exactly the body's
// certificates), holding, observers, and errors that leave everything unchanged.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kds/simulator.hpp"
#include "test_functions.hpp"

namespace {

using kds::BodyId;
using kds::InvalidInput;
using kds::Motion;

template <class F>
std::string message(F&& f) {
  try {
    f();
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "(no InvalidInput)";
}

/// "x_a(t) <= x_b(t)", failing by destroying itself (the handler must do something).
struct Before : kds::Certificate<Before> {
  Before(BodyId a, BodyId b, const kds::Simulator& sim) : Certificate({a, b}), sim(&sim) {}
  template <class NT>
  kds::Polynomial<NT> function(double origin) const {
    return sim->bodies().coordinate<NT>(bodies()[1], 0, origin) - sim->bodies().coordinate<NT>(bodies()[0], 0, origin);
  }
  void on_failure(kds::Simulator& s) override {
    ++failures;
    s.destroy(this);
  }
  const char* kind() const override { return "before"; }
  const kds::Simulator* sim;
  static inline int failures = 0;
};

TEST(Bodies, IdsCarryGenerations) {
  kds::Simulator sim;
  const BodyId a = sim.bodies().insert(Motion<1>::constant({1.0}));
  const BodyId b = sim.bodies().insert(Motion<2>::constant({1.0, 2.0}));
  EXPECT_EQ(sim.bodies().size(), 2u);
  EXPECT_EQ(sim.bodies().dimension(a), 1);
  EXPECT_EQ(sim.bodies().dimension(b), 2);
  sim.bodies().erase(a);
  EXPECT_FALSE(sim.bodies().contains(a));
  const BodyId early = sim.bodies().insert(Motion<1>::constant({3.0}));
  EXPECT_NE(early.index, a.index) << "not reused before the clock moves on";
  sim.run_until(1.0);
  const BodyId c = sim.bodies().insert(Motion<1>::constant({3.0}));
  EXPECT_EQ(c.index, a.index) << "indices are reused once the clock moved on";
  EXPECT_NE(c, a) << "with a new generation";
  EXPECT_EQ(message([&] { sim.bodies().erase(a); }),
            "Bodies::erase: body " + std::to_string(a.index) + " was erased (a stale id)");
  EXPECT_EQ(message([&] { sim.bodies().set_motion(a, Motion<1>::constant({0.0})); }),
            "Bodies::set_motion: body " + std::to_string(a.index) + " was erased (a stale id)");
  EXPECT_EQ(message([&] { sim.bodies().erase(BodyId::none()); }), "Bodies::erase: no body given (a default BodyId)");
  kds::Simulator other;
  const BodyId foreign = other.bodies().insert(Motion<1>::constant({0.0}));
  EXPECT_EQ(message([&] { sim.bodies().erase(foreign); }),
            "Bodies::erase: body " + std::to_string(foreign.index) + " belongs to another simulator");
  EXPECT_EQ(sim.bodies().size(), 3u) << "errors change nothing";
  std::vector<BodyId> seen;
  sim.bodies().for_each([&](BodyId id) { seen.push_back(id); });
  EXPECT_EQ(seen, (std::vector<BodyId>{c, b, early}));
}

TEST(Bodies, BadMotionsNameTheBody) {
  kds::Simulator sim;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(message([&] { sim.bodies().insert(Motion<1>::linear(0.0, {nan}, {1.0})); }),
            "Bodies::insert: new body: motion coefficient x[t^0] is NaN");
  const BodyId a = sim.bodies().insert(Motion<1>::linear(0.0, {0.0}, {1.0}));
  EXPECT_EQ(message([&] { sim.bodies().set_motion(a, Motion<1>::linear(0.0, {0.0}, {INFINITY})); }),
            "Bodies::set_motion: body " + std::to_string(a.index) + ": motion coefficient x[t^1] is +infinity");
  EXPECT_EQ(message([&] { sim.bodies().set_motion(a, Motion<2>::constant({0.0, 0.0})); }),
            "Bodies::set_motion: body " + std::to_string(a.index) + " has dimension 1, not 2");
  sim.run_until(1.0);
  EXPECT_NE(message([&] { sim.bodies().set_motion(a, Motion<1>::constant({0.0})); })
                .find("Bodies::set_motion: body " + std::to_string(a.index) + ": motion replaced at t = 0, before"),
            std::string::npos);
  EXPECT_EQ(sim.bodies().motion(a).position(2.0)[0], 2.0) << "the motion is unchanged";
}

TEST(Bodies, HeldOrCertifiedBodiesCannotBeErased) {
  kds::Simulator sim({.audit = true});
  const BodyId a = sim.bodies().insert(Motion<1>::linear(0.0, {0.0}, {1.0}));
  const BodyId b = sim.bodies().insert(Motion<1>::constant({5.0}));
  sim.bodies().hold(a);
  EXPECT_EQ(message([&] { sim.bodies().erase(a); }),
            "Bodies::erase: body " + std::to_string(a.index) + " is still held by 1 structure(s); remove it from them first");
  sim.bodies().release(a);
  Before* c = sim.create<Before>(a, b, sim);
  EXPECT_EQ(message([&] { sim.bodies().erase(b); }),
            "Bodies::erase: body " + std::to_string(b.index) + " still has certificates");
  EXPECT_TRUE(sim.bodies().contains(b));
  EXPECT_TRUE(sim.audit());
  sim.destroy(c);
  sim.bodies().erase(b);
  sim.bodies().erase(a);
  EXPECT_EQ(sim.bodies().size(), 0u);
}

TEST(Bodies, MotionChangeReschedulesExactlyTheBodysCertificates) {
  kds::Simulator sim({.audit = true});
  const BodyId a = sim.bodies().insert(Motion<1>::linear(0.0, {0.0}, {1.0}));
  const BodyId b = sim.bodies().insert(Motion<1>::constant({10.0}));
  const BodyId c = sim.bodies().insert(Motion<1>::constant({20.0}));
  const BodyId d = sim.bodies().insert(Motion<1>::constant({30.0}));
  Before::failures = 0;
  sim.create<Before>(a, b, sim);  // fails at t = 10
  sim.create<Before>(c, d, sim);  // never
  sim.run_until(0.5);
  EXPECT_EQ(sim.next_event_time(), kds::Root::at(10.0));
  const auto rescheduled = sim.statistics().certificates_rescheduled;
  std::vector<std::string> heard;
  const auto sub = sim.bodies().on_motion_change().subscribe([&](BodyId id) {
    heard.push_back("motion " + std::to_string(id.index));
    EXPECT_EQ(sim.next_event_time(), kds::Root::at(0.5 + 9.5 / 2)) << "rescheduled before the observers hear";
  });
  sim.bodies().set_motion(a, Motion<1>::linear(0.5, {0.5}, {2.0}));
  EXPECT_EQ(sim.statistics().certificates_rescheduled - rescheduled, 1u);
  EXPECT_EQ(heard, std::vector<std::string>{"motion " + std::to_string(a.index)});
  sim.bodies().on_motion_change().unsubscribe(sub);
  sim.bodies().set_motion(a, Motion<1>::linear(0.5, {0.5}, {2.0}));
  EXPECT_EQ(heard.size(), 1u) << "unsubscribed";
  // A change that violates a certificate now: it fails at once, at the rounded time.
  sim.run_until(1.0);
  sim.bodies().set_motion(c, Motion<1>::linear(1.0, {40.0}, {0.0}));
  EXPECT_TRUE(sim.step());
  EXPECT_EQ(Before::failures, 1);
  EXPECT_EQ(sim.now(), kds::Root::at(1.0));
}

TEST(Bodies, ObserversHearInsertAndErase) {
  kds::Simulator sim;
  std::vector<std::string> heard;
  sim.bodies().on_insert().subscribe([&](BodyId id) { heard.push_back("insert " + std::to_string(id.index)); });
  sim.bodies().on_erase().subscribe([&](BodyId id) {
    EXPECT_TRUE(sim.bodies().contains(id)) << "told before it goes";
    heard.push_back("erase " + std::to_string(id.index));
  });
  const BodyId a = sim.bodies().insert(Motion<3>::constant({1, 2, 3}));
  sim.bodies().erase(a);
  EXPECT_EQ(heard, (std::vector<std::string>{"insert 0", "erase 0"}));
}

TEST(Signal, UnsubscribingAndSubscribingWhileEmitting) {
  kds::Signal<int> signal;
  std::vector<std::string> calls;
  kds::SubscriptionId first = 0;
  first = signal.subscribe([&](int v) {
    calls.push_back("first " + std::to_string(v));
    signal.unsubscribe(first);  // itself, while running
    signal.subscribe([&](int w) { calls.push_back("late " + std::to_string(w)); });
  });
  signal.subscribe([&](int v) { calls.push_back("second " + std::to_string(v)); });
  signal.emit(1);
  signal.emit(2);
  EXPECT_EQ(calls, (std::vector<std::string>{"first 1", "second 1", "second 2", "late 2"}));
  EXPECT_EQ(message([&] { signal.unsubscribe(first); }),
            "unsubscribe: subscription " + std::to_string(first) + " is unknown (already unsubscribed?)");
}

}  // namespace
