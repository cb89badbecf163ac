#pragma once
/// \file
/// The random scene of the examples: points on a line with linear or accelerating
/// motions, a few of them passing through one point at one time (a degenerate event the
/// framework must order exactly). The same seed gives the same scene on every platform:
/// the doubles come from the raw bits of std::mt19937_64, not from a distribution whose
/// algorithm the standard leaves open.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "kds/motion.hpp"

namespace kds::examples {

struct Scene {
  std::vector<Motion<1>> motions;
  /// How many of the first motions pass through (crossing_x) at crossing_time.
  std::size_t crossing = 0;
  double crossing_time = 0, crossing_x = 0;
};

/// A double in [lo, hi), rounded to a multiple of 1/64 so that motions print exactly.
inline double uniform(std::mt19937_64& rng, double lo, double hi) {
  const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  return std::round((lo + (hi - lo) * u) * 64.0) / 64.0;
}

/// n points in [-10, 10] at t = 0 with speeds in [-2, 2], half of them accelerating, and
/// min(3, n / 3) of them meeting at x = 0 at half the simulated time.
inline Scene random_scene(std::size_t n, std::uint64_t seed, double until) {
  std::mt19937_64 rng(seed);
  Scene s;
  s.crossing = n >= 3 ? std::min<std::size_t>(3, n / 3) : 0;
  s.crossing_time = 0.5 * until;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = uniform(rng, -2.0, 2.0);
    if (i < s.crossing) {
      // x(t) = v (t - t*): through 0 at t*, each with its own speed.
      const double speed = v == 0 ? 1.0 + double(i) : v;
      s.motions.push_back(Motion<1>::linear(s.crossing_time, {s.crossing_x}, {speed}));
    } else if (rng() % 2 == 0) {
      s.motions.push_back(Motion<1>::linear(0.0, {uniform(rng, -10.0, 10.0)}, {v}));
    } else {
      const double x = uniform(rng, -10.0, 10.0);
      s.motions.push_back(Motion<1>::accelerated(0.0, {x}, {v}, {uniform(rng, -0.5, 0.5)}));
    }
  }
  return s;
}

/// "x(t) = 1.5 + 0.25 (t - 5) - 0.125 (t - 5)^2": the motion as its user wrote it.
inline std::string describe(const Motion<1>& m) {
  const auto& c = m.coefficients(0);
  char var[32];
  if (m.start() == 0) std::snprintf(var, sizeof var, "t");
  else std::snprintf(var, sizeof var, "(t - %g)", m.start());
  std::string s = "x(t) = ";
  bool first = true;
  for (int k = 0; k <= Motion<1>::max_degree; ++k) {
    if (c[k] == 0 && !(k == 0 && m.degree() == 0)) continue;
    char term[96];
    const double a = first ? c[k] : std::abs(c[k]);
    const char* sign = first ? "" : c[k] < 0 ? " - " : " + ";
    char coefficient[40] = "";
    if (k == 0 || std::abs(c[k]) != 1) std::snprintf(coefficient, sizeof coefficient, "%g%s", a, k == 0 ? "" : " ");
    else if (first && c[k] < 0) std::snprintf(coefficient, sizeof coefficient, "-");
    if (k == 0) std::snprintf(term, sizeof term, "%s%s", sign, coefficient);
    else if (k == 1) std::snprintf(term, sizeof term, "%s%s%s", sign, coefficient, var);
    else std::snprintf(term, sizeof term, "%s%s%s^%d", sign, coefficient, var, k);
    s += term;
    first = false;
  }
  if (first) s += "0";
  return s;
}

}  // namespace kds::examples
