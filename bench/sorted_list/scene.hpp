#pragma once
/// \file
/// The benchmark scene: n points on a line with random linear motions.
///
/// Positions are uniform in [0, n) and velocities uniform in [-1, 1], so the density is
/// one point per unit length whatever n is. Two points swap when they meet; with this
/// density each point takes part in about 2/3 swaps per unit of time (the mean of
/// |v_i - v_j| for independent uniform velocities), and as every swap involves two points
/// there are about n t / 3 swaps in [0, t]: t / 3 swaps per point. That is why one
/// horizon gives a comparable number of swaps per point for every n (horizon_for).
///
/// The random numbers come from std::mt19937_64 converted to doubles by hand (not
/// std::uniform_real_distribution, whose output differs between standard libraries), so
/// a seed names the same scene everywhere.

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace kds::bench {

struct Point {
  double x;  ///< position at t = 0
  double v;  ///< velocity
};

/// n points sorted by initial position: inserting them in that order appends each one
/// to the list, so building the scene costs O(n log n) and is not what we measure.
inline std::vector<Point> random_scene(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto unit = [&rng] { return static_cast<double>(rng() >> 11) * 0x1p-53; };  // [0, 1), 53 random bits
  std::vector<Point> points(n);
  for (Point& p : points) {
    p.x = unit() * static_cast<double>(n);
    p.v = 2 * unit() - 1;
  }
  std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
  return points;
}

/// The time by which about `swaps_per_point` swaps per point have happened (n t / 3 swaps in all).
inline double horizon_for(double swaps_per_point) { return 3 * swaps_per_point; }

}  // namespace kds::bench
