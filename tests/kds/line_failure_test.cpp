// The lean path of linear order certificates (kds/line.hpp, first_failure_of_line): the
// same failure times, bit for bit, as first_failure() on the polynomial the certificate's
// function builds, which is its twin. Random lines and the degenerate ones: zero and
// equal velocities, points that meet at now (vanishing now), interval clocks, horizons,
// keys with offsets, constant keys.
#include <gtest/gtest.h>

#include <bit>
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
};

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
