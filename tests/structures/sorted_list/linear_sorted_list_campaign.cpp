// An adversarial random campaign for LinearSortedList (structures/sorted_list/
// linear_sorted_list.hpp) against an exact brute force: the order at each check time by
// x + v t in dyadic arithmetic (ties: the slower first, then by id), the swap count as the
// number of pairs whose order changed, the order at the end of time after step() loops,
// every swap's pair adjacent and crossing at now() (never before it, within 2^-46), audits
// after swaps. Scenes: magnitudes from subnormals to near the largest double, one scale per
// scene, integer scenes full of simultaneous crossings, near-concurrent lines (rounded
// quotients in the wrong order), clusters with velocities an ulp apart, duplicates; bin
// widths from 2^-1074 to 1e308; targets at exact crossings and an ulp around them. Also the
// double-double ball's sign against dyadic arithmetic. Longer than a unit test: run it by
// hand for minutes (ctest runs a short one).
//
// Usage: linear_sorted_list_campaign [seed] [seconds] [max_n] [max_scenes]
// A failure prints the scene (hexadecimal doubles) and exits with status 1.
#include "structures/sorted_list/linear_sorted_list.hpp"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "kds/double_double_ball.hpp"
#include "kds/dyadic.hpp"
#include "kds/errors.hpp"
#include "linear_list_brute_force.hpp"

using namespace kds;
using PointId = LinearSortedList::PointId;

static std::mt19937_64 rng;
static std::uint64_t undecided = 0, exact_cmp = 0;
static std::uint64_t scenes = 0, swaps_checked = 0, checks = 0, audits = 0, steps_loops = 0, ball_checks = 0;
static std::string scene_desc;

[[noreturn]] void fail(const std::string& what, const std::vector<LinearPoint>& p, double width) {
  std::printf("FAIL: %s\n  scene: %s, width %a, n %zu\n", what.c_str(), scene_desc.c_str(), width, p.size());
  for (std::size_t i = 0; i < p.size() && i < 60; ++i) std::printf("  {%a, %a},\n", p[i].x, p[i].v);
  std::fflush(stdout);
  std::exit(1);
}

double uni() { return std::uniform_real_distribution<double>(0, 1)(rng); }
std::uint64_t below(std::uint64_t k) { return rng() % k; }

using kds::testing::brute_order;
using kds::testing::final_order;
using kds::testing::inversions;
using kds::testing::order_of;

// ------------------------------------------------------------------ numbers
double magnitude() {  // 1e-300 .. 1e300, subnormals, zeros of both signs, powers of two
  switch (below(10)) {
    case 0: return std::ldexp(1.0 + below(4), -1074 + static_cast<int>(below(60)));  // subnormal
    case 1: return below(2) ? 0.0 : -0.0;
    case 2: return std::ldexp(1.0, static_cast<int>(below(2000)) - 1000);
    case 3: return std::nextafter(DBL_MAX, 0) * uni();
    case 4: return std::pow(10.0, uni() * 600 - 300);
    default: return std::pow(10.0, uni() * 40 - 20);
  }
}
double sgn(double x) { return below(2) ? x : -x; }
double ulps(double x, int k) {
  for (; k > 0; --k) x = std::nextafter(x, INFINITY);
  for (; k < 0; ++k) x = std::nextafter(x, -INFINITY);
  return x;
}

std::vector<LinearPoint> gen_scene(std::size_t n, int kind) {
  std::vector<LinearPoint> p(n);
  switch (kind) {
    case 0: {  // wild magnitudes, independent
      scene_desc = "magnitudes";
      for (auto& q : p) q = {sgn(magnitude()), sgn(magnitude())};
      break;
    }
    case 1: {  // one scale per scene, moderate spread
      const int ex = static_cast<int>(below(2000)) - 1000, ev = static_cast<int>(below(2000)) - 1000;
      scene_desc = "scaled " + std::to_string(ex) + " " + std::to_string(ev);
      for (auto& q : p) q = {std::ldexp(uni() * 2 - 1, ex), std::ldexp(uni() * 2 - 1, ev)};
      break;
    }
    case 2: {  // integers: massive simultaneous crossings
      const int span = 1 + static_cast<int>(below(10)), k = 1 + static_cast<int>(below(4));
      const int scale = static_cast<int>(below(3)) == 0 ? static_cast<int>(below(2060)) - 1050 : 0;
      scene_desc = "integers span " + std::to_string(span) + " k " + std::to_string(k) + " scale " + std::to_string(scale);
      for (auto& q : p)
        q = {std::ldexp(static_cast<double>(below(span)), scale),
             std::ldexp(static_cast<double>(static_cast<int>(below(2 * k + 1)) - k), below(4) ? 0 : scale)};
      break;
    }
    case 3: {  // near-concurrent lines: all nearly meet at (T, c), rounding decides
      const double T = below(3) ? std::ldexp(uni() + 0.5, static_cast<int>(below(80)) - 40) : magnitude();
      const double c = below(2) ? 0 : sgn(magnitude());
      const double v0 = sgn(std::ldexp(uni() + 0.5, static_cast<int>(below(40)) - 20));
      scene_desc = "near-concurrent T " + std::to_string(T);
      for (auto& q : p) {
        double v = below(2) ? ulps(v0, static_cast<int>(below(9)) - 4) : sgn(std::ldexp(uni() + 0.5, static_cast<int>(below(40)) - 20));
        double x = c - v * T;
        x = ulps(x, static_cast<int>(below(5)) - 2);
        if (!std::isfinite(x)) x = 0;
        q = {x, v};
      }
      break;
    }
    case 4: {  // several clusters of near-concurrence, plus velocities one ulp apart
      scene_desc = "clusters";
      std::size_t i = 0;
      while (i < n) {
        const double T = std::ldexp(uni() + 0.5, static_cast<int>(below(20)) - 10);
        const double c = (uni() * 2 - 1) * 100;
        const double v0 = uni() * 2 - 1;
        const std::size_t m = 1 + below(6);
        for (std::size_t j = 0; j < m && i < n; ++j, ++i) {
          const double v = ulps(v0, static_cast<int>(below(7)) - 3);
          p[i] = {ulps(c - v * T, static_cast<int>(below(3)) - 1), v};
        }
      }
      break;
    }
    case 5: {  // near the largest double: differences overflow
      scene_desc = "huge";
      for (auto& q : p) {
        const double big = std::nextafter(DBL_MAX, 0) * (0.5 + 0.5 * uni());
        q = {below(3) ? sgn(big) : sgn(magnitude()), below(3) ? sgn(big) : sgn(magnitude())};
      }
      break;
    }
    default: {  // uniform
      scene_desc = "uniform";
      for (auto& q : p) q = {uni() * static_cast<double>(n), uni() * 2 - 1};
    }
  }
  // Duplicates: same point twice, same position with another velocity.
  if (n > 2 && below(3) == 0)
    for (std::size_t k = below(n / 2 + 1); k > 0; --k) {
      const std::size_t a = below(n), b = below(n);
      if (below(2)) p[a] = p[b];
      else p[a].x = p[b].x;
    }
  return p;
}

double gen_width() {
  switch (below(6)) {
    case 0: return std::ldexp(1.0, -1074 + static_cast<int>(below(40)));
    case 1: return std::pow(10.0, uni() * 40 - 30);
    case 2: return std::pow(10.0, 10 + uni() * 298);
    default: return 0;
  }
}

/// The exact crossing time of l, r (l faster) as a rational.
mpq_class exact_crossing(const LinearPoint& l, const LinearPoint& r) {
  mpq_class n = Dyadic(r.x).to_rational() - Dyadic(l.x).to_rational();
  mpq_class d = Dyadic(l.v).to_rational() - Dyadic(r.v).to_rational();
  return n / d;
}

// A check time: random, at a crossing of a currently adjacent pair (and an ulp around it).
double gen_time(const LinearSortedList& list, const std::vector<LinearPoint>& p, double now) {
  const std::size_t n = p.size();
  if (n >= 2 && below(3)) {
    const std::size_t r = below(n - 1);
    const LinearPoint& l = p[list.order()[r]];
    const LinearPoint& rr = p[list.order()[r + 1]];
    if (l.v > rr.v) {
      const double q = exact_crossing(l, rr).get_d();
      if (std::isfinite(q)) {
        const double t = ulps(q, static_cast<int>(below(3)) - 1);
        if (t >= now) return t;
      }
    }
  }
  double t;
  switch (below(4)) {
    case 0: t = now; break;
    case 1: t = now + std::ldexp(uni(), static_cast<int>(below(60)) - 30); break;
    case 2: t = now * (1 + uni()); break;
    default: t = std::max(now, std::pow(10.0, uni() * 40 - 20));
  }
  return std::min(t, DBL_MAX);
}

void run_scene_(const std::vector<LinearPoint>& p, double width, bool audit_each, bool step_mode);
void run_scene(const std::vector<LinearPoint>& p, double width, bool audit_each, bool step_mode) {
  try { run_scene_(p, width, audit_each, step_mode); } catch (const std::exception& e) { fail(std::string("exception: ") + e.what() + (step_mode ? " (step mode)" : ""), p, width); }
}
void run_scene_(const std::vector<LinearPoint>& p, double width, bool audit_each, bool step_mode) {
  ++scenes;
  LinearSortedList list(p, width);
  list.audit();
  const std::vector<PointId> start = brute_order(p, 0);
  if (order_of(list) != start) fail("order just after 0", p, width);
  struct Count {  // the list's comparison counters, whatever way the scene ends
    const LinearSortedList& list;
    ~Count() {
      undecided += list.stats().comparisons_undecided;
      exact_cmp += list.stats().comparisons_exact;
    }
  } count{list};
  std::vector<PointId> shadow = start;  // the order the callbacks report
  std::vector<std::size_t> shadow_rank(p.size());
  for (std::size_t r = 0; r < start.size(); ++r) shadow_rank[start[r]] = r;
  bool bad_swap = false;
  std::string why;
  list.on_swap().subscribe([&](PointId left, PointId right) {
    const std::size_t r = shadow_rank[left];
    if (r + 1 >= shadow.size() || shadow[r + 1] != right) { bad_swap = true; why = "swap of non-adjacent"; return; }
    // The two cross now: left was faster; now() near the exact crossing.
    const LinearPoint& l = p[left];
    const LinearPoint& rr = p[right];
    if (!(l.v > rr.v)) { bad_swap = true; why = "swapped a pair whose left is not faster"; return; }
    const mpq_class T = exact_crossing(l, rr);
    const double now = list.now();
    if (!std::isfinite(now)) {
      if (T.get_d() <= DBL_MAX * (1 - 0x1p-45)) { bad_swap = true; why = "now() is not finite after a swap at " + std::to_string(T.get_d()); }
    } else {
      mpq_class diff = mpq_class(now) - T;
      if (diff < 0) { bad_swap = true; why = "now() before the swap's exact time"; }
      if (diff > abs(T) * mpq_class(std::ldexp(1.0, -46)) + mpq_class(1e-300)) { bad_swap = true; why = "now() far from the swap's exact time"; }
    }
    std::swap(shadow[r], shadow[r + 1]);
    shadow_rank[shadow[r]] = r;
    shadow_rank[shadow[r + 1]] = r + 1;
    ++swaps_checked;
    if (audit_each) {
      ++audits;
      try { list.audit(); } catch (const std::exception& e) { bad_swap = true; why = e.what(); }
    }
  });
  if (step_mode) {
    ++steps_loops;
    std::uint64_t k = 0;
    while (list.step()) {
      if (bad_swap) fail(why, p, width);
      if (++k > 100000) fail("too many steps", p, width);
      if (std::isfinite(list.now()) && below(8) == 0) {  // occasionally a run_until at the current time or an earlier one
        try { list.run_until(list.now()); } catch (const std::exception& e) { fail(std::string("run_until(now): ") + e.what(), p, width); }
      }
    }
    if (bad_swap) fail(why, p, width);
    list.audit();
    const std::vector<PointId> fin = final_order(p);
    if (order_of(list) != fin) fail("final order", p, width);
    if (list.stats().swaps != inversions(start, fin)) fail("final swap count", p, width);
    if (order_of(list) != shadow) fail("callbacks disagree with order()", p, width);
    return;
  }
  double now = 0;
  const int times = 1 + static_cast<int>(below(8));
  for (int i = 0; i < times; ++i) {
    const double t = gen_time(list, p, now);
    try {
      list.run_until(t);
    } catch (const std::exception& e) {
      fail(std::string("run_until threw: ") + e.what() + " t=" + std::to_string(t), p, width);
    }
    if (bad_swap) fail(why, p, width);
    now = t;
    ++checks;
    list.audit();
    const std::vector<PointId> want = brute_order(p, t);
    if (order_of(list) != want) fail("order at t = " + std::to_string(t), p, width);
    for (std::size_t r = 0; r < want.size(); ++r)
      if (list.rank(want[r]) != r) fail("rank", p, width);
    if (list.stats().swaps != inversions(start, want)) fail("swap count at t", p, width);
    if (order_of(list) != shadow) fail("callbacks disagree with order()", p, width);
    // An earlier target is rejected, unless it is exactly the current time.
    if (t > 0 && below(4) == 0) {
      const double before = std::nextafter(t, -INFINITY);
      bool threw = false;
      try { list.run_until(before); } catch (const InvalidInput&) { threw = true; }
      if (!threw) fail("run_until before the current time accepted", p, width);
    }
  }
}

// The double-double ball's sign against exact dyadic arithmetic, on the expression cross_sign uses.
void ball_check() {
  double a[8];
  const int mode = static_cast<int>(below(3));
  for (double& x : a) x = mode == 0 ? sgn(magnitude()) : mode == 1 ? (uni() * 2 - 1) : static_cast<double>(below(7)) - 3;
  if (mode == 2 || below(2)) {  // make the two products nearly cancel
    a[2] = a[0]; a[3] = ulps(a[1], static_cast<int>(below(3)) - 1);
  }
  using B = DoubleDoubleBall;
  const B ball = B::difference(a[0], a[1]) * B::difference(a[2], a[3]) - B::difference(a[4], a[5]) * B::difference(a[6], a[7]);
  const Sign s = ball.sign();
  const int exact = ((Dyadic(a[0]) - Dyadic(a[1])) * (Dyadic(a[2]) - Dyadic(a[3])) - (Dyadic(a[4]) - Dyadic(a[5])) * (Dyadic(a[6]) - Dyadic(a[7]))).sign();
  ++ball_checks;
  if (s != Sign::unknown && static_cast<int>(s) != exact) {
    std::printf("FAIL: ball sign %d, exact %d:", static_cast<int>(s), exact);
    for (double x : a) std::printf(" %a", x);
    std::printf("\n");
    std::exit(1);
  }
}

int main(int argc, char** argv) {
  const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::random_device{}();
  const double seconds = argc > 2 ? std::atof(argv[2]) : 60;
  const std::size_t max_n = std::max<std::size_t>(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 40, 2);
  const std::uint64_t max_scenes = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : ~std::uint64_t{0};
  std::printf("seed %llu, %g s, max n %zu (linear_sorted_list_campaign %llu %g %zu to replay)\n",
              static_cast<unsigned long long>(seed), seconds, max_n, static_cast<unsigned long long>(seed), seconds, max_n);
  rng.seed(seed);
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t iter = 0;
  while (scenes < max_scenes && std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
    for (int k = 0; k < 64 && scenes < max_scenes; ++k, ++iter) {
      for (int j = 0; j < 8; ++j) ball_check();
      const std::size_t n = below(4) == 0 ? below(4) : 2 + below(max_n - 1);
      const int kind = static_cast<int>(below(7));
      const std::vector<LinearPoint> p = gen_scene(n, kind);
      const double width = gen_width();
      const bool step_mode = below(3) == 0;
      run_scene(p, width, below(2) == 0, step_mode);
    }
  }
  std::printf("ok: %llu scenes (%llu step loops), %llu check times, %llu swaps checked, %llu audits after swaps, "
              "%llu comparisons beyond doubles (%llu exact), %llu ball signs\n",
              (unsigned long long)scenes, (unsigned long long)steps_loops, (unsigned long long)checks,
              (unsigned long long)swaps_checked, (unsigned long long)audits, (unsigned long long)undecided,
              (unsigned long long)exact_cmp, (unsigned long long)ball_checks);
}
