// The plain floating-point sorted list of bench/baselines/ against kds's exact kinetic
// sorted list on the same motions: the same number of swaps and the same final order on
// random scenes (as the benchmark runs them) and on degenerate ones (points starting at
// the same place, several points meeting at one point at one time).
#include "bench/baselines/floating_sorted_list.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "bench/sorted_list/scene.hpp"
#include "kds/key.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "structures/sorted_list/sorted_list.hpp"
#include "test_seed.hpp"

namespace {

struct Outcome {
  std::uint64_t swaps = 0;
  std::vector<std::uint32_t> order;  ///< point indices by rank at the horizon
};

Outcome run_kds(const std::vector<double>& x, const std::vector<double>& v, double horizon) {
  kds::Simulator sim;
  kds::SortedList list(sim);
  std::vector<std::uint32_t> point_of;  // by entry
  for (std::size_t i = 0; i < x.size(); ++i) {
    const kds::BodyId b = sim.bodies().insert(kds::Motion<1>::linear(0.0, {x[i]}, {v[i]}));
    const kds::EntryId e = list.insert(kds::Key::coordinate(b));
    if (e >= point_of.size()) point_of.resize(e + 1);
    point_of[e] = static_cast<std::uint32_t>(i);
  }
  sim.run_until(horizon);
  Outcome o;
  o.swaps = list.swaps();
  for (kds::EntryId e : list.order()) o.order.push_back(point_of[e]);
  return o;
}

Outcome run_baseline(const std::vector<double>& x, const std::vector<double>& v, double horizon) {
  kds::baseline::FloatingSortedList list(x, v);
  Outcome o;
  o.swaps = list.run_until(horizon);
  o.order.assign(list.order().begin(), list.order().end());
  return o;
}

TEST(FloatingSortedList, MatchesKdsOnRandomScenes) {
  const std::uint64_t seed = kds::testing::test_seed();
  for (std::size_t n : {2u, 10u, 1000u}) {
    SCOPED_TRACE("n " + std::to_string(n));
    std::vector<double> x, v;
    for (const kds::bench::Point& p : kds::bench::random_scene(n, seed)) {
      x.push_back(p.x);
      v.push_back(p.v);
    }
    const double horizon = kds::bench::horizon_for(3);
    const Outcome exact = run_kds(x, v, horizon), plain = run_baseline(x, v, horizon);
    if (n >= 1000) EXPECT_GT(exact.swaps, n);  // about 3 per point
    EXPECT_EQ(plain.swaps, exact.swaps);
    EXPECT_EQ(plain.order, exact.order);
  }
}

TEST(FloatingSortedList, MatchesKdsOnDegenerateScenes) {
  // Points 0 and 1 start at the same place, the right one faster (no swap: equal at
  // time 0 and in order just after);
  // points 2, 3, 4 meet at x = 10 at t = 1 and reverse their order; points 5 and 6 move
  // together and never swap.
  const std::vector<double> x{0, 0, 9, 10, 11, 20, 21}, v{0.5, 1, 1, 0, -1, 0.25, 0.25};
  const Outcome exact = run_kds(x, v, 2), plain = run_baseline(x, v, 2);
  EXPECT_EQ(exact.swaps, 3u);
  EXPECT_EQ(plain.swaps, exact.swaps);
  EXPECT_EQ(plain.order, exact.order);
  EXPECT_EQ(plain.order, (std::vector<std::uint32_t>{0, 1, 4, 3, 2, 5, 6}));
}

}  // namespace
