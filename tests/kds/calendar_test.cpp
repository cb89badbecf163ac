// The calendar queue (kds/calendar.hpp) against a
// brute-force twin: spheres with random times (seed printed, KDS_TEST_SEED to replay), added
// and removed at random, must come out bin by bin in the order of their bins, each exactly
// once, in the bin its time falls in; with times far beyond the ring (the overflow), equal
// times, times on bin edges, and a bin width far too small or too large for the times.
#include "kds/calendar.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "test_seed.hpp"

namespace {

using kds::Calendar;

/// Adds every id with a time (bins after the current one), removes some, then takes the
/// bins out one by one and checks them against the times.
void drain_and_check(Calendar& cal, const std::vector<double>& time, const std::vector<bool>& removed) {
  std::multimap<Calendar::Bin, Calendar::Id> expected;  // the twin: bin -> ids
  for (Calendar::Id id = 0; id < time.size(); ++id)
    if (!removed[id]) expected.emplace(cal.bin(time[id]), id);
  ASSERT_EQ(cal.size(), expected.size());
  std::vector<Calendar::Id> out;
  Calendar::Bin last = cal.current();
  std::size_t taken = 0;
  while (cal.advance(out, [&](Calendar::Id id) { return time[id]; })) {
    ASSERT_FALSE(out.empty());
    ASSERT_GT(cal.current(), last) << "bins must come out in increasing order";
    last = cal.current();
    // The twin's earliest bin is the one taken, with exactly its ids.
    ASSERT_EQ(expected.begin()->first, cal.current());
    const auto [lo, hi] = expected.equal_range(cal.current());
    std::vector<Calendar::Id> want;
    for (auto it = lo; it != hi; ++it) want.push_back(it->second);
    std::sort(want.begin(), want.end());
    std::sort(out.begin(), out.end());
    ASSERT_EQ(out, want);
    for (Calendar::Id id : out) EXPECT_FALSE(cal.holds(id));
    taken += out.size();
    expected.erase(lo, hi);
    out.clear();
  }
  EXPECT_TRUE(expected.empty());
  EXPECT_EQ(cal.size(), 0u);
  (void)taken;
}

TEST(Calendar, TakesOutBinsInOrderAsTheTwin) {
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
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
      drain_and_check(cal, time, removed);
    }
  }
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

}  // namespace
