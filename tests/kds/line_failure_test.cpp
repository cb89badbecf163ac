// The lean path of linear order certificates (kds/line.hpp, first_failure_of_line): the
// same failure times, bit for bit, as first_failure() on the polynomial the certificate's
// function builds, which is its twin. Random lines and the degenerate ones: zero and
// equal velocities, points that meet at now (vanishing now), interval clocks, horizons,
// keys with offsets, constant keys. The stored-line path (first_failure_of_stored_lines)
// computes in absolute time from the motions as stored, so its twin check is exact:
// the same failure time as first_failure() (compare() == 0), not the same bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <random>
#include <vector>

#include "kds/motion.hpp"
#include "kds/solver.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

/// upper(t) - lower(t) for two 1D keys x + offset, built as a key table does.
struct Pair {
  Motion<1> upper, lower;
  double upper_offset = 0, lower_offset = 0;

  template <class NT>
  Polynomial<NT> key(const Motion<1>& m, double offset, double origin) const {
    Polynomial<NT> p = m.coordinate<NT>(0, origin);
    if (offset != 0) p += Polynomial<NT>(NT(offset));
    return p;
  }
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return key<NT>(upper, upper_offset, origin) - key<NT>(lower, lower_offset, origin);
  }
  template <class NT>
  Line<NT> line(const Motion<1>& m, double offset, double origin) const {
    Line<NT> l;
    EXPECT_TRUE(m.coordinate_line<NT>(0, origin, l));
    if (offset != 0) l = l + Line<NT>::constant(NT(offset));
    return l;
  }
  template <class NT>
  Line<NT> line(double origin) const {
    return line<NT>(upper, upper_offset, origin) - line<NT>(lower, lower_offset, origin);
  }
  static StoredLine stored(const Motion<1>& m, double offset) {
    StoredLine l;
    EXPECT_TRUE(m.stored_line(0, l));
    l.offset = offset;
    return l;
  }
  StoredLine stored_upper() const { return stored(upper, upper_offset); }
  StoredLine stored_lower() const { return stored(lower, lower_offset); }
};

/// The stored-line path against first_failure() at one clock, in the filtered mode and
/// both births: an answer must be the same failure time, compared exactly, and an
/// isolating interval that lies after now. Returns how many times it answered.
int check_stored(const Pair& pair, const Root& now, double horizon) {
  auto f = make_function([&]<class NT>(double origin) { return pair.function<NT>(origin); });
  int answered = 0;
  for (Birth birth : {Birth::generic, Birth::vanishes_now}) {
    if (birth == Birth::vanishes_now && sgn(f.exact_value_at(now.lo())) != 0) continue;  // a promise it keeps
    const Root want = first_failure(f, now, birth, Exactness::filtered, horizon);
    const auto got = first_failure_of_stored_lines(pair.stored_upper(), pair.stored_lower(), f, now, birth,
                                                   Exactness::filtered, horizon);
    if (!got) continue;
    ++answered;
    if (want.is_infinite() || got->is_infinite()) {
      // Beyond the horizon either may say never; before it both must agree.
      if (want.is_infinite() != got->is_infinite()) {
        const Root& finite = want.is_infinite() ? *got : want;
        EXPECT_GT(finite.lo(), horizon) << "birth " << int(birth) << ": " << *got << " instead of " << want;
      }
      continue;
    }
    EXPECT_EQ(compare(*got, want), 0) << "birth " << int(birth) << ": " << *got << " instead of " << want
                                      << " at now " << now;
    // A root after now; or now itself, for two lines of one speed whose constant
    // difference is negative (violated now, decided from the doubles exactly).
    if (!(got->lo() == now.lo() && got->hi() == now.hi())) EXPECT_GT(got->lo(), now.hi());
  }
  // The floating mode: the same failure time up to rounding, or none from both.
  const Root want_f = first_failure(f, now, Birth::generic, Exactness::floating, horizon);
  if (auto got = first_failure_of_stored_lines(pair.stored_upper(), pair.stored_lower(), f, now, Birth::generic,
                                               Exactness::floating, horizon)) {
    ++answered;
    if (!want_f.is_infinite() && !got->is_infinite())
      EXPECT_NEAR(got->lo(), want_f.lo(), 1e-9 * std::max(1.0, std::fabs(want_f.lo())));
  }
  return answered;
}

bool same(const Root& a, const Root& b) {
  if (a.is_infinite() || b.is_infinite()) return a.is_infinite() == b.is_infinite();
  return std::bit_cast<std::uint64_t>(a.lo()) == std::bit_cast<std::uint64_t>(b.lo()) &&
         std::bit_cast<std::uint64_t>(a.hi()) == std::bit_cast<std::uint64_t>(b.hi());
}

/// Checks one pair at one clock in both modes and both births; returns how many times
/// the lean path answered (the rest went to first_failure, as the certificate does).
int check(const Pair& pair, const Root& now, double horizon) {
  auto f = make_function([&]<class NT>(double origin) { return pair.function<NT>(origin); });
  int answered = 0;
  for (Birth birth : {Birth::generic, Birth::vanishes_now}) {
    const Root want = first_failure(f, now, birth, Exactness::filtered, horizon);
    if (auto got = first_failure_of_line(pair.line<Interval>(now.lo()), f, now, birth, Exactness::filtered, horizon)) {
      ++answered;
      EXPECT_TRUE(same(*got, want)) << "filtered, birth " << int(birth) << ": " << *got << " instead of " << want
                                    << " at now " << now;
    }
    const Root want_f = first_failure(f, now, birth, Exactness::floating, horizon);
    if (auto got = first_failure_of_line(pair.line<double>(now.lo()), f, now, birth, Exactness::floating, horizon)) {
      ++answered;
      EXPECT_TRUE(same(*got, want_f)) << "floating, birth " << int(birth) << ": " << *got << " instead of " << want_f;
    }
  }
  return answered;
}

TEST(LineFailure, RandomLinesGiveTheFailureTimeOfTheirPolynomial) {
  std::mt19937_64 rng(test_seed());
  auto unit = [&rng] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  auto pick = [&](std::vector<double> values) { return values[rng() % values.size()]; };
  int answered = 0;
  for (int k = 0; k < 20000; ++k) {
    const double t0 = pick({0.0, 0.0, unit() * 10});
    const double origin = t0 + pick({0.0, unit() * 100, 1e-300, 3.0});
    auto velocity = [&] { return pick({0.0, 1.0, -1.0, 2 * unit() - 1, (2 * unit() - 1) * 1e-9, 1e12 * unit()}); };
    Pair pair{Motion<1>::linear(t0, {unit() * 10}, {velocity()}), Motion<1>::linear(t0, {unit() * 10}, {velocity()}),
              pick({0.0, 0.0, 0.5, -1e-3}), pick({0.0, 0.0, 0.25})};
    if (k % 5 == 0) {  // the two keys meet at `origin`: the swapped certificate vanishes now
      const double x = unit() * 10, vu = velocity(), vl = velocity();
      pair = Pair{Motion<1>::linear(origin, {x}, {vu}), Motion<1>::linear(origin, {x}, {vl})};
    }
    // An interval clock now and then: the root of 3 (t - origin) - 1 (its source, for exact values).
    const Pair third{Motion<1>::linear(origin, {1.0}, {0.0}), Motion<1>::linear(origin, {0.0}, {3.0})};
    auto g = make_function([&]<class NT>(double o) { return third.function<NT>(o); });
    const Root now = k % 7 == 0 ? first_failure(g, Root::at(origin)) : Root::at(origin);
    if (k % 7 == 0 && now.is_point()) continue;
    const double horizon = pick({std::numeric_limits<double>::infinity(), origin + unit() * 20});
    answered += check(pair, now, horizon);
  }
  // Most of them take the lean path (the rest are constant differences or undecided).
  EXPECT_GT(answered, 40000);
}

TEST(LineFailure, StoredLinesGiveTheExactFailureTimeOfTheirPolynomial) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  auto unit = [&rng] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  auto pick = [&](std::vector<double> values) { return values[rng() % values.size()]; };
  int answered = 0;
  for (int k = 0; k < 20000; ++k) {
    // Motions with different starts now and then (one re-based to the other's start).
    const double t0 = pick({0.0, 0.0, unit() * 10}), t1 = pick({t0, t0, unit() * 10});
    const double origin = std::max(t0, t1) + pick({0.0, unit() * 100, 1e-300, 3.0});
    auto velocity = [&] { return pick({0.0, 1.0, -1.0, 2 * unit() - 1, (2 * unit() - 1) * 1e-9, 1e12 * unit()}); };
    Pair pair{Motion<1>::linear(t0, {unit() * 10}, {velocity()}), Motion<1>::linear(t1, {unit() * 10}, {velocity()}),
              pick({0.0, 0.0, 0.5, -1e-3}), pick({0.0, 0.0, 0.25})};
    if (k % 5 == 0) {  // the two keys meet at `origin`
      const double x = unit() * 10;
      pair = Pair{Motion<1>::linear(origin, {x}, {velocity()}), Motion<1>::linear(origin, {x}, {velocity()})};
    }
    const Pair third{Motion<1>::linear(origin, {1.0}, {0.0}), Motion<1>::linear(origin, {0.0}, {3.0})};
    auto g = make_function([&]<class NT>(double o) { return third.function<NT>(o); });
    const Root now = k % 7 == 0 ? first_failure(g, Root::at(origin)) : Root::at(origin);
    if (k % 7 == 0 && now.is_point()) continue;
    const double horizon = pick({std::numeric_limits<double>::infinity(), origin + unit() * 20});
    answered += check_stored(pair, now, horizon);
  }
  std::printf("[ seed     ] %llu; the stored-line path answered %d times\n", static_cast<unsigned long long>(seed),
              answered);
  EXPECT_GT(answered, 20000);
}

TEST(LineFailure, StoredLinesWhoseProductsUnderflowFallBackOrAgree) {
  // A re-based product v (T - t0) below the normal range has an absolute rounding error,
  // not a relative one: the bounds carry an absolute floor for it (found by review, with
  // these two pairs: the first's interval missed its root, the second was called "never"
  // while negative at now).
  auto check_pair = [](const Motion<1>& upper, const Motion<1>& lower, const char* what) {
    SCOPED_TRACE(what);
    const Pair p{upper, lower};
    check_stored(p, Root::at(0.0), std::numeric_limits<double>::infinity());  // exactly first_failure, or nothing
  };
  check_pair(Motion<1>::linear(-0.5, {0.0}, {3 * 0x1p-1074}), Motion<1>::linear(0, {0.0}, {0x1p-1000}),
             "decreasing, product underflowing");
  check_pair(Motion<1>::linear(0, {0.0}, {1.0}), Motion<1>::linear(-0x1p-600, {0.0}, {0x1p-500}),
             "growing, product underflowing to zero");
}

TEST(LineFailure, DegenerateStoredLinesFallBackOrAgree) {
  const Motion<1> rest = Motion<1>::linear(0, {1.0}, {0.0});
  const Motion<1> zero = Motion<1>::linear(0, {0.0}, {0.0});
  const Motion<1> right = Motion<1>::linear(0, {0.0}, {1.0});
  const Motion<1> left = Motion<1>::linear(0, {2.0}, {-1.0});
  const Motion<1> late_right = Motion<1>::linear(0.5, {0.5}, {1.0});  // `right`, restarted at 0.5
  for (const Pair& p : {Pair{left, right}, Pair{right, left}, Pair{rest, right}, Pair{zero, right}, Pair{right, zero},
                        Pair{left, rest, 0.5, 0.0}, Pair{left, late_right}, Pair{late_right, left},
                        Pair{right, late_right}})
    for (double t : {0.5, 1.0, 1.5})
      check_stored(p, Root::at(t), std::numeric_limits<double>::infinity());
  // Meeting exactly now and growing apart: the swapped pair never fails, with no division.
  const Pair swapped{right, left};
  auto f = make_function([&]<class NT>(double origin) { return swapped.function<NT>(origin); });
  const auto r = first_failure_of_stored_lines(swapped.stored_upper(), swapped.stored_lower(), f, Root::at(1.0),
                                               Birth::vanishes_now, Exactness::filtered,
                                               std::numeric_limits<double>::infinity());
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->is_infinite());
  // Meeting exactly now, generic birth: the interval cannot tell the root from now, so it
  // leaves the decision to first_failure().
  const Pair meeting{left, right};
  auto g = make_function([&]<class NT>(double origin) { return meeting.function<NT>(origin); });
  EXPECT_FALSE(first_failure_of_stored_lines(meeting.stored_upper(), meeting.stored_lower(), g, Root::at(1.0),
                                             Birth::generic, Exactness::filtered,
                                             std::numeric_limits<double>::infinity()));
}

TEST(LineFailure, DegenerateLinesFallBackOrAgree) {
  const Motion<1> rest = Motion<1>::linear(0, {1.0}, {0.0});
  const Motion<1> zero = Motion<1>::linear(0, {0.0}, {0.0});
  const Motion<1> right = Motion<1>::linear(0, {0.0}, {1.0});
  const Motion<1> left = Motion<1>::linear(0, {2.0}, {-1.0});
  // Equal velocities: a constant difference, no line of degree 1: first_failure decides.
  Pair same_speed{right, Motion<1>::linear(0, {-1.0}, {1.0})};
  auto f = make_function([&]<class NT>(double origin) { return same_speed.function<NT>(origin); });
  EXPECT_FALSE(first_failure_of_line(same_speed.line<Interval>(0.5), f, Root::at(0.5), Birth::generic,
                                     Exactness::filtered, std::numeric_limits<double>::infinity()));
  // Meeting exactly at t = 1, before and at the meeting, both births; constant keys.
  for (const Pair& p : {Pair{left, right}, Pair{right, left}, Pair{rest, right}, Pair{zero, right}, Pair{right, zero},
                        Pair{left, rest, 0.5, 0.0}})
    for (double t : {0.0, 0.5, 1.0, 1.5})
      check(p, Root::at(t), std::numeric_limits<double>::infinity());
}

TEST(LineFailure, TheWrongModeIsRefused) {
  const Pair p{Motion<1>::linear(0, {2.0}, {-1.0}), Motion<1>::linear(0, {0.0}, {1.0})};
  auto f = make_function([&]<class NT>(double origin) { return p.function<NT>(origin); });
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(first_failure_of_line(p.line<Interval>(0), f, Root::at(0), Birth::generic, Exactness::floating, inf));
  EXPECT_FALSE(first_failure_of_line(p.line<double>(0), f, Root::at(0), Birth::generic, Exactness::filtered, inf));
  const auto r = first_failure_of_line(p.line<Interval>(0), f, Root::at(0), Birth::generic, Exactness::filtered, inf);
  ASSERT_TRUE(r);
  EXPECT_LE(r->lo(), 1.0);
  EXPECT_GE(r->hi(), 1.0);
}

}  // namespace
}  // namespace kds::testing
