// The simulator: step and run_until, statistics, observers, the audit catching a broken
// structure and a broken certificate, the logic_error for a handler that does nothing,
// a body's motion change rescheduling exactly that body's certificates, certificates
// violated at birth, and bad input (stale, unknown and foreign bodies, running into the past).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kds/errors.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "test_seed.hpp"

namespace {

using kds::Polynomial;
using kds::Rational;

::testing::AssertionResult contains(const std::string& text, const std::string& fragment) {
  if (text.find(fragment) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << fragment << "\"";
}

/// Fails at time `at` and then destroys itself.
class Timer final : public kds::Certificate<Timer> {
 public:
  Timer(kds::BodyId o, double at) : Certificate<Timer>({o}), at_(at) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return Polynomial<NT>{NT(NT(at_) - NT(origin)), NT(-1.0)};
  }
  void on_failure(kds::Simulator& sim) override {
    ++fired;
    sim.destroy(this);
  }
  const char* kind() const override { return "timer"; }
  int fired = 0;

 private:
  double at_;
};

/// Fails at `at`, and its handler forgets to destroy or reschedule it.
class Forgetful final : public kds::Certificate<Forgetful> {
 public:
  Forgetful(kds::BodyId a, kds::BodyId b, double at) : Certificate<Forgetful>({a, b}), at_(at) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return Polynomial<NT>{NT(NT(at_) - NT(origin)), NT(-1.0)};
  }
  void on_failure(kds::Simulator&) override {}
  const char* kind() const override { return "forgetful"; }

 private:
  double at_;
};

/// A certificate whose filter polynomials lie (constant 1) while the exact one is 1 - t.
class Liar final : public kds::CertificateBase {
 public:
  explicit Liar(kds::BodyId o) : CertificateBase({o}) {}
  Polynomial<kds::Interval> interval_polynomial(double) const override { return Polynomial<kds::Interval>(kds::Interval(1.0)); }
  Polynomial<double> double_polynomial(double) const override { return Polynomial<double>(1.0); }
  Polynomial<Rational> exact_polynomial() const override { return Polynomial<Rational>{Rational(1), Rational(-1)}; }
  void on_failure(kds::Simulator& sim) override { sim.destroy(this); }
  const char* kind() const override { return "liar"; }
};

/// A certificate that must hold when created (x_b - x_a for constant positions).
class Strict final : public kds::Certificate<Strict> {
 public:
  Strict(kds::BodyId a, kds::BodyId b, double gap, double slope)
      : Certificate<Strict>({a, b}), gap_(gap), slope_(slope) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return Polynomial<NT>{NT(NT(gap_) + NT(slope_) * NT(origin)), NT(slope_)};
  }
  void on_failure(kds::Simulator& sim) override { sim.destroy(this); }
  const char* kind() const override { return "strict"; }
  bool may_fail_at_birth() const override { return false; }

 private:
  double gap_, slope_;
};

/// Two points on a line and one order certificate between them: the smallest structure.
/// With `broken`, the handler drops the certificate without swapping (a bug the audit must see).
class PairStructure final : public kds::Structure {
 public:
  class Order final : public kds::Certificate<Order> {
   public:
    Order(PairStructure& s, kds::BodyId a, kds::BodyId b) : Certificate<Order>({a, b}), s_(&s) {}
    template <class NT>
    Polynomial<NT> function(double origin) const {
      return s_->position<NT>(bodies()[1], origin) - s_->position<NT>(bodies()[0], origin);
    }
    void on_failure(kds::Simulator& sim) override { s_->failed(*this, sim); }
    const char* kind() const override { return "pair order"; }

   private:
    PairStructure* s_;
  };

  PairStructure(kds::Simulator& sim, kds::Motion<1> a, kds::Motion<1> b, bool broken) : sim_(sim), broken_(broken) {
    ids_[0] = sim.bodies().insert(a);
    ids_[1] = sim.bodies().insert(b);
    cert_ = sim.create<Order>(*this, ids_[0], ids_[1]);
    sim.attach(*this);
  }
  ~PairStructure() override { sim_.detach(*this); }
  template <class NT>
  Polynomial<NT> position(kds::BodyId id, double origin) const {
    return sim_.bodies().coordinate<NT>(id, 0, origin);
  }
  void failed(Order& c, kds::Simulator& sim) {
    sim.destroy(&c);
    cert_ = nullptr;
    if (broken_) return;
    std::swap(first_, second_);
    cert_ = sim.create_vanishing_now<Order>(*this, ids_[first_], ids_[second_]);
  }
  const char* name() const override { return "pair"; }
  void audit(const kds::AuditContext& ctx) const override {
    Rational x0 = position<Rational>(ids_[first_], 0.0)(ctx.exact_time());
    Rational x1 = position<Rational>(ids_[second_], 0.0)(ctx.exact_time());
    if (x0 > x1) throw kds::AuditFailure("pair: points out of order at t = " + std::to_string(ctx.time));
  }
  int first() const { return first_; }

 private:
  kds::Simulator& sim_;
  bool broken_;
  kds::BodyId ids_[2];
  int first_ = 0, second_ = 1;
  Order* cert_ = nullptr;
};

/// A body at rest at the origin: the certificates of these tests do not read motions.
kds::BodyId add_body(kds::Simulator& sim) { return sim.bodies().insert(kds::Motion<1>::constant({0.0})); }

TEST(Simulator, StepRunUntilAndStatistics) {
  kds::Simulator sim;
  const kds::BodyId o = add_body(sim);
  std::vector<Timer*> timers;
  for (double at : {1.0, 2.0, 2.0, 3.0}) timers.push_back(sim.create<Timer>(o, at));
  EXPECT_EQ(sim.certificate_count(), 4u);
  EXPECT_EQ(kds::compare(sim.next_event_time(), 1.0), 0);
  sim.run_until(2.0);  // events at exactly 2 are processed too
  EXPECT_EQ(kds::compare(sim.now(), 2.0), 0);
  EXPECT_EQ(sim.pending_events(), 1u);
  EXPECT_EQ(sim.certificate_count(), 1u);
  sim.run_until(2.5);  // no event: the clock moves
  EXPECT_EQ(kds::compare(sim.now(), 2.5), 0);
  EXPECT_TRUE(sim.step());
  EXPECT_EQ(kds::compare(sim.now(), 3.0), 0);
  EXPECT_FALSE(sim.step());
  EXPECT_TRUE(sim.next_event_time().is_infinite());
  EXPECT_EQ(kds::compare(sim.now(), 3.0), 0) << "a step without event must not move the clock";
  const kds::Statistics& s = sim.statistics();
  EXPECT_EQ(s.events, 4u);
  EXPECT_EQ(s.events_of("timer"), 4u);
  EXPECT_EQ(s.events_of("order"), 0u);
  EXPECT_EQ(s.events_at_equal_times, 1u);
  EXPECT_EQ(s.certificates_created, 4u);
  EXPECT_EQ(s.certificates_destroyed, 4u);
  EXPECT_EQ(s.certificates_live, 0u);
  EXPECT_EQ(s.certificates_live_max, 4u);
  EXPECT_EQ(s.touched_total, 4u);  // each event destroyed one certificate
  EXPECT_EQ(s.touched_max, 1u);
  EXPECT_GE(s.solver.failure_computations, 4u);
  EXPECT_EQ(s.solver.failure_exact, 0u);
}

TEST(Simulator, RunUntilIntoThePastIsRejected) {
  kds::Simulator sim;
  sim.run_until(1.0);
  try {
    sim.run_until(0.5);
    FAIL() << "run_until into the past was accepted";
  } catch (const kds::InvalidInput& e) {
    EXPECT_TRUE(contains(e.what(), "run_until"));
    EXPECT_TRUE(contains(e.what(), "0.5"));
    EXPECT_TRUE(contains(e.what(), "before the current time 1"));
  }
  EXPECT_EQ(kds::compare(sim.now(), 1.0), 0);
  EXPECT_NO_THROW(sim.run_until(1.0));  // the present is fine
}

TEST(Simulator, ObserversSeeEveryEvent) {
  kds::Simulator sim;
  const kds::BodyId a = add_body(sim), b = add_body(sim);
  sim.create<Timer>(b, 2.0);
  sim.create<Timer>(a, 1.0);
  struct Log : kds::Observer {
    std::vector<std::pair<std::uint64_t, kds::BodyId>> seen;
    std::vector<double> times;
    void on_event(const kds::EventRecord& e) override {
      EXPECT_STREQ(e.kind, "timer");
      EXPECT_EQ(e.touched, 1u);
      seen.emplace_back(e.index, e.bodies[0]);
      times.push_back(e.time.approx());
    }
  } log;
  sim.add_observer(log);
  sim.run_until(10.0);
  ASSERT_EQ(log.seen.size(), 2u);
  EXPECT_EQ(log.seen[0], std::make_pair(std::uint64_t{0}, a));
  EXPECT_EQ(log.seen[1], std::make_pair(std::uint64_t{1}, b));
  ASSERT_EQ(log.times.size(), 2u);
  EXPECT_NEAR(log.times[0], 1.0, 1e-15);
  EXPECT_NEAR(log.times[1], 2.0, 1e-15);
  sim.remove_observer(log);
}

TEST(Simulator, HandlerThatNeitherDestroysNorReschedulesIsALogicError) {
  kds::Simulator sim;
  const kds::BodyId a = add_body(sim), b = add_body(sim);
  sim.create<Forgetful>(a, b, 1.0);
  try {
    sim.step();
    FAIL() << "no logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_TRUE(contains(e.what(), "certificate 'forgetful' on bodies [0, 1]"));
    EXPECT_TRUE(contains(e.what(), "neither destroyed nor rescheduled"));
  }
}

TEST(Simulator, AuditCatchesABrokenStructure) {
  for (bool broken : {false, true}) {
    kds::Simulator sim({.audit = true});
    // a starts left of b and overtakes it at t = 1.
    PairStructure pair(sim, kds::Motion<1>::linear(0, {0.0}, {2.0}), kds::Motion<1>::linear(0, {1.0}, {1.0}), broken);
    if (!broken) {
      EXPECT_NO_THROW(sim.run_until(5.0));
      EXPECT_EQ(pair.first(), 1);
      EXPECT_GE(sim.statistics().audits, 2u);
    } else {
      try {
        sim.run_until(5.0);
        FAIL() << "the audit missed a structure that does not repair itself";
      } catch (const kds::AuditFailure& e) {
        EXPECT_TRUE(contains(e.what(), "pair: points out of order"));
      }
    }
  }
}

TEST(Simulator, AuditCatchesACertificateWhoseFilterLies) {
  kds::Simulator sim({.audit = true});
  const kds::BodyId o = add_body(sim), p = add_body(sim);
  sim.create<Liar>(o);           // really fails at 1, but the filter says never
  sim.create<Timer>(p, 3.0);     // an event after it, so that step() audits
  try {
    sim.step();  // the timer at 3: the audit after it sees the liar negative
    FAIL() << "the audit missed a violated certificate";
  } catch (const kds::AuditFailure& e) {
    EXPECT_TRUE(contains(e.what(), "certificate 'liar' on bodies [0] is violated"));
    EXPECT_TRUE(contains(e.what(), "an event was missed"));
  }
  // Without audit, the same run goes through silently.
  kds::Simulator quiet;
  const kds::BodyId q = add_body(quiet);
  quiet.create<Liar>(q);
  EXPECT_NO_THROW(quiet.run_until(3.0));
}

TEST(Simulator, AuditIsSkippedWithoutRoomBetweenEvents) {
  kds::Simulator sim;
  const kds::BodyId o = add_body(sim);
  sim.create<Timer>(o, 0.0);
  sim.create<Timer>(o, std::numeric_limits<double>::denorm_min());
  EXPECT_FALSE(sim.audit());  // no double strictly between 0 and the next event
  EXPECT_EQ(sim.statistics().audits_skipped, 1u);
  sim.run_until(1.0);
  EXPECT_TRUE(sim.audit());
}

/// Counts how often the framework evaluates it.
class Probe final : public kds::Certificate<Probe> {
 public:
  Probe(kds::BodyId a, kds::BodyId b, double at) : Certificate<Probe>({a, b}), at_(at) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    ++evaluations;
    return Polynomial<NT>{NT(NT(at_) - NT(origin)), NT(-1.0)};
  }
  void on_failure(kds::Simulator& sim) override { sim.destroy(this); }
  const char* kind() const override { return "probe"; }
  mutable int evaluations = 0;
  /// Renews the probe in place: new bodies and a new failure time.
  void move_to(kds::Simulator& sim, const kds::BodyList& bodies, double at) {
    sim.renew(this, bodies, [&] { at_ = at; });
  }

 private:
  double at_;
};

std::vector<const kds::CertificateBase*> certificates_of(const kds::Simulator& sim, kds::BodyId b) {
  std::vector<const kds::CertificateBase*> out;
  for (const kds::BodyLink& l : sim.bodies().certificates_of(b)) out.push_back(l.owner());
  return out;
}

TEST(Simulator, RenewMovesBodyLinksAndSchedulesLikeANewCertificate) {
  kds::Simulator sim;
  const kds::BodyId a = add_body(sim), b = add_body(sim), c = add_body(sim), d = add_body(sim);
  Probe* p = sim.create<Probe>(a, b, 5.0);
  Probe* q = sim.create<Probe>(c, d, 3.0);
  sim.flush();
  const std::uint32_t id = p->id();
  const auto stats = sim.statistics();
  // {a, b} -> {a, c}: a keeps its link, b loses it, c gains it.
  p->move_to(sim, {a, c}, 2.0);
  sim.flush();
  EXPECT_EQ(p->id(), id);
  EXPECT_GT(p->sequence(), q->sequence()) << "a renewed certificate is younger than every older one";
  EXPECT_EQ(p->tie_key(), p->sequence());
  EXPECT_EQ(certificates_of(sim, a), std::vector<const kds::CertificateBase*>{p});
  EXPECT_TRUE(certificates_of(sim, b).empty());
  EXPECT_EQ(certificates_of(sim, c).size(), 2u);
  EXPECT_EQ(kds::compare(p->failure_time(), 2.0), 0);
  EXPECT_EQ(sim.statistics().certificates_renewed, stats.certificates_renewed + 1);
  EXPECT_EQ(sim.statistics().certificates_created, stats.certificates_created);
  EXPECT_EQ(sim.pending_events(), 2u);
  // A different number of bodies: {a, c} -> {b, c, d}.
  p->move_to(sim, {b, c, d}, 4.0);
  sim.flush();
  EXPECT_TRUE(certificates_of(sim, a).empty());
  EXPECT_EQ(certificates_of(sim, b), std::vector<const kds::CertificateBase*>{p});
  EXPECT_EQ(certificates_of(sim, d).size(), 2u);
  // A motion change of d reschedules it: the links are live.
  const auto rescheduled = sim.statistics().certificates_rescheduled;
  sim.bodies().set_motion(d, kds::Motion<1>::constant({1.0}));
  EXPECT_EQ(sim.statistics().certificates_rescheduled, rescheduled + 2);
  // It fires at its new time, after q.
  ASSERT_TRUE(sim.step());
  EXPECT_EQ(kds::compare(sim.now(), 3.0), 0);
  ASSERT_TRUE(sim.step());
  EXPECT_EQ(kds::compare(sim.now(), 4.0), 0);
  EXPECT_EQ(sim.pending_events(), 0u);
  EXPECT_TRUE(certificates_of(sim, b).empty());
}

TEST(Simulator, RenewWithABadBodyChangesNothing) {
  kds::Simulator sim;
  const kds::BodyId a = add_body(sim), b = add_body(sim), gone = add_body(sim);
  sim.bodies().erase(gone);
  Probe* p = sim.create<Probe>(a, b, 5.0);
  sim.flush();
  EXPECT_THROW(p->move_to(sim, {a, gone}, 1.0), kds::InvalidInput);
  sim.flush();
  EXPECT_EQ(kds::compare(p->failure_time(), 5.0), 0);
  EXPECT_EQ(certificates_of(sim, b), std::vector<const kds::CertificateBase*>{p});
  EXPECT_EQ(sim.pending_events(), 1u);
  sim.destroy(p);
  EXPECT_THROW(p->move_to(sim, {a, b}, 1.0), std::logic_error);
}

TEST(Simulator, SetMotionReschedulesExactlyThatBodysCertificates) {
  kds::Simulator sim;
  std::vector<kds::BodyId> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(add_body(sim));
  std::vector<Probe*> probes;
  for (int i = 0; i + 1 < 5; ++i) probes.push_back(sim.create<Probe>(ids[i], ids[i + 1], 10.0 + i));
  sim.flush();
  // The intrusive list of body 2 holds exactly the certificates (1,2) and (2,3).
  std::vector<const kds::CertificateBase*> of2;
  for (const kds::BodyLink& l : sim.bodies().certificates_of(ids[2])) of2.push_back(l.owner());
  ASSERT_EQ(of2.size(), 2u);
  EXPECT_NE(std::find(of2.begin(), of2.end(), probes[1]), of2.end());
  EXPECT_NE(std::find(of2.begin(), of2.end(), probes[2]), of2.end());
  for (Probe* p : probes) p->evaluations = 0;
  const auto rescheduled = sim.statistics().certificates_rescheduled;
  sim.run_until(0.5);
  std::vector<kds::BodyId> told;
  sim.bodies().on_motion_change().subscribe([&](kds::BodyId b) {
    told.push_back(b);
    EXPECT_EQ(sim.statistics().certificates_rescheduled, rescheduled + 2) << "observers hear after the reschedule";
  });
  sim.bodies().set_motion(ids[2], kds::Motion<1>::linear(0.5, {1.0}, {-1.0}));
  EXPECT_EQ(told, std::vector<kds::BodyId>{ids[2]});
  sim.flush();
  EXPECT_EQ(probes[0]->evaluations, 0);
  EXPECT_GT(probes[1]->evaluations, 0);
  EXPECT_GT(probes[2]->evaluations, 0);
  EXPECT_EQ(probes[3]->evaluations, 0);
  EXPECT_EQ(sim.statistics().certificates_rescheduled, rescheduled + 2);
  EXPECT_EQ(sim.bodies().motion(ids[2]).position(1.5)[0], 0.0);
  // A destroyed certificate leaves its bodies' lists.
  sim.run_until(11.5);  // probes 0 and 1 fire
  std::size_t n = 0;
  for (const kds::BodyLink& l : sim.bodies().certificates_of(ids[2])) {
    EXPECT_EQ(l.owner(), probes[2]);
    ++n;
  }
  EXPECT_EQ(n, 1u);
  EXPECT_TRUE(sim.bodies().certificates_of(ids[0]).empty());
  // A stale id changes nothing.
  sim.bodies().erase(ids[0]);
  EXPECT_THROW(sim.bodies().set_motion(ids[0], kds::Motion<1>::constant({0.0})), kds::InvalidInput);
  EXPECT_EQ(told.size(), 1u);
}

TEST(Simulator, CertificateViolatedAtBirthWhereForbidden) {
  kds::Simulator sim;
  const kds::BodyId a = add_body(sim), b = add_body(sim);
  sim.run_until(2.0);
  // Holds at 2 with equality and grows: allowed.
  sim.create<Strict>(a, b, -2.0, 1.0);
  EXPECT_NO_THROW(sim.flush());
  // gap -1 at t = 0, slope 0: violated at 2.
  sim.create<Strict>(a, b, -1.0, 0.0);
  try {
    sim.flush();
    FAIL() << "a violated certificate was accepted";
  } catch (const kds::CertificateViolated& e) {
    EXPECT_TRUE(contains(e.what(), "certificate 'strict' on bodies [0, 1]"));
    EXPECT_TRUE(contains(e.what(), "violated when created at t = 2"));
  }
  // Zero now and falling: violated too, from step().
  kds::Simulator sim2;
  const kds::BodyId c = add_body(sim2), d = add_body(sim2);
  sim2.create<Strict>(c, d, 0.0, -1.0);
  EXPECT_THROW(sim2.step(), kds::CertificateViolated);
}

TEST(Simulator, ViolatedAtBirthFailsNow) {
  kds::Simulator sim;
  const kds::BodyId e = add_body(sim);
  sim.run_until(5.0);
  sim.create<Timer>(e, 1.0);  // in the past
  ASSERT_TRUE(sim.step());
  EXPECT_EQ(kds::compare(sim.now(), 5.0), 0);
  EXPECT_EQ(sim.statistics().events, 1u);
}

TEST(Simulator, BadBodies) {
  kds::Simulator sim;
  const kds::BodyId a = add_body(sim);
  try {
    sim.create<Timer>(kds::BodyId{a.index + 7, a.generation}, 1.0);
    FAIL();
  } catch (const kds::InvalidInput& e) {
    EXPECT_TRUE(contains(e.what(), "creating certificate 'timer' on bodies [7]: body 7 does not exist"));
  }
  kds::Simulator other;
  const kds::BodyId foreign = add_body(other);
  try {
    sim.create<Timer>(foreign, 1.0);
    FAIL();
  } catch (const kds::InvalidInput& e) {
    EXPECT_TRUE(contains(e.what(), "body 0 belongs to another simulator"));
  }
  EXPECT_EQ(sim.certificate_count(), 0u) << "a rejected certificate must not be kept";
  sim.create<Timer>(a, 1.0);
  try {
    sim.bodies().erase(a);
    FAIL();
  } catch (const kds::InvalidInput& e) {
    EXPECT_TRUE(contains(e.what(), "Bodies::erase: body 0 still has certificates"));
  }
  EXPECT_TRUE(sim.bodies().contains(a));
  sim.run_until(2.0);
  EXPECT_NO_THROW(sim.bodies().erase(a));
  EXPECT_EQ(sim.bodies().size(), 0u);
  EXPECT_FALSE(sim.bodies().contains(a));
  // The index is reused once the clock moves on, with a new generation: the old id is
  // stale, not the new body.
  EXPECT_NE(add_body(sim).index, a.index) << "not reused at the time it was erased";
  sim.run_until(2.5);
  const kds::BodyId b = add_body(sim);
  EXPECT_EQ(b.index, a.index);
  try {
    sim.create<Timer>(a, 3.0);
    FAIL();
  } catch (const kds::InvalidInput& e) {
    EXPECT_TRUE(contains(e.what(), "body 0 was erased (a stale id)"));
  }
  EXPECT_THROW(sim.bodies().erase(a), kds::InvalidInput);
  EXPECT_TRUE(sim.bodies().contains(b));
}

}  // namespace
