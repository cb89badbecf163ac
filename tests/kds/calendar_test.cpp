// The calendar queue (kds/calendar.hpp) against a
// brute-force twin: spheres with random times (seed printed, KDS_TEST_SEED to replay), added
// and removed at random, must come out bin by bin in the order of their bins, each exactly
// once, in the bin its time falls in; with times far beyond the ring (the overflow), equal
// times, times on bin edges, and a bin width far too small or too large for the times.
#include "kds/calendar.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "test_seed.hpp"

namespace {

using kds::Calendar;

/// Adds every id with a time (bins after the current one), removes some, then takes the
/// bins out one by one and checks them against the times: each bin taken holds exactly
/// the ids still held whose times fall in it (as bin() numbers bins then: the calendar
/// may choose its bins again when its ring runs empty), every id left lies in a later
/// bin, and the times come out in increasing order bin by bin.
/// `hinted`, if given, counts the bins peek_next() named an id of beforehand.
void drain_and_check(Calendar& cal, const std::vector<double>& time, const std::vector<bool>& removed,
                     std::size_t* hinted = nullptr) {
  std::set<Calendar::Id> held;  // the twin
  for (Calendar::Id id = 0; id < time.size(); ++id)
    if (!removed[id]) held.insert(id);
  ASSERT_EQ(cal.size(), held.size());
  std::vector<Calendar::Id> out;
  double last = -INFINITY;  // the latest time taken out so far
  // peek_next(), the hint its users request memory by: none, or an id of the next bin taken.
  Calendar::Id hint = cal.peek_next();
  while (cal.advance(out, [&](Calendar::Id id) { return time[id]; })) {
    ASSERT_FALSE(out.empty());
    if (hint != Calendar::none) {
      ASSERT_NE(std::find(out.begin(), out.end(), hint), out.end()) << "peek_next() gave " << hint << ", not in the next bin";
      if (hinted) ++*hinted;
    }
    std::vector<Calendar::Id> want;
    for (const Calendar::Id id : held) {
      const Calendar::Bin k = cal.bin(time[id]);
      ASSERT_GE(k, cal.current()) << "id " << id << " is held in a bin before the current one";
      if (k == cal.current()) want.push_back(id);
    }
    std::sort(out.begin(), out.end());
    ASSERT_EQ(out, want) << "the current bin's ids";
    for (const Calendar::Id id : out) {
      EXPECT_FALSE(cal.holds(id));
      EXPECT_GE(time[id], last) << "a time earlier than one taken out before";
      held.erase(id);
    }
    for (const Calendar::Id id : out) last = std::max(last, time[id]);
    out.clear();
    hint = cal.peek_next();
  }
  EXPECT_TRUE(held.empty());
  EXPECT_EQ(cal.peek_next(), Calendar::none);
  EXPECT_EQ(cal.size(), 0u);
}

TEST(Calendar, TakesOutBinsInOrderAsTheTwin) {
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::size_t hinted = 0;
  for (double width : {1e-3, 0.1, 1.0, 50.0}) {
    for (int round = 0; round < 20; ++round) {
      const std::size_t n = 1 + rng() % 300;
      Calendar cal;
      cal.reset(n, 0.0, width, 1 + rng() % 64);
      std::vector<double> time(n);
      std::vector<bool> removed(n, false);
      for (Calendar::Id id = 0; id < n; ++id) {
        // Mostly near, some far beyond the ring, some equal, some on bin edges.
        const double u = static_cast<double>(rng() >> 11) * 0x1p-53;
        time[id] = rng() % 7 == 0 ? 1e4 * u : rng() % 5 == 0 ? std::floor(20 * u) * width : 10 * u;
        if (cal.bin(time[id]) <= cal.current()) time[id] = width;  // after the current bin
        cal.add(id, cal.bin(time[id]));
      }
      for (Calendar::Id id = 0; id < n; ++id)
        if (rng() % 4 == 0) {
          cal.remove(id);
          removed[id] = true;
        }
      drain_and_check(cal, time, removed, &hinted);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(hinted, 100u) << "peek_next() named the next bin's ids";
}

TEST(Calendar, AddsBetweenAdvancesAndJumpsOverEmptyStretches) {
  // As the world uses it: spheres join and leave while bins are taken out; a time whose bin
  // is the current one never joins (the world keeps it in its heap).
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed + 1);
  const std::size_t n = 200;
  Calendar cal;
  cal.reset(n, 0.0, 0.25, 32);
  std::vector<double> time(n, 0);
  std::vector<Calendar::Id> out;
  double now = 0;
  std::size_t checked = 0;
  for (int step = 0; step < 5000; ++step) {
    const Calendar::Id id = static_cast<Calendar::Id>(rng() % n);
    if (cal.holds(id)) cal.remove(id);
    const double u = static_cast<double>(rng() >> 11) * 0x1p-53;
    const double t = now + (rng() % 10 == 0 ? 1e3 * u : 5 * u);
    if (cal.bin(t) > cal.current()) {
      time[id] = t;
      cal.add(id, cal.bin(t));
    }
    if (rng() % 3 == 0) {
      // The earliest held time must be in the bin taken out next.
      double earliest = INFINITY;
      cal.for_each([&](Calendar::Id j) { earliest = std::min(earliest, time[j]); });
      if (cal.advance(out, [&](Calendar::Id j) { return time[j]; })) {
        EXPECT_EQ(cal.bin(earliest), cal.current());
        for (Calendar::Id j : out) {
          EXPECT_EQ(cal.bin(time[j]), cal.current());
          now = std::max(now, time[j]);
        }
        checked += out.size();
        out.clear();
      }
    }
  }
  EXPECT_GT(checked, 500u);
}

// Times spread over twelve orders of magnitude with a width chosen for the first of them:
// the calendar chooses its bins again when its ring runs empty, instead of walking the
// overflow at every pass of the ring (quadratic before). Checked by the work it does (the
// times it reads), not by a clock: every id comes out once, in order of time, after
// a few readings of its time.
TEST(Calendar, TimesOverManyOrdersOfMagnitudeCostFewReadings) {
  const std::size_t n = 20000;
  std::vector<double> time(n);
  for (std::size_t i = 0; i < n; ++i) time[i] = std::pow(2.0, 40.0 * static_cast<double>(i) / n);
  Calendar cal;
  cal.reset(n, 0.0, 2.0 / static_cast<double>(n), n);  // bins for times near 1
  for (Calendar::Id id = 0; id < n; ++id) cal.add(id, cal.bin(time[id]));
  std::size_t readings = 0, taken = 0;
  double last = -INFINITY;
  std::vector<Calendar::Id> out;
  while (cal.advance(out, [&](Calendar::Id id) {
    ++readings;
    return time[id];
  })) {
    for (const Calendar::Id id : out) EXPECT_GE(time[id], last) << "a time earlier than one taken out before";
    for (const Calendar::Id id : out) last = std::max(last, time[id]);
    taken += out.size();
    out.clear();
  }
  EXPECT_EQ(taken, n);
  EXPECT_LT(readings, 40 * n) << "the overflow was walked too often";
}

// One id at a time, each far ahead of the last in a ring of many bins (a fast point passing
// points at rest): the bitmap finds the next bin without visiting the empty ones (counted
// by visits()), and the ids come out in order.
TEST(Calendar, OneIdFarAheadAtATime) {
  const std::size_t n = 1 << 16;
  Calendar cal;
  cal.reset(n, 0.0, 1e-4, n);
  std::vector<double> time(n);
  std::vector<Calendar::Id> out;
  double t = 0;
  for (Calendar::Id id = 0; id < 2000; ++id) {
    t += 3.0 + 0.5 * (id % 3);  // 30,000 bins and more ahead: within the ring, then beyond it
    time[id] = t;
    cal.add(id, cal.bin(t));
    ASSERT_TRUE(cal.advance(out, [&](Calendar::Id j) { return time[j]; }));
    ASSERT_EQ(out, std::vector<Calendar::Id>{id});
    EXPECT_EQ(cal.bin(t), cal.current());
    out.clear();
  }
  EXPECT_LT(cal.visits(), 2 * 2000u + 100) << "empty bins were visited";
}

}  // namespace
