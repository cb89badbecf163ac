// Keys that are fixed linear forms of one body's position (kds/linear_form.hpp): the sign
// of two forms' difference is the exact sign of the constant (against GMP rationals, on
// random forms and on forms built so that doubles round the two values equal), unknown
// where it is not a constant; coordinate keys and a user's key say their forms; and order
// certificates between keys of one body under gravity never reach the exact path, where a
// sorted list over them stays sorted against the exact values. Forms of two bodies that
// move alike along u (at rest, say) differ by a constant too, decided from their motions;
// and a key crossing several keys that coincide (planes through guards of one object on
// one plane) is decided at each swap without the exact path (Function::same_or_negated).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>

#include "kds/key.hpp"
#include "kds/linear_form.hpp"
#include "kds/number_types.hpp"
#include "kds/solver.hpp"
#include "structures/sorted_list/sorted_list.hpp"
#include "test_functions.hpp"
#include "test_seed.hpp"

namespace {

using kds::BodyId;
using kds::Key;
using kds::LinearForm;
using kds::Motion;
using kds::Rational;
using kds::Sign;
using kds::testing::exact_sign;
using kds::testing::uniform;
using kds::testing::uniform_int;

Rational exact_difference(const LinearForm& a, const LinearForm& b) {
  Rational s(0);
  for (int k = 0; k < 3; ++k) s += Rational(a.u[k]) * (Rational(a.offset[k]) - Rational(b.offset[k]));
  return s;
}

TEST(LinearForm, SignOfDifferenceIsTheExactSign) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  const BodyId body{3, 1};
  int zeros = 0, rounded_equal = 0;
  for (int i = 0; i < 20000; ++i) {
    LinearForm a, b;
    a.body = b.body = body;
    for (int k = 0; k < 3; ++k) {
      a.u[k] = b.u[k] = uniform_int(rng, -3, 3);
      a.offset[k] = std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -60, 60));
      // Offsets equal, or one ulp apart, or apart, so that constants cancel now and then.
      const int how = uniform_int(rng, 0, 2);
      b.offset[k] = how == 0 ? a.offset[k] : how == 1 ? std::nextafter(a.offset[k], 0.0)
                                                      : std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -60, 60));
    }
    // Sometimes b's offsets permuted on two axes of equal u: the same constant, other doubles.
    if (i % 5 == 0 && a.u[0] == a.u[1]) b.offset = {a.offset[1], a.offset[0], a.offset[2]};
    const Rational d = exact_difference(a, b);
    zeros += d == 0;
    double da = 0, db = 0;
    for (int k = 0; k < 3; ++k) da += a.u[k] * a.offset[k], db += b.u[k] * b.offset[k];
    rounded_equal += (da == db) && d != 0;
    ASSERT_EQ(kds::sign_of_difference(a, b), exact_sign(d)) << "seed " << seed << ", case " << i;
    ASSERT_EQ(kds::sign_of_difference(b, a), exact_sign(-d)) << "seed " << seed << ", case " << i;
  }
  EXPECT_GT(zeros, 100) << "seed " << seed;
  std::cout << "[ cases    ] " << zeros << " zero constants, " << rounded_equal
            << " non-zero constants whose two forms round to one double\n";
}

TEST(LinearForm, DoublesThatRoundEqualAreToldApart) {
  LinearForm a, b;
  a.body = b.body = BodyId{0, 1};
  a.u = b.u = {1, 1, 0};
  a.offset = {0x1p53, 1, 0};  // u . offset = 2^53 + 1: rounds to 2^53 in doubles
  b.offset = {0x1p53, 0, 0};
  EXPECT_EQ(a.u[0] * a.offset[0] + a.u[1] * a.offset[1], b.u[0] * b.offset[0] + b.u[1] * b.offset[1]);
  EXPECT_EQ(kds::sign_of_difference(a, b), Sign::positive);
  EXPECT_EQ(kds::sign_of_difference(b, a), Sign::negative);
  b.offset = {0x1p53 + 2, -1, 0};  // the same constant, 2^53 + 1, from other doubles
  EXPECT_EQ(kds::sign_of_difference(a, b), Sign::zero);
}

/// u . (x(t) + offset) exactly at the rational time t, from the motion as stored.
Rational exact_form_at(const LinearForm& f, const Motion<3>& m, const Rational& t) {
  Rational s(0);
  const Rational h = t - Rational(m.start());
  for (int k = 0; k < 3; ++k) {
    const auto& c = m.coefficients(k);
    const Rational x = ((Rational(c[3]) * h + Rational(c[2])) * h + Rational(c[1])) * h + Rational(c[0]);
    s += Rational(f.u[k]) * (x + Rational(f.offset[k]));
  }
  return s;
}

/// Forms of two bodies: on each axis the motions are at rest (from other starts), move
/// alike from one start, or differ (then the answer must be unknown unless u ignores the
/// axis). A known sign is the exact sign of the difference at two unrelated times, so it
/// is a constant's.
TEST(LinearForm, SignOfDifferenceOfTwoBodiesMovingAlike) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  int decided = 0, zeros = 0, unknown = 0;
  for (int i = 0; i < 20000; ++i) {
    LinearForm a, b;
    a.body = BodyId{1, 1};
    b.body = BodyId{2, 1};
    std::array<Motion<3>::Coefficients, 3> ca{}, cb{};
    const double start_a = uniform_int(rng, 0, 3) * 0.375, start_b = uniform_int(rng, 0, 1) ? start_a : 0.8;
    bool alike = true;
    for (int k = 0; k < 3; ++k) {
      a.u[k] = b.u[k] = uniform_int(rng, -2, 2);
      a.offset[k] = std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -40, 40));
      b.offset[k] = uniform_int(rng, 0, 1) ? a.offset[k] : std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -40, 40));
      ca[k][0] = std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -40, 40));
      // Positions equal (so that planes coincide when the offsets are equal too) or not.
      cb[k][0] = uniform_int(rng, 0, 1) ? ca[k][0] : std::ldexp(uniform(rng, -1, 1), uniform_int(rng, -40, 40));
      const int how = uniform_int(rng, 0, 3);  // 0: at rest; 1, 2: alike; 3: apart
      if (how > 0)
        for (int d = 1; d <= 3; ++d) ca[k][d] = cb[k][d] = uniform_int(rng, 0, 1) ? uniform(rng, -4, 4) : 0.0;
      if (how == 3) cb[k][1 + uniform_int(rng, 0, 2)] += 0.5;
      const bool moving = ca[k][1] != 0 || ca[k][2] != 0 || ca[k][3] != 0 || how == 3;
      if (a.u[k] != 0 && (how == 3 || (moving && start_a != start_b))) alike = false;
    }
    const auto ma = Motion<3>::polynomial(start_a, ca), mb = Motion<3>::polynomial(start_b, cb);
    const Sign s = kds::sign_of_difference(a, ma, b, mb);
    ASSERT_EQ(s != Sign::unknown, alike) << "seed " << seed << ", case " << i;
    if (s == Sign::unknown) {
      ++unknown;
      continue;
    }
    ++decided;
    for (const Rational& t : {Rational(0), Rational(7, 3)}) {
      const Rational d = exact_form_at(a, ma, t) - exact_form_at(b, mb, t);
      zeros += d == 0 && t == 0;
      ASSERT_EQ(s, exact_sign(d)) << "seed " << seed << ", case " << i;
    }
    ASSERT_EQ(kds::sign_of_difference(b, mb, a, ma), -s) << "seed " << seed << ", case " << i;
  }
  EXPECT_GT(decided, 1000) << "seed " << seed;
  EXPECT_GT(unknown, 1000) << "seed " << seed;
  EXPECT_GT(zeros, 50) << "seed " << seed;
  std::cout << "[ cases    ] " << decided << " decided (" << zeros << " zero), " << unknown << " unknown\n";
}

/// au - al against bu - bl as functions of the bodies' positions, exactly: each body's
/// coefficient vector and the constant, in rationals. Whether the two are equal (s = 1)
/// or opposite (s = -1).
bool exactly_same_or_negated(const LinearForm& au, const LinearForm& al, const LinearForm& bu, const LinearForm& bl) {
  for (int s : {1, -1}) {
    std::map<std::uint32_t, std::array<Rational, 3>> body;
    Rational constant(0);
    auto add = [&](const LinearForm& f, int weight) {
      for (int k = 0; k < 3; ++k) {
        body[f.body.index][k] += weight * Rational(f.u[k]);
        constant += weight * Rational(f.u[k]) * Rational(f.offset[k]);
      }
    };
    add(au, 1), add(al, -1), add(bu, -s), add(bl, s);
    bool zero = constant == 0;
    for (const auto& [index, u] : body) zero = zero && u[0] == 0 && u[1] == 0 && u[2] == 0;
    if (zero) return true;
  }
  return false;
}

/// Differences of two bodies' forms in two lists (orientations u and -u, or other): the
/// claim "equal or opposite" holds exactly when made, and is made whenever it holds for
/// differences of two distinct bodies each.
TEST(LinearForm, SameOrNegatedDifferenceIsExact) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  const std::array<std::array<double, 3>, 3> us{{{1, 0, 0}, {1, -1, 2}, {0, 3, 1}}};
  const std::array<double, 4> offsets{0.0, 0.1, 0.3, -0.2};
  int claimed = 0;
  for (int i = 0; i < 40000; ++i) {
    auto form = [&](std::uint32_t body, std::array<double, 3> u, double sign) {
      LinearForm f;
      f.body = BodyId{body, 1};
      for (int k = 0; k < 3; ++k) {
        f.u[k] = sign * u[k];
        f.offset[k] = offsets[uniform_int(rng, 0, 3)];
      }
      return f;
    };
    // Two bodies per difference, from three; one u per list, and its negation in the other.
    const auto u = us[uniform_int(rng, 0, 2)];
    const double flip = uniform_int(rng, 0, 1) ? 1.0 : -1.0;
    const std::uint32_t p = uniform_int(rng, 0, 2), q = (p + 1 + uniform_int(rng, 0, 1)) % 3;
    const std::uint32_t r = uniform_int(rng, 0, 2), t = (r + 1 + uniform_int(rng, 0, 1)) % 3;
    const LinearForm au = form(p, u, 1), al = form(q, u, 1);
    const LinearForm bu = form(r, uniform_int(rng, 0, 5) ? u : us[uniform_int(rng, 0, 2)], flip);
    const LinearForm bl = form(t, u, flip);
    const bool exact = exactly_same_or_negated(au, al, bu, bl);
    ASSERT_EQ(kds::same_or_negated_difference(au, al, bu, bl), exact) << "seed " << seed << ", case " << i;
    claimed += exact;
  }
  EXPECT_GT(claimed, 500) << "seed " << seed;
  std::cout << "[ cases    ] " << claimed << " of 40000 equal or opposite\n";
}

TEST(LinearForm, NotAConstantIsUnknown) {
  LinearForm a, b;
  a.body = b.body = BodyId{0, 1};
  a.u = b.u = {1, 0, 0};
  a.offset = {1, 0, 0};
  EXPECT_EQ(kds::sign_of_difference(a, b), Sign::positive);
  b.u = {0, 1, 0};  // another direction: the difference moves with the body
  EXPECT_EQ(kds::sign_of_difference(a, b), Sign::unknown);
  b.u = a.u;
  b.body = BodyId{1, 1};  // another body
  EXPECT_EQ(kds::sign_of_difference(a, b), Sign::unknown);
  b.body = a.body;
  b.offset = {0x1p500, 0, 0};  // beyond the error-free range: not decided here
  EXPECT_EQ(kds::sign_of_difference(a, b), Sign::unknown);
  a.body = b.body = BodyId::none();
  b.offset = {0, 0, 0};
  EXPECT_EQ(kds::sign_of_difference(a, b), Sign::unknown);
}

/// A user's key that is a linear form: u . (position + offset), written over the number type.
struct PlaneKey : kds::KeyOf<PlaneKey> {
  PlaneKey(BodyId b, std::array<double, 3> u, std::array<double, 3> o) : body(b), u(u), offset(o) {}
  kds::BodyList bodies() const override { return {body}; }
  template <class NT>
  kds::Polynomial<NT> function(const kds::Bodies& bodies, double origin) const {
    kds::Polynomial<NT> p;
    for (int k = 0; k < 3; ++k)
      p += kds::Polynomial<NT>(NT(u[k])) * (bodies.coordinate<NT>(body, k, origin) + kds::Polynomial<NT>(NT(offset[k])));
    return p;
  }
  bool linear_form(LinearForm& out) const override {
    out.body = body;
    out.u = u;
    out.offset = offset;
    return true;
  }
  BodyId body;
  std::array<double, 3> u, offset;
};

TEST(LinearForm, KeysSayTheirForms) {
  kds::Simulator sim;
  const BodyId a = sim.bodies().insert(Motion<3>::linear(0.0, {1, 2, 3}, {1, 0, -1}));
  LinearForm f;
  ASSERT_TRUE(Key::coordinate(a, 2, 0.5).linear_form(f));
  EXPECT_EQ(f.body, a);
  EXPECT_EQ(f.u, (std::array<double, 3>{0, 0, 1}));
  EXPECT_EQ(f.offset, (std::array<double, 3>{0, 0, 0.5}));
  EXPECT_FALSE(Key::squared_distance(a, a).linear_form(f));
  EXPECT_FALSE(Key::difference(Key::coordinate(a), Key::coordinate(a, 1)).linear_form(f));
  EXPECT_TRUE(Key::custom(std::make_shared<PlaneKey>(a, std::array<double, 3>{1, 1, 0},
                                                     std::array<double, 3>{0, 0, 0}))
                  .linear_form(f));
}

TEST(LinearForm, KeyTableDecidesOnlyConstants) {
  kds::Simulator sim;
  const BodyId a = sim.bodies().insert(Motion<3>::accelerated(0.0, {1, 2, 3}, {1, 0, -1}, {0, 0, -9.81}));
  const BodyId b = sim.bodies().insert(Motion<3>::linear(0.0, {0, 0, 0}, {1, 1, 1}));
  kds::SortedList list(sim);
  const kds::EntryId low = list.insert(Key::coordinate(a, 2, -0.5));
  const kds::EntryId high = list.insert(Key::coordinate(a, 2, 0.5));
  const kds::EntryId other_axis = list.insert(Key::coordinate(a, 1, 0.5));
  const kds::EntryId other_body = list.insert(Key::coordinate(b, 2, 0.5));
  // z + 0.5 as a user's plane key with u = e_z, and one with u = (1, 1, 0).
  const kds::EntryId plane_z = list.insert(Key::custom(
      std::make_shared<PlaneKey>(a, std::array<double, 3>{0, 0, 1}, std::array<double, 3>{7, 7, 0.5})));
  const kds::EntryId plane_xy = list.insert(Key::custom(
      std::make_shared<PlaneKey>(a, std::array<double, 3>{1, 1, 0}, std::array<double, 3>{0, 0, 0})));
  const kds::KeyTable& keys = list.key_table();
  EXPECT_EQ(keys.constant_difference_sign(high, low), Sign::positive);
  EXPECT_EQ(keys.constant_difference_sign(low, high), Sign::negative);
  EXPECT_EQ(keys.constant_difference_sign(high, high), Sign::zero);
  EXPECT_EQ(keys.constant_difference_sign(high, other_axis), Sign::unknown);
  EXPECT_EQ(keys.constant_difference_sign(high, other_body), Sign::unknown);
  EXPECT_EQ(keys.constant_difference_sign(plane_z, high), Sign::zero) << "a user's form against a coordinate";
  EXPECT_EQ(keys.constant_difference_sign(plane_z, low), Sign::positive);
  EXPECT_EQ(keys.constant_difference_sign(plane_xy, high), Sign::unknown);
  // Each claim agrees with the keys' exact polynomials: a constant of that sign.
  for (kds::EntryId x : {low, high, plane_z})
    for (kds::EntryId y : {low, high, plane_z}) {
      const kds::Polynomial<Rational> d = keys.value<Rational>(x, 0.0) - keys.value<Rational>(y, 0.0);
      ASSERT_LE(d.degree(), 0);
      EXPECT_EQ(keys.constant_difference_sign(x, y), exact_sign(d.degree() < 0 ? Rational(0) : d[0]));
    }
}

TEST(LinearForm, KeyTableDecidesConstantsOfTwoBodiesAtRest) {
  kds::Simulator sim;
  const BodyId a = sim.bodies().insert(Motion<3>::constant({1, 2, 3}));
  const BodyId b = sim.bodies().insert(Motion<3>::constant({2, 2, 3}));
  const BodyId c = sim.bodies().insert(Motion<3>::linear(0.0, {2, 2, 3}, {0, 0, 1}));
  const BodyId d = sim.bodies().insert(Motion<2>::constant({3, 2}));  // a 2D body: read widened
  kds::SortedList list(sim);
  auto plane = [&](BodyId body, std::array<double, 3> u, std::array<double, 3> o) {
    return list.insert(Key::custom(std::make_shared<PlaneKey>(body, u, o)));
  };
  const kds::EntryId a_right = plane(a, {1, 0, 0}, {0.5, 0, 0});   // x = 1.5
  const kds::EntryId b_left = plane(b, {1, 0, 0}, {-0.5, 7, 0});   // x = 1.5: the same plane
  const kds::EntryId b_right = plane(b, {1, 0, 0}, {0.5, 0, 0});   // x = 2.5
  const kds::EntryId c_left = plane(c, {1, 0, 0}, {-0.5, 0, 0});   // x = 1.5, c moving along z only
  const kds::EntryId c_up = plane(c, {0, 0, 1}, {0, 0, 0});        // moving along u
  const kds::EntryId a_up = plane(a, {0, 0, 1}, {0, 0, 0});
  const kds::EntryId d_left = plane(d, {1, 0, 0}, {-1, 0, 0});     // x = 2
  const kds::EntryId b_x = list.insert(Key::coordinate(b, 0, -0.5));
  const kds::EntryId a_x = list.insert(Key::coordinate(a, 0, 0.5));
  const kds::KeyTable& keys = list.key_table();
  EXPECT_EQ(keys.constant_difference_sign(a_right, b_left), Sign::zero);
  EXPECT_EQ(keys.constant_difference_sign(b_right, a_right), Sign::positive);
  EXPECT_EQ(keys.constant_difference_sign(a_right, b_right), Sign::negative);
  EXPECT_EQ(keys.constant_difference_sign(c_left, a_right), Sign::zero) << "c moves, but not along u";
  EXPECT_EQ(keys.constant_difference_sign(c_up, a_up), Sign::unknown) << "c moves along u";
  EXPECT_EQ(keys.constant_difference_sign(d_left, a_right), Sign::positive);
  EXPECT_EQ(keys.constant_difference_sign(b_x, a_right), Sign::zero) << "a coordinate against a form";
  // Two bodies' coordinates are left to the stored lines (the sorted list's hot path).
  EXPECT_EQ(keys.constant_difference_sign(b_x, a_x), Sign::unknown);
  // Once a body moves along u, its forms are no longer constants against the other's.
  sim.bodies().set_motion(b, Motion<3>::linear(0.0, {2, 2, 3}, {1, 0, 0}));
  EXPECT_EQ(keys.constant_difference_sign(a_right, b_left), Sign::unknown);
}

/// What a run of the coinciding-keys scene saw: at each swap, the list's claim that the
/// keys are equal now and whether the swap was the first of its instant.
struct CoincidingRun {
  std::vector<bool> equal_now, first_of_instant;
  std::uint64_t swaps = 0, exact_failure_times = 0, same_roots = 0;
};

/// A key that crosses several keys lying on one plane (planes through guards of one object
/// with one u . offset, a coordinate of the object on that plane, the planes of two objects
/// at rest that coincide) swaps with each at one instant, and each new certificate is born
/// level with it there. The list matches the exact values after every step, with the audit
/// on. `pin`: the clock is pinned at the first swap of each instant (as erasing a key the
/// clock reads does), which withdraws the rule for the later ones.
CoincidingRun cross_coinciding_keys(bool pin) {
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  // Speeds that put the crossings between doubles: the clock is an isolated root.
  const BodyId mover = sim.bodies().insert(Motion<3>::linear(0.0, {0, 0.1, 0.2}, {1.0 / 3.0, 0.2, 0}));
  const BodyId object = sim.bodies().insert(Motion<3>::linear(0.0, {3, 0, 0}, {-0.1, 0.3, 0.7}));
  const BodyId rest1 = sim.bodies().insert(Motion<3>::constant({-1, 5, 5}));
  const BodyId rest2 = sim.bodies().insert(Motion<3>::constant({2.75, 0, 1}));
  auto plane = [&](BodyId body, std::array<double, 3> o) {
    return list.insert(Key::custom(std::make_shared<PlaneKey>(body, std::array<double, 3>{1, 0, 0}, o)));
  };
  plane(mover, {0, 0, 0});     // x = t / 3
  plane(mover, {0.25, 0, 0});  // x = t / 3 + 0.25
  for (double y : {0.0, 1.0, -2.0, 0.5}) plane(object, {-1, y, 0});  // four planes at x = 2 - 0.1 t
  list.insert(Key::coordinate(object, 0, -1));                        // and a coordinate there
  plane(object, {0, 0, 0});                                           // x = 3 - 0.1 t
  plane(rest1, {3.25, 0, 0});                                         // x = 2.25
  plane(rest2, {-0.5, 0, 3});                                         // x = 2.25 too
  const auto before = kds::solver_counters();
  CoincidingRun run;
  std::uint64_t at_equal_times = sim.statistics().events_at_equal_times;
  list.on_swap().subscribe([&](kds::EntryId, kds::EntryId) {
    const bool first = sim.statistics().events_at_equal_times == at_equal_times;
    at_equal_times = sim.statistics().events_at_equal_times;
    run.equal_now.push_back(list.swap_keys_equal_now());
    run.first_of_instant.push_back(first);
    if (pin && first) sim.pin_clock();
  });
  auto sorted = [&] {
    const Rational t(sim.now_approx());
    for (std::size_t i = 0; i + 1 < list.size(); ++i)
      if (list.key(list.order()[i]).value<Rational>(sim.bodies(), 0.0)(t) >
          list.key(list.order()[i + 1]).value<Rational>(sim.bodies(), 0.0)(t))
        return false;
    return true;
  };
  for (int step = 1; step <= 14; ++step) {
    sim.run_until(0.5 * step);
    EXPECT_TRUE(sorted()) << "step " << step;
  }
  const auto after = kds::solver_counters();
  run.swaps = list.swaps();
  run.exact_failure_times = after.failure_exact - before.failure_exact;
  run.same_roots = after.failure_same_roots - before.failure_same_roots;
  return run;
}

/// The instant is a root that the filter cannot tell from the clock; the exact path is
/// not needed: the new certificate is the clock's own function up to sign. Every swap
/// here is of two keys equal at that instant, and the list knows it of each (the first
/// of an instant fails at its own root, the others at a copy of the clock whose source is
/// their function up to sign).
TEST(LinearForm, CrossingCoincidingKeysStaysOffTheExactPath) {
  const CoincidingRun run = cross_coinciding_keys(false);
  // Each of the mover's two planes crosses the object's five keys on one plane, the two
  // planes at rest and the object's centre plane (x = 3 - 0.1 t) by t = 7.
  EXPECT_EQ(run.swaps, 16u);
  EXPECT_EQ(run.equal_now, std::vector<bool>(16, true));
  EXPECT_GE(run.same_roots, 10u);
  EXPECT_EQ(run.exact_failure_times, 0u);
}

/// With the clock pinned at each instant's first swap, its source may have changed: the
/// later swaps' times come from the exact path, and the list no longer claims their keys
/// equal (Order::vanishes_at_failure_time reads no pinned time).
TEST(LinearForm, APinnedClockWithdrawsTheClaimThatKeysAreEqual) {
  const CoincidingRun run = cross_coinciding_keys(true);
  EXPECT_EQ(run.swaps, 16u);
  EXPECT_EQ(run.equal_now, run.first_of_instant);
  EXPECT_GE(std::count(run.first_of_instant.begin(), run.first_of_instant.end(), false), 10);
  EXPECT_EQ(run.same_roots, 0u);
  EXPECT_GT(run.exact_failure_times, 0u);
}

/// One ball thrown up under gravity with the extremes of several boxes around it on z and
/// a user's plane key, in one list: every order certificate is between keys of that ball,
/// a constant that intervals cannot see (the t and t^2 terms subtract to intervals around
/// zero). None goes to the exact path, at insertion or after bounces.
TEST(LinearForm, KeysOfOneBodyUnderGravityStayOffTheExactPath) {
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  const BodyId b = sim.bodies().insert(Motion<3>::accelerated(0.0, {0.1, 0.2, 5.3}, {0.3, -0.7, 2.9}, {0, 0, -9.81}));
  const auto before = kds::solver_counters();
  for (double h : {0.25, 0.5, 1.0 / 3.0, 0.1}) {
    list.insert(Key::coordinate(b, 2, -h));
    list.insert(Key::coordinate(b, 2, h));
  }
  list.insert(Key::custom(
      std::make_shared<PlaneKey>(b, std::array<double, 3>{0, 0, 1}, std::array<double, 3>{0.1, 0.2, 0.7})));
  for (int step = 1; step <= 5; ++step) {
    sim.run_until(0.3 * step);
    const double t = sim.round_clock();
    const auto p = sim.bodies().motion(b).position(t);
    sim.bodies().set_motion(b, Motion<3>::accelerated(t, p, {0.1 * step, 0.3, 4.1}, {0, 0, -9.81}));
  }
  const auto after = kds::solver_counters();
  EXPECT_GE(after.failure_computations - before.failure_computations, 40u);
  EXPECT_EQ(after.failure_exact - before.failure_exact, 0u);
  EXPECT_EQ(after.sign_exact - before.sign_exact, 0u);
  EXPECT_EQ(list.swaps(), 0u);
}

/// Balls under gravity, each with the extremes of several boxes around it on z and a
/// user's plane key, in one list: keys of one ball never swap, keys of two balls do, and
/// the list stays sorted against the exact values through bounces that change motions.
TEST(LinearForm, SortedListOverKeysOfBallsUnderGravity) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::vector<BodyId> balls;
  for (int i = 0; i < 6; ++i) {
    const BodyId b = sim.bodies().insert(Motion<3>::accelerated(
        0.0, {uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, 0, 10)},
        {uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -3, 3)}, {0, 0, -9.81}));
    balls.push_back(b);
    for (double h : {0.25, 0.5, 1.0 / 3.0}) {
      list.insert(Key::coordinate(b, 2, -h));
      list.insert(Key::coordinate(b, 2, h));
    }
    list.insert(Key::custom(
        std::make_shared<PlaneKey>(b, std::array<double, 3>{0, 0, 1}, std::array<double, 3>{0.1, 0.2, 0.7})));
  }
  auto sorted = [&] {
    const double t = sim.now_approx();
    for (std::size_t i = 0; i + 1 < list.size(); ++i)
      if (list.key(list.order()[i]).value<Rational>(sim.bodies(), 0.0)(Rational(t)) >
          list.key(list.order()[i + 1]).value<Rational>(sim.bodies(), 0.0)(Rational(t)))
        return false;
    return true;
  };
  for (int step = 1; step <= 10; ++step) {
    sim.run_until(0.3 * step);
    ASSERT_TRUE(sorted()) << "seed " << seed << ", step " << step;
    const BodyId b = balls[rng() % balls.size()];
    const double t = sim.round_clock();
    const auto p = sim.bodies().motion(b).position(t);
    sim.bodies().set_motion(b, Motion<3>::accelerated(t, p, {uniform(rng, -1, 1), uniform(rng, -1, 1), 4.0},
                                                      {0, 0, -9.81}));
  }
  EXPECT_GT(list.swaps(), 20u) << "seed " << seed;
}

}  // namespace
