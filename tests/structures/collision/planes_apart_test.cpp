// PlaneSide::holds_before (certificates/plane_side.hpp): a time t such that a moving bound
// (linear centre, radius r + A/2 (t - t0)^2 or fixed) certainly stays on its side of an
// axis-aligned plane on [now, t): after the horizon ("apart": no failure time is computed)
// or before it (the simulator defers the failure time to t). Checked against two exact
// oracles on the same function: the first failure from the exact path (GMP and CGAL,
// without the filter), and, the function being a quadratic with rational coefficients,
// its sign in rationals at the ends of [now, t) and at its vertex. Random bounds and
// planes (every reach and side, fixed radii, allowances, clocks at doubles and at
// irrational roots), and the degenerate cases: a tangency at the horizon, a touching root
// of the reaching kind, touching now, moving parallel to the plane, events at time 0, a
// horizon at now; no answer without a horizon, without the owner's fast path, or for a
// centre that is not linear. Then a simulator over many such certificates gives the same
// events at the same exact times with deferral on and off.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "certificates/plane_side.hpp"
#include "kds/exact/algebraic.hpp"
#include "kds/motion.hpp"
#include "kds/number_types.hpp"
#include "kds/observer.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/bound.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

/// One sphere: its centre's motion and its bound (body 0).
struct Sphere1 {
  Motion<3> motion = Motion<3>::constant({0, 0, 0});
  Bound bound;
};

/// The owner interface without the fast path: nothing is proven.
struct GenericOwner {
  const Sphere1* s;
  template <class NT>
  Polynomial<NT> centre(BodyId, int axis, double origin) const {
    return s->motion.coordinate<NT>(axis, origin);
  }
  template <class NT>
  Polynomial<NT> radius(BodyId, double origin) const {
    return s->bound.radius_polynomial<NT>(origin);
  }
  void plane_crossed(PlaneSide<GenericOwner>&, Simulator&) {}
};

/// With the fast path, as CollisionWorld and TvbGrid offer it.
struct FastOwner : GenericOwner {
  explicit FastOwner(const Sphere1* sphere) : GenericOwner{sphere} {}
  template <class NT>
  bool centre_line(BodyId, int axis, double origin, Line<NT>& out) const {
    return s->motion.coordinate_line<NT>(axis, origin, out);
  }
  template <class NT>
  ShortPolynomial<NT> short_radius(BodyId, double origin) const {
    return s->bound.radius_polynomial<NT, ShortPolynomial<NT>>(origin);
  }
  void plane_crossed(PlaneSide<FastOwner>&, Simulator&) {}
};

/// A plane certificate as the world and the grid make them.
struct Plane {
  int axis = 0;
  double plane = 0;
  int side = 1, reach = -1;
  double allowance = 0;
  double fixed_radius = -1;  // < 0: the bound's radius
};

template <class Owner>
std::unique_ptr<PlaneSide<Owner>> certificate(Owner& owner, const Plane& p) {
  auto c = std::make_unique<PlaneSide<Owner>>(owner, BodyId{0, 0}, p.axis, p.plane, p.side, "test", 1, p.reach,
                                              p.allowance);
  if (p.fixed_radius >= 0) c->set_fixed_radius(p.fixed_radius);
  return c;
}

/// Whether the quadratic (or lower) p is positive at every time of [lo, hi), exactly: at
/// lo, at its vertex if that lies within, and not negative at hi.
bool positive_on(const Polynomial<Rational>& p, const Rational& lo, const Rational& hi) {
  EXPECT_LE(p.degree(), 2);
  if (sgn(p(lo)) <= 0) return false;
  if (sgn(p(hi)) < 0) return false;
  if (p.degree() == 2 && sgn(p[2]) > 0) {
    const Rational v = -p[1] / (Rational(2) * p[2]);
    if (v > lo && v < hi && sgn(p(v)) <= 0) return false;
  }
  return true;
}

struct Tally {
  int apart = 0, deferred = 0, nothing = 0;
};

enum class Answer { apart, deferred, nothing };

/// Checks holds_before of the plane certificate at `now` against `horizon`.
Answer check(const Sphere1& s, const Plane& p, const Root& now, double horizon, Tally& tally) {
  FastOwner owner(&s);
  const auto c = certificate(owner, p);
  const Polynomial<Rational> exact_f = c->exact_polynomial();
  const Root exact = exact::first_failure(exact_f, now);  // no horizon, no filter: the first failure
  const double t = c->holds_before(now, horizon);
  // Positivity is checked from now.hi() (a double at or after the clock) on.
  if (t > horizon) {
    ++tally.apart;
    EXPECT_EQ(t, next_up(horizon)) << "apart is answered as next_up(horizon)";
    EXPECT_TRUE(exact.is_infinite() || compare(exact, horizon) > 0)
        << "holds_before said apart until " << horizon << " but the plane is crossed at " << exact;
    EXPECT_TRUE(positive_on(exact_f, Rational(now.hi()), Rational(horizon)) && sgn(exact_f(Rational(horizon))) > 0)
        << "apart until " << horizon << " but not positive up to it";
    return Answer::apart;
  }
  if (t > now.hi()) {
    ++tally.deferred;
    EXPECT_TRUE(exact.is_infinite() || compare(exact, t) >= 0)
        << "holds_before said it holds before " << t << " but the plane is crossed at " << exact;
    EXPECT_TRUE(positive_on(exact_f, Rational(now.hi()), Rational(t))) << "not positive on [now, " << t << ")";
    return Answer::deferred;
  }
  ++tally.nothing;
  // A time at or before the clock claims nothing the simulator uses, but it must still be
  // true (or -infinity).
  if (t > now.lo()) EXPECT_TRUE(exact.is_infinite() || compare(exact, t) >= 0);
  return Answer::nothing;
}

/// A random bound and a plane near it at `now`: the value of the function there is `gap`.
void random_case(std::mt19937_64& rng, int round, Sphere1& s, Plane& p, double& now_double) {
  std::uniform_real_distribution<double> u(-1, 1);
  auto unit = [&] { return std::fabs(u(rng)); };
  const double t0 = round % 4 == 0 ? 0.0 : 10 * unit();
  Vec<3> x{30 * u(rng), 30 * u(rng), 30 * u(rng)}, v{20 * u(rng), 20 * u(rng), 20 * u(rng)};
  p.axis = static_cast<int>(rng() % 3);
  if (round % 7 == 0) v[static_cast<std::size_t>(p.axis)] = 0;  // moving parallel to the plane
  if (round % 11 == 0) v = {0, 0, 0};                            // at rest
  s.motion = Motion<3>::linear(t0, x, v);
  s.bound.radius = 0.1 + 10 * unit();
  s.bound.acceleration = round % 5 == 0 ? 0 : 10 + 10 * unit();
  s.bound.reset_time = t0;
  now_double = round % 6 == 0 ? t0 : t0 + unit();
  p.side = rng() % 2 == 0 ? 1 : -1;
  p.reach = static_cast<int>(rng() % 3) - 1;
  p.allowance = round % 9 == 0 ? 1e-9 * unit() : 0;
  p.fixed_radius = round % 10 == 0 ? 0.5 + 5 * unit() : -1;
  // The plane where the function's value now is about `gap` (violated now every 13th round,
  // touching every 19th up to rounding).
  const double gap = round % 13 == 0 ? -unit() : round % 19 == 0 ? 0.0 : (round % 3 == 0 ? 20 : 2) * unit();
  const double r = p.fixed_radius >= 0 ? p.fixed_radius : s.bound.radius_at(now_double);
  const double c = s.motion.position(now_double)[static_cast<std::size_t>(p.axis)];
  // side (c - plane) + reach r = gap
  p.plane = c - p.side * (gap - p.reach * r);
}

TEST(PlanesApart, NeverClaimsMoreThanTheExactFailure) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Tally tally;
  int irrational = 0;
  for (int round = 0; round < 4000; ++round) {
    Sphere1 s;
    Plane p;
    double now = 0;
    random_case(rng, round, s, p, now);
    const double horizon = now + (round % 17 == 0 ? 0 : 2 * u(rng));
    SCOPED_TRACE("round " + std::to_string(round));
    if (round % 8 == 3 && now > 0) {
      // The clock at an irrational time just after `now`: the root of (t - now)^2 = d.
      const Rational d(0.001 * (1 + u(rng)));
      const Root irr = exact::first_failure(Polynomial<Rational>{d - Rational(now) * Rational(now),
                                                                 Rational(2) * Rational(now), Rational(-1)},
                                            Root::at(now));
      ASSERT_FALSE(irr.is_infinite());
      ASSERT_FALSE(irr.is_point());
      ++irrational;
      check(s, p, irr, std::fmax(horizon, irr.hi()), tally);
    } else {
      check(s, p, Root::at(now), horizon, tally);
    }
    // Without a horizon nothing is claimed.
    FastOwner owner(&s);
    EXPECT_EQ(certificate(owner, p)->holds_before(Root::at(now), inf), -inf);
  }
  std::printf("[ planes   ] of %d planes (%d at irrational clocks): %d apart until the horizon, %d held until a time "
              "before it, %d neither\n",
              tally.apart + tally.deferred + tally.nothing, irrational, tally.apart, tally.deferred, tally.nothing);
  // Something to test: every answer occurs often.
  EXPECT_GT(tally.apart, 500);
  EXPECT_GT(tally.deferred, 500);
  EXPECT_GT(tally.nothing, 200);
  EXPECT_GT(irrational, 300);
}

// A bound at rest below the plane x = 5, radius 1 + 4 t^2: it reaches the plane exactly at
// t = 1 (f = 4 - 4 t^2). Apart until any horizon before 1, never until 1 or later; the
// deferral time is within rounding of 1.
TEST(PlanesApart, TangencyAtTheHorizon) {
  Sphere1 s;
  s.bound = Bound{1, 8, 0};
  const Plane p{0, 5.0, -1, -1};
  Tally tally;
  EXPECT_EQ(check(s, p, Root::at(0), 0.5, tally), Answer::apart);
  EXPECT_EQ(check(s, p, Root::at(0), 0.999, tally), Answer::apart);
  check(s, p, Root::at(0), next_down(1.0), tally);  // either answer, but never a wrong "apart"
  EXPECT_EQ(check(s, p, Root::at(0), 1.0, tally), Answer::deferred);
  EXPECT_EQ(check(s, p, Root::at(0), 2.0, tally), Answer::deferred);
  FastOwner owner(&s);
  const double t = certificate(owner, p)->holds_before(Root::at(0), 2.0);
  EXPECT_LE(t, 1.0);
  EXPECT_GT(t, 1.0 - 1e-14);
  // The same on the other side, the bound closing in head on with a constant radius:
  // centre 10 at speed -4, radius 2, the plane x = 0 (side +1): f = 8 - 4 t, crossed at 2.
  s.motion = Motion<3>::linear(0, {10, 0, 0}, {-4, 0, 0});
  s.bound = Bound{2, 0, 0};
  const Plane q{0, 0.0, 1, -1};
  EXPECT_EQ(check(s, q, Root::at(0), 1.5, tally), Answer::apart);
  EXPECT_EQ(check(s, q, Root::at(0), 2.0, tally), Answer::deferred);
  // Reaching across (reach +1): the bound's bottom x = c - r(t) = -4 t - 1 - t^2 stays below
  // the plane x = -3 as f = (c + 3) + r = (t - 2)^2, which touches zero at t = 2 without
  // crossing: no failure ever, but not positive at 2, so nothing is claimed up to 2 or past it.
  s.motion = Motion<3>::linear(0, {0, 0, 0}, {-4, 0, 0});
  s.bound = Bound{1, 2, 0};
  const Plane touching{0, -3.0, 1, 1};
  EXPECT_EQ(check(s, touching, Root::at(0), 1.5, tally), Answer::apart);
  EXPECT_EQ(check(s, touching, Root::at(0), 3.0, tally), Answer::deferred);
  EXPECT_LE(certificate(owner, touching)->holds_before(Root::at(0), 3.0), 2.0);
}

// Touching the plane now (f(now) = 0): nothing, whatever the horizon and the motion (the
// negation of a face just crossed is created so).
TEST(PlanesApart, TouchingNow) {
  Sphere1 s;
  s.bound = Bound{1, 8, 0};
  Tally tally;
  for (double v : {-1.0, 0.0, 1.0})
    for (int reach : {-1, 1}) {
      s.motion = Motion<3>::linear(0, {0, 0, 0}, {v, 0, 0});
      // Below x = 1 (its top touches it) or reaching above x = 1 (its top is on it): f(0) = 0.
      const Plane p{0, 1.0, reach < 0 ? -1 : 1, reach};
      for (double horizon : {0.0, 1e-300, 1.0, 1e300}) EXPECT_EQ(check(s, p, Root::at(0), horizon, tally), Answer::nothing);
    }
  // ... the bound of radius 1 + 4 t^2 at rest reaches the plane x = 3 at t = sqrt(1/2): with
  // the clock there, the function vanishes now, and nothing is claimed.
  s.motion = Motion<3>::linear(0, {0, 0, 0}, {0, 0, 0});
  const Plane p{0, 3.0, -1, -1};
  FastOwner owner(&s);
  const Root meet = first_failure(*certificate(owner, p), Root::at(0));
  ASSERT_FALSE(meet.is_point());
  const Plane negation{0, 3.0, 1, 1};  // the bound keeps reaching across x = 3
  EXPECT_EQ(check(s, negation, meet, 2.0, tally), Answer::nothing);
}

// Moving parallel to the plane: with a fixed radius (a polytope's wall) or a constant bound
// it holds for ever; with a growing bound until the radius reaches the gap.
TEST(PlanesApart, MovingParallel) {
  Sphere1 s;
  s.motion = Motion<3>::linear(0, {0, 0, 0}, {0, 3, -7});
  Tally tally;
  Plane p{0, 4.0, -1, -1};
  s.bound = Bound{1, 0, 0};
  EXPECT_EQ(check(s, p, Root::at(0), 1e300, tally), Answer::apart);
  s.bound = Bound{1, 6, 0};  // 1 + 3 t^2 reaches 4 at t = 1
  p.fixed_radius = 2;
  EXPECT_EQ(check(s, p, Root::at(0), 1e300, tally), Answer::apart);
  p.fixed_radius = -1;
  EXPECT_EQ(check(s, p, Root::at(0), 0.99, tally), Answer::apart);
  EXPECT_EQ(check(s, p, Root::at(0), 1.0, tally), Answer::deferred);
  // On the centre alone (reach 0): never.
  p.reach = 0;
  EXPECT_EQ(check(s, p, Root::at(0), 1e300, tally), Answer::apart);
}

// Events at time 0: the clock at 0, bounds reset at 0, horizons at 0, subnormal and huge.
TEST(PlanesApart, AtTimeZero) {
  Sphere1 s;
  s.motion = Motion<3>::linear(0, {1, 0, 0}, {-1, 0, 0});
  s.bound = Bound{0.5, 1, 0};
  const Plane p{0, 0.0, 1, -1};  // f = 0.5 - t - t^2 / 2
  Tally tally;
  for (double horizon : {0.0, 4.9e-324, 1e-300, 0.1, 0.4, 1.0, 1e300}) {
    SCOPED_TRACE(horizon);
    check(s, p, Root::at(0), horizon, tally);
  }
  EXPECT_GT(tally.apart, 3);
  EXPECT_GT(tally.deferred, 1);
  // A horizon at the clock: apart up to it (f(0) > 0), never deferred.
  EXPECT_EQ(check(s, p, Root::at(0), 0.0, tally), Answer::apart);
}

// Nothing without the fast path, or for a centre that is not linear (a ballistic sphere
// under gravity, or a flight plan on a shared body).
TEST(PlanesApart, NothingWithoutALinearCentre) {
  Sphere1 s;
  s.motion = Motion<3>::linear(0, {0, 0, 0}, {1, 0, 0});
  s.bound = Bound{1, 2, 0};
  const Plane p{0, 10.0, -1, -1};
  GenericOwner generic{&s};
  EXPECT_EQ(certificate(generic, p)->holds_before(Root::at(0), 1.0), -inf);
  FastOwner fast(&s);
  EXPECT_GT(certificate(fast, p)->holds_before(Root::at(0), 1.0), 1.0);
  s.motion = Motion<3>::accelerated(0, {0, 0, 0}, {1, 0, 0}, {0, 0, -10});
  EXPECT_GT(certificate(fast, p)->holds_before(Root::at(0), 1.0), 1.0);  // the plane's axis is still linear
  s.motion = Motion<3>::accelerated(0, {0, 0, 0}, {1, 0, 0}, {-1, 0, 0});
  EXPECT_EQ(certificate(fast, p)->holds_before(Root::at(0), 1.0), -inf);
}

// first_root_below on exact doubles (no enclosure's slack), against the exact roots: for
// a >= 0 or b >= 0 ... every returned q has a q^2 + b q <= g (in rationals), and q at or
// before the vertex where the left side turns down (a < 0); infinity only where there is
// no root; and the bound is tight (within 1e-13 relative, 1e-6 where the discriminant
// cancels). Scales from 2^-430 to 2^310, exact roots at doubles (q = g / b, a = 0).
TEST(FirstRootBelow, NeverAboveTheExactRoot) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  int roots = 0, never = 0, nothing = 0;
  for (int round = 0; round < 20000; ++round) {
    const int scale = static_cast<int>(rng() % 721) - 420;  // a sixth below 2^-300: nothing proven there
    auto draw = [&] { return std::ldexp(u(rng), scale + static_cast<int>(rng() % 21) - 10); };
    double a = draw(), b = draw(), g = std::fabs(draw());
    if (round % 5 == 0) a = 0;
    if (round % 7 == 0) b = 0;
    if (round % 11 == 0) b = std::ldexp(static_cast<double>(rng() % 1000 + 1), scale), g = b * 3;  // root 3 (a = 0)
    if (round % 13 == 0 && a < 0 && b > 0) g = b * b / (-4 * a) * (1 - 1e-9 * std::fabs(u(rng)));  // near tangency
    SCOPED_TRACE("a " + std::to_string(a) + " b " + std::to_string(b) + " g " + std::to_string(g));
    const double q = first_root_below(a, b, g);
    const Rational A(a), Bq(b), G(g);
    const bool has_root = (a > 0) || (a == 0 && b > 0) || (a < 0 && b > 0 && Bq * Bq + 4 * A * G >= 0);
    if (q == inf) {
      ++never;
      EXPECT_FALSE(has_root);
      continue;
    }
    if (q == 0) {
      ++nothing;
      continue;
    }
    ASSERT_GT(q, 0);
    EXPECT_TRUE(has_root);
    ++roots;
    const Rational Q(q);
    EXPECT_LE(A * Q * Q + Bq * Q, G) << "q = " << q << " beyond the root";
    if (a < 0) EXPECT_GE(Rational(2) * A * Q + Bq, 0) << "q beyond the vertex";  // not the larger root
    // Tight: a little later the left side has reached g (or, a < 0, passed its top).
    const double tol = a < 0 ? 1e-6 : 1e-13;
    const Rational Q2(q * (1 + tol));
    EXPECT_TRUE(A * Q2 * Q2 + Bq * Q2 >= G || (a < 0 && Rational(2) * A * Q2 + Bq <= 0)) << "q = " << q << " too low";
  }
  std::printf("[ roots    ] %d bounded, %d never, %d nothing proven (subnormal-risk scales)\n", roots, never, nothing);
  EXPECT_GT(roots, 8000);
  EXPECT_GT(never, 1000);
  EXPECT_GT(nothing, 500);
}

// Many plane certificates with horizons in one simulator: the same events, kinds, bodies
// and exact times with deferral on and off, most failure times deferred or skipped.
struct SimOwner {
  Simulator* sim;
  std::vector<Bound> bounds;
  std::vector<double> deadlines;
  template <class NT>
  Polynomial<NT> centre(BodyId id, int axis, double origin) const {
    return sim->bodies().coordinate<NT>(id, axis, origin);
  }
  template <class NT>
  Polynomial<NT> radius(BodyId id, double origin) const {
    return bounds[id.index].radius_polynomial<NT>(origin);
  }
  template <class NT>
  bool centre_line(BodyId id, int axis, double origin, Line<NT>& out) const {
    return sim->bodies().coordinate_line_at<NT>(sim->bodies().place(id), axis, origin, out);
  }
  template <class NT>
  ShortPolynomial<NT> short_radius(BodyId id, double origin) const {
    return bounds[id.index].radius_polynomial<NT, ShortPolynomial<NT>>(origin);
  }
  // A crossed plane is replaced by one a unit further on, with the same horizon.
  void plane_crossed(PlaneSide<SimOwner>& c, Simulator& s) {
    const double plane = c.plane() - c.side() * 1.0;
    const auto next = s.create<PlaneSide<SimOwner>>(*this, c.sphere(), c.axis(), plane, c.side(), c.kind(),
                                                    c.tie_key(), c.reach());
    next->set_horizon(c.horizon());
    s.destroy(&c);
  }
};

struct Event {
  Root time;
  std::string kind;
  unsigned body;
};

class Recorder final : public Observer {
 public:
  explicit Recorder(Simulator& sim) : sim_(sim) { sim_.add_observer(*this); }
  ~Recorder() override { sim_.remove_observer(*this); }
  // Pinned: compared after the simulator and the certificates are gone.
  void on_event(const EventRecord& e) override {
    e.time.pin();
    events.push_back({e.time, e.kind, e.bodies[0].index});
  }
  std::vector<Event> events;

 private:
  Simulator& sim_;
};

struct SimRun {
  std::vector<Event> events;
  std::uint64_t deferred = 0, computed_later = 0, apart = 0;
};

SimRun simulate(std::uint64_t seed, bool defer) {
  SimulatorSettings settings;
  settings.defer_failure_times = defer;
  settings.audit = false;  // an audit computes deferred failure times early
  Simulator sim(settings);
  Recorder recorder(sim);
  SimOwner owner{&sim, {}, {}};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const char* kinds[] = {"below", "above", "reaching"};
  for (int i = 0; i < 60; ++i) {
    const Vec<3> x{10 * u(rng), 10 * u(rng), 10 * u(rng)}, v{5 * u(rng), 5 * u(rng), i % 5 == 0 ? 0.0 : 5 * u(rng)};
    const BodyId b = sim.bodies().insert(Motion<3>::linear(0, x, v));
    owner.bounds.resize(b.index + 1);
    owner.bounds[b.index] = Bound{0.2 + 0.3 * std::fabs(u(rng)), i % 7 == 0 ? 0.0 : 1 + std::fabs(u(rng)), 0};
    const double horizon = 0.5 + 3 * std::fabs(u(rng));
    for (int k = 0; k < 3; ++k) {
      const double c = x[static_cast<std::size_t>(k)];
      const double r = owner.bounds[b.index].radius;
      auto make = [&](double plane, int side, int reach, const char* kind, std::uint64_t key) {
        auto* cert = sim.create<PlaneSide<SimOwner>>(owner, b, k, plane, side, kind, key, reach);
        cert->set_horizon(horizon);
      };
      const std::uint64_t key = 16 * static_cast<std::uint64_t>(i) + 4 * static_cast<std::uint64_t>(k);
      make(c + r + 0.5 * std::fabs(u(rng)), -1, -1, kinds[0], key);
      make(c - r - 0.5 * std::fabs(u(rng)), 1, -1, kinds[1], key + 1);
      make(c + 0.5 * r, 1, 1, kinds[2], key + 2);  // the bound reaches below c + r/2
    }
  }
  sim.run_until(4.0);
  return {recorder.events, sim.statistics().failures_deferred, sim.statistics().deferred_computed,
          sim.statistics().solver.failure_apart};
}

TEST(PlanesApart, SimulatorSameEventsWithDeferral) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const SimRun on = simulate(seed, true), off = simulate(seed, false);
  std::printf("[ planes   ] %zu events, %llu failure times deferred, %llu of them computed later, %llu apart\n",
              on.events.size(), static_cast<unsigned long long>(on.deferred),
              static_cast<unsigned long long>(on.computed_later), static_cast<unsigned long long>(on.apart));
  ASSERT_EQ(on.events.size(), off.events.size());
  for (std::size_t i = 0; i < on.events.size(); ++i) {
    EXPECT_EQ(on.events[i].kind, off.events[i].kind) << "event " << i;
    EXPECT_EQ(on.events[i].body, off.events[i].body) << "event " << i;
    EXPECT_EQ(compare(on.events[i].time, off.events[i].time), 0) << "event " << i;
  }
  EXPECT_GT(on.events.size(), 100u);
  EXPECT_GT(on.deferred, 50u);
  EXPECT_LE(on.computed_later, on.deferred);  // nothing here replaces a certificate before its time
  EXPECT_EQ(off.deferred, 0u);
  EXPECT_EQ(on.apart, off.apart);
  EXPECT_GT(on.apart, 10u);
}

}  // namespace
}  // namespace kds::testing
