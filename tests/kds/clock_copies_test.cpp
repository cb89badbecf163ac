// Copies of the clock stay exact when what the clock's source reads changes at the same
// instant.
//
// A certificate violated when it is created fails now: its failure time is a copy of the
// clock, an isolating interval whose exact value is computed, when needed, from the
// clock's source (the certificate whose failure started this instant). A structure that
// changes data that source reads pins the clock first (Simulator::pin_clock): the copies
// made earlier at the instant must get the same exact value, or a comparison that needs
// it reads the changed function, whose root is elsewhere.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "kds/solver.hpp"

namespace {

using kds::Polynomial;

/// Certificates whose function is c - 3t for a c they read from the test (as an order
/// certificate reads its owner's keys). Two of them with one c are one linear function,
/// and say so (Function::same_linear_function), so that their common root 1/3 (not a
/// double: an isolating interval) is never computed exactly while they are queued.
struct ReadsC {
  virtual ~ReadsC() = default;
  virtual double c() const = 0;
};

template <class Derived>
class Falling : public kds::Certificate<Derived>, public ReadsC {
 public:
  Falling(kds::BodyId b, const double& c) : kds::Certificate<Derived>({b}), c_(&c) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return Polynomial<NT>{NT(NT(*c_) - NT(3.0) * NT(origin)), NT(-3.0)};  // c - 3 (origin + s)
  }
  bool same_linear_function(const kds::Function& other) const override {
    const auto* o = dynamic_cast<const ReadsC*>(&other);
    return o != nullptr && o->c() == c();
  }
  double c() const override { return *c_; }

 private:
  const double* c_;
};

/// Negative always: fails when created, at a copy of the clock.
class AlreadyBroken final : public kds::Certificate<AlreadyBroken> {
 public:
  explicit AlreadyBroken(kds::BodyId b) : Certificate<AlreadyBroken>({b}) {}
  template <class NT>
  Polynomial<NT> function(double) const {
    return Polynomial<NT>(NT(-1.0));
  }
  void on_failure(kds::Simulator& sim) override { sim.destroy(this); }
  const char* kind() const override { return "broken"; }
};

/// The first to fail at 1/3: creates a certificate violated at birth (its failure time a
/// copy of the clock, whose source is this one) and goes.
class First final : public Falling<First> {
 public:
  /// `exact_first`: have the clock's exact value computed before the copy is taken (as a
  /// comparison with a root it cannot tell apart would), without pinning it.
  First(kds::BodyId b, const double& c, AlreadyBroken*& made, bool exact_first = false)
      : Falling<First>(b, c), made_(&made), exact_first_(exact_first) {}
  void on_failure(kds::Simulator& sim) override {
    if (exact_first_) {
      (void)sim.now().exact();
      EXPECT_FALSE(sim.now().pinned());
    }
    *made_ = sim.create<AlreadyBroken>(bodies()[0]);
    sim.destroy(this);
  }
  const char* kind() const override { return "first"; }

 private:
  AlreadyBroken** made_;
  bool exact_first_;
};

/// Fails at 1/3 too, after First: changes the c that First reads (pinning the clock
/// first, as the contract asks), then runs the test's check.
class Changer final : public Falling<Changer> {
 public:
  Changer(kds::BodyId b, const double& c, double& first_c, std::function<void()> check)
      : Falling<Changer>(b, c), first_c_(&first_c), check_(std::move(check)) {}
  void on_failure(kds::Simulator& sim) override {
    sim.pin_clock();
    *first_c_ = 2.0;  // First's function is now 2 - 3t: its root is 2/3
    check_();
    sim.destroy(this);
  }
  const char* kind() const override { return "changer"; }

 private:
  double* first_c_;
  std::function<void()> check_;
};

TEST(ClockCopies, StayExactWhenTheClocksSourceChangesLaterAtTheSameInstant) {
  kds::Simulator sim;
  const kds::BodyId b = sim.bodies().insert(kds::Motion<1>::constant({0.0}));
  double first_c = 1.0;
  const double one = 1.0;
  AlreadyBroken* broken = nullptr;
  int order = 99;
  bool copy_was_queued = false;
  // (1 - 3t)(1 + t): its first failure after 0 is 1/3 too, isolated on its own.
  const auto witness = kds::make_function([]<class NT>(double origin) {
    return Polynomial<NT>{NT(NT(1.0) - NT(3.0) * NT(origin)), NT(-3.0)} *
           Polynomial<NT>{NT(NT(1.0) + NT(origin)), NT(1.0)};
  });
  sim.create<First>(b, first_c, broken);
  sim.create<Changer>(b, one, first_c, [&] {
    ASSERT_NE(broken, nullptr);
    const kds::Root& copy = broken->failure_time();
    copy_was_queued = !copy.is_infinite() && !copy.is_point();
    order = kds::compare(copy, kds::first_failure(witness, kds::Root::at(0.0)));
  });
  sim.run_until(0.5);
  EXPECT_TRUE(copy_was_queued) << "the broken certificate was to be queued at a copy of the clock";
  // Equal: both are 1/3. Computed from First's changed function, the copy would have been
  // narrowed away from 1/3 (its function positive there), or its exact value sought in an
  // interval that holds no root of 2 - 3t (a logic_error).
  EXPECT_EQ(order, 0);
  EXPECT_EQ(sim.statistics().events, 3u);
}

/// A copy taken when the clock's exact value is known but the clock is not pinned: its
/// source is still read as the clock's function (Function::same_or_negated), so the pin
/// that comes before the source changes must reach the copy too (Root::pinned).
TEST(ClockCopies, APinReachesCopiesTakenAfterTheExactValueWasComputed) {
  kds::Simulator sim;
  const kds::BodyId b = sim.bodies().insert(kds::Motion<1>::constant({0.0}));
  double first_c = 1.0;
  const double one = 1.0;
  AlreadyBroken* broken = nullptr;
  bool copy_queued = false, copy_pinned = false, copy_exact = false;
  sim.create<First>(b, first_c, broken, true);
  sim.create<Changer>(b, one, first_c, [&] {
    ASSERT_NE(broken, nullptr);
    const kds::Root& copy = broken->failure_time();
    copy_queued = !copy.is_infinite() && !copy.is_point() && copy.source() == sim.now().source();
    copy_pinned = copy.pinned();
    copy_exact = copy.has_exact();
  });
  sim.run_until(0.5);
  EXPECT_TRUE(copy_queued) << "the broken certificate was to be queued at a copy of the clock";
  EXPECT_TRUE(copy_exact);
  EXPECT_TRUE(copy_pinned) << "the clock was pinned before First's function changed: so must its copy be";
  EXPECT_EQ(sim.statistics().events, 3u);
}

}  // namespace
