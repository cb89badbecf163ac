// Every function taking or returning a vector here (event_times.hpp's closed_form and
// bounds functions on four lanes) is always inlined into the two builds of
// first_tests_never4: no call passes a vector, so GCC's note that the AVX and baseline
// ABIs pass them differently concerns no call in this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#include "structures/hard_spheres/event_times.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "kds/interval.hpp"
#include "kds/solver.hpp"

namespace kds::hard_spheres {
namespace {

using bounds::disc_error;
using bounds::safety;
using bounds::tiny;
using bounds::u;

// ---- The second filter: the sign of a certificate at a double in double-double.
// Error-free transformations (Knuth's TwoSum, Dekker's product by Veltkamp's split: this
// file is compiled with -ffp-contract=off) and the compensated sum Sum2 of Ogita, Rump
// and Oishi (2005), whose result s + sigma is within gamma_{n-2} gamma_{n-1} sum |t_i|
// of the exact sum. It decides the sign wherever the function exceeds about 1e-29 of its
// terms: everywhere but exact zeros and coincidences in the last bits, which go to the
// exact path.

struct Pair {
  double hi, lo;
};
inline Pair two_sum(double a, double b) {
  const double s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
inline Pair split(double a) {
  const double c = 134217729.0 * a;  // 2^27 + 1
  const double hi = c - (c - a);
  return {hi, a - hi};
}
inline Pair two_product(double a, double b) {
  const double p = a * b;
  const Pair x = split(a), y = split(b);
  return {p, ((x.hi * y.hi - p) + x.hi * y.lo + x.lo * y.hi) + x.lo * y.lo};
}
inline double gamma(int n) { return n * u / (1 - n * u); }

/// Sum2 over `n` terms: the sum as s + sigma (unevaluated) and the bound on its error.
struct Sum2 {
  double s = 0, sigma = 0, abs = 0;
  int n = 0;
  void add(double t) {
    abs += std::fabs(t);
    if (n++ == 0) {
      s = t;
      return;
    }
    const Pair q = two_sum(s, t);
    s = q.hi;
    sigma += q.lo;
  }
  double error() const { return n < 2 ? 0 : safety * gamma(n) * gamma(n) * abs; }
};

/// Sign of a value known as s + sigma within `err`: unknown if that does not decide.
/// `value` receives s + sigma (for a Newton step: instant_between).
inline Sign sign_within(double s, double sigma, double err, double& value) {
  const double v = s + sigma;  // relative error u: cannot flip a sign when |v| > 2 err
  value = v;
  if (v > 2 * err + tiny) return Sign::positive;
  if (v < -2 * err - tiny) return Sign::negative;
  return Sign::unknown;
}

/// x(t) - (p + v (t - start)) as the terms of an exact sum plus one inexact term's error.
inline void add_position(Sum2& sum, double& err, double sign, const Kinematics& m, int k, double x) {
  const Pair h = two_sum(x, -m.start);
  const Pair P = two_product(m.v[k], h.hi);
  const double q = m.v[k] * h.lo;
  sum.add(sign * m.p[k]);
  sum.add(sign * P.hi);
  sum.add(sign * P.lo);
  sum.add(sign * q);
  err += u * std::fabs(q);
}

/// What one evaluation of the pair's function f at a double x0 says about the doubles a
/// few ulps around it. The centres move linearly, so f is exactly the quadratic
///     f(x0 + d) = f(x0) + f'(x0) d + A d^2,   A = |v_a - v_b|^2 >= 0,
/// and with f(x0) and f'(x0) enclosed (from the evaluation's double-double differences of
/// the centres) the sign at x0 + d follows from a few operations in doubles wherever it is
/// not within the enclosures' width of 0: a search near the root then evaluates f once,
/// not at every double it tries (each evaluation about 1000 instructions).
struct PairExpansion {
  double x0 = 0;
  double value = 0, value_err = -1;  // f(x0) within value_err of value; value_err < 0: none yet
  double slope = 0, slope_err = 0;   // f'(x0) within slope_err of slope
  double a_hi = 0;                   // A <= a_hi
  bool known() const { return value_err >= 0; }
  /// The sign of f at the double x (positive, negative, or unknown), and in `estimate` a
  /// value of f there in doubles (for choosing probes only).
  Sign sign_at(double x, double& estimate) const {
    const Pair d = two_sum(x, -x0);
    if (d.lo != 0 || !std::isfinite(d.hi)) return Sign::unknown;  // x - x0 must be exact
    const double lin = slope * d.hi;
    const double F = value + lin;
    const double q = a_hi * d.hi * d.hi * (1 + 4 * u);  // A d^2 lies in [0, q]
    // |f(x0) + f'(x0) d - F| <= value_err + slope_err |d| + u |lin| + u |F|.
    const double err =
        safety * (value_err + slope_err * std::fabs(d.hi) + u * std::fabs(lin) + u * std::fabs(F)) + tiny;
    estimate = F + 0.5 * q;
    if (!std::isfinite(F) || !std::isfinite(err) || !std::isfinite(q)) return Sign::unknown;
    if (F - err > 0) return Sign::positive;                     // and A d^2 >= 0 only adds
    const double upper = F + q;
    if (upper + err + u * std::fabs(upper) < 0) return Sign::negative;
    return Sign::unknown;
  }
};

/// The pair's certificate |c_a - c_b|^2 - (ra + rb)^2 + allowance at the double x, and
/// (in `value`) its value there in doubles; with `expansion`, also f's expansion at x.
Sign pair_sign_dd(const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance, double x,
                  double& value, PairExpansion* expansion = nullptr) {
  Sum2 f;
  double err = 0;
  // For the expansion: f'(x) = 2 sum D_k V_k, with D_k the exact difference of the
  // centres at x (within eD_k of Dd_k) and V_k = v_a,k - v_b,k (within u |Vd_k| of Vd_k).
  // (eD_k does not count a low part of v h lost to underflow; that exceeds the slope's
  // floor `tiny` only where every D_k is below about 2^-974 and |V| above 2^74, and there
  // A d^2 exceeds the slope's term by some 2^940 wherever a sign can be claimed: found
  // by review, harmless.)
  double slope = 0, slope_err = 0, products = 0, a_sum = 0;
  for (int k = 0; k < 3; ++k) {
    Sum2 d;
    double e = 0;
    add_position(d, e, +1, a, k, x);
    add_position(d, e, -1, b, k, x);
    e += d.error();
    if (expansion != nullptr) {
      const double Dd = d.s + d.sigma, eD = e + u * std::fabs(Dd);
      const double Vd = a.v[k] - b.v[k];
      slope += Dd * Vd;
      products += std::fabs(Dd * Vd);
      slope_err += (eD + u * std::fabs(Dd)) * std::fabs(Vd) * (1 + 2 * u);
      a_sum += Vd * Vd;
    }
    // (s + sigma)^2 = s^2 + 2 s sigma + sigma^2, s^2 exactly.
    const Pair S = two_product(d.s, d.s);
    const double m = 2 * d.s * d.sigma, m2 = d.sigma * d.sigma;
    f.add(S.hi);
    f.add(S.lo);
    f.add(m);
    f.add(m2);
    const double dabs = std::fabs(d.s) + std::fabs(d.sigma);
    err += 2 * dabs * e + e * e + u * (std::fabs(m) + m2);
  }
  const Pair R = two_sum(ra, rb);
  const Pair Q = two_product(R.hi, R.hi);
  const double m = 2 * R.hi * R.lo, m2 = R.lo * R.lo;
  f.add(-Q.hi);
  f.add(-Q.lo);
  f.add(-m);
  f.add(-m2);
  f.add(allowance);
  err += u * (std::fabs(m) + m2);
  const double bound = safety * (err + f.error());
  const Sign sign = sign_within(f.s, f.sigma, bound, value);
  if (expansion != nullptr) {
    // value = fl(s + sigma) is within bound + u |value| of f(x); the slope's three products
    // and two sums round by at most 5u of the sum of |products| (first order; safety covers
    // the rest), and the factor 2 is exact.
    *expansion = PairExpansion{x,
                               value,
                               bound + u * std::fabs(value) + tiny,
                               2 * slope,
                               safety * 2 * (slope_err + 5 * u * products) + tiny,
                               a_sum * (1 + 8 * u) + tiny};
  }
  return sign;
}

/// The pair's certificate's derivative at x, in doubles: 2 (c_a - c_b) . (v_a - v_b).
double pair_slope(const Kinematics& a, const Kinematics& b, double x) {
  double slope = 0;
  for (int k = 0; k < 3; ++k) slope += 2 * (a.position(k, x) - b.position(k, x)) * (a.v[k] - b.v[k]);
  return slope;
}

/// The wall's certificate side (x(t) - plane) - r + allowance at the double x, and its
/// value in doubles.
Sign wall_sign_dd(const Kinematics& a, double r, int axis, double plane, int side, double allowance, double x,
                  double& value) {
  Sum2 f;
  double err = 0;
  add_position(f, err, side, a, axis, x);
  f.add(-side * plane);
  f.add(-r);
  f.add(allowance);
  return sign_within(f.s, f.sigma, safety * (err + f.error()), value);
}

/// The instant (smallest double >= T) given doubles L < T <= H with the function
/// positive before T and negative after it up to H: a search with certified signs of the
/// exact function (`sign_at(x, value)`, which also gives the function's value at x in
/// doubles), then kds's ceil_to_double, which evaluates exactly, for the last ulps the
/// signs cannot resolve. `slope(x)` is the derivative in doubles, for one Newton step from
/// the closed form's guess: it only chooses where to probe, so the answer is the same
/// whatever its accuracy (a sign evaluation costs about 1000 instructions: the guess is
/// often 10 ulps off, the Newton point within one).
template <class SignAt, class Slope>
double instant_between(double L, double H, double guess, const Function* (*make)(const void*), const void* data,
                       SignAt&& sign_at, Slope&& slope, TimeCounters& counters) {
  ++counters.instants;
  if (L == 0) L = 0.0;  // -0.0 would pass L >= 0 below with the bit pattern of a negative
  auto exact = [&] {
    ++counters.instants_exact;
    return ceil_to_double(Root::isolated(L, H, make(data)));
  };
  if (!(L >= 0)) {  // (times are never negative; bisect plainly if they were)
    while (next_up(L) < H) {
      double mid = L + 0.5 * (H - L);
      if (!(mid > L && mid < H)) mid = next_up(L);
      double ignored = 0;
      const Sign s = sign_at(mid, ignored);
      if (s == Sign::positive) L = mid;
      else if (s == Sign::negative || s == Sign::zero) H = mid;
      else return exact();
    }
    return H;
  }
  // Non-negative doubles are ordered as their bit patterns: search on the integers. The
  // closed form's value in doubles is usually within a few ulps of the root: probe there,
  // gallop outwards to bracket the root, then bisect.
  using Bits = std::uint64_t;
  auto bits = [](double x) { return std::bit_cast<Bits>(x); };
  auto value = [](Bits b) { return std::bit_cast<double>(b); };
  Bits lb = bits(L), hb = bits(H);
  // The sign at b; false when the double-double filter cannot tell (then: exact).
  double at_probe = 0;  // the function's value at the last probe, in doubles
  auto probe = [&](Bits b, bool& positive) {
    const Sign s = sign_at(value(b), at_probe);
    if (s == Sign::unknown) return false;
    positive = s == Sign::positive;
    if (positive) {
      lb = b;
      L = value(b);
    } else {
      hb = b;
      H = value(b);
    }
    return true;
  };
  if (hb - lb > 1 && guess == guess) {
    Bits g = std::clamp(bits(std::max(guess, 0.0)), lb + 1, hb - 1);
    bool positive = false;
    if (!probe(g, positive)) return exact();
    // One Newton step from the guess, if it lands strictly inside the bracket.
    const double x = value(g), newton = x - at_probe / slope(x);
    if (hb - lb > 1 && newton >= 0 && newton > L && newton < H) {
      const Bits n = std::clamp(bits(newton), lb + 1, hb - 1);
      if (n != g) {
        g = n;
        if (!probe(g, positive)) return exact();
      }
    }
    for (Bits step = 1; hb - lb > 1; step *= 2) {
      const Bits next = positive ? g + step : g - std::min(step, g);
      if (next <= lb || next >= hb) break;
      bool p = false;
      if (!probe(next, p)) return exact();
      if (p != positive) break;
      g = next;
    }
  }
  while (hb - lb > 1) {
    bool positive = false;
    if (!probe(lb + (hb - lb) / 2, positive)) return exact();
  }
  return H;
}

/// Two cases of pair_window that the doubles decide exactly, for a pair apart now (C > 0)
/// and not certainly approaching (B >= its error's minus: not the closed form's case), where
/// the exact path would run otherwise:
/// - equal velocities (V = 0: doubles differ by 0 only when equal, so the exact
///   difference is 0 too): the centres' difference is constant and f is the constant C,
///   positive: never fails. Spheres at rest in a slab or a packing are such pairs (on the
///   bullet-through-paper scene they were 97% of the exact path);
/// - B within its bound of 0 (a sphere sliding past another, perpendicular to their
///   centres' line) and the discriminant certainly negative: f has no real root and
///   stays positive, whatever B's sign.
[[gnu::noinline, gnu::cold]] bool never_fails_unless_approaching(const Kinematics& a, const Kinematics& b, double A,
                                                                 double errA, double B, double errB, double C,
                                                                 double errC) {
  return a.v == b.v || B * B - A * C < -disc_error(A, errA, B, errB, C, errC);
}

double exact_instant(const Function& f, double t0) {
  const Root r = first_failure(f, Root::at(t0));
  if (r.is_infinite()) return never;
  return ceil_to_double(r);
}

Window exact_window(const Function& f, double t0) {
  const double t = exact_instant(f, t0);
  return t == never ? Window{} : Window{t, t, t, true};
}

/// The exact path of pair_window, out of line: the fast path then keeps fewer registers.
[[gnu::noinline, gnu::cold]] Window exact_pair_window(const Kinematics& a, double ra, const Kinematics& b, double rb,
                                                      double allowance, double t0) {
  const PairFunction f(a, ra, b, rb, allowance);
  return exact_window(f.certificate, t0);
}

}  // namespace

ValueAndSlope pair_value_and_slope(const Kinematics& a, double ra, const Kinematics& b, double rb, double origin) {
  // Coordinate k of motion_of(m) at the origin as Motion::coordinate_line makes it (p + v h,
  // h = origin - start, each operation in NT), in either number type below.
  auto line = [origin]<class NT>(const Kinematics& m, int k, NT) {
    const double c0 = m.p[k], c1 = m.v[k];
    if (c1 == 0) return Line<NT>::constant(NT(c0));
    if (origin == m.start) return Line<NT>::linear(NT(c0), NT(c1));
    const NT h = NT(NT(origin) - NT(m.start));
    return Line<NT>::linear(NT(NT(c0) + NT(c1) * h), NT(c1));
  };
  // The interval function is BoundedQuartic's (certificates/bound_separation.hpp) unless
  // a value overflows: the same quartic from the same lines, and its coefficients and degree.
  {
    using B = BoundedDouble;
    std::array<Line<B>, 3> d;
    for (int k = 0; k < 3; ++k) d[static_cast<std::size_t>(k)] = line(a, k, B{}) - line(b, k, B{});
    const BoundedQuartic q(d, ShortPolynomial<B>(B(ra)), ShortPolynomial<B>(B(rb)), 0.0);
    if (const std::optional<std::array<Interval, 5>> c = q.enclosures())
      return {q.degree >= 0 ? (*c)[0] : Interval(0.0), q.degree >= 1 ? (*c)[1] : Interval(0.0)};
  }
  // Overflow: the interval path, BoundSeparation::function's short path for the motions of
  // PairFunction (Motion::coordinate_line, Line's difference, ShortPolynomial's square, sum
  // and difference, each trimming its zero leading coefficients), keeping only what the
  // first two coefficients depend on. c2 of a sum of squares is zero only if every
  // square's is, and a square's is zero only if its line is constant (trimmed to degree
  // 0), so c2's value is not needed: only whether it is zero.
  auto trim = [](int d, const Interval& c0, const Interval& c1, bool c2_zero) {
    if (d >= 2 && c2_zero) d = 1;
    if (d >= 1 && is_zero(c1)) d = 0;
    if (d >= 0 && is_zero(c0)) d = -1;
    return d;
  };
  // f = 0 (the allowance), then f + square(a_k - b_k) for each axis.
  Interval f0(0.0), f1(0.0);
  bool f2_zero = true;
  int f_degree = -1;
  for (int k = 0; k < 3; ++k) {
    const Line<Interval> d = line(a, k, Interval{}) - line(b, k, Interval{});
    Interval s0(0.0), s1(0.0);
    int s_degree = -1;
    if (d.degree == 0) {
      s0 = square(d.c0);
      s_degree = trim(0, s0, s1, true);
    } else if (d.degree == 1) {
      s0 = square(d.c0);
      s1 = twice(Interval(d.c0 * d.c1));
      s_degree = 2;  // square(d.c1) is not zero: d.c1 is not (trimmed)
    }
    // ShortPolynomial's sum: coefficients added up to the lower degree, the longer one's
    // copied above it (not added to an exact zero, which Interval would widen), zero
    // above the larger degree.
    const int sum_degree = std::max(f_degree, s_degree), common = std::min(f_degree, s_degree);
    const bool f_longer = f_degree >= s_degree;
    f0 = sum_degree < 0 ? Interval(0.0) : common >= 0 ? f0 + s0 : f_longer ? f0 : s0;
    f1 = sum_degree < 1 ? Interval(0.0) : common >= 1 ? f1 + s1 : f_longer ? f1 : s1;
    if (sum_degree >= 2) f2_zero = f2_zero && s_degree < 2;
    f_degree = trim(sum_degree, f0, f1, f2_zero);
  }
  // r = ra + rb (constants; a zero radius is the zero polynomial), then f - r^2.
  const int ra_degree = ra == 0 ? -1 : 0, rb_degree = rb == 0 ? -1 : 0;
  Interval r0(0.0);
  int r_degree = std::max(ra_degree, rb_degree);
  if (r_degree >= 0) r0 = ra_degree >= 0 && rb_degree >= 0 ? Interval(ra) + Interval(rb) : Interval(ra_degree >= 0 ? ra : rb);
  r_degree = trim(r_degree, r0, Interval(0.0), true);
  Interval q0(0.0);
  int q_degree = -1;
  if (r_degree >= 0) {
    q0 = square(r0);
    q_degree = trim(0, q0, Interval(0.0), true);
  }
  const int g_degree = std::max(f_degree, q_degree);
  Interval g0(0.0), g1(0.0);
  // (f - r^2: r^2 is a constant, so f's slope is copied; a missing side is copied or negated.)
  if (g_degree >= 0) g0 = f_degree >= 0 && q_degree >= 0 ? f0 - q0 : f_degree >= 0 ? f0 : -q0;
  if (g_degree >= 1) g1 = f1;
  const int degree = trim(g_degree, g0, g1, f2_zero);
  return {degree >= 0 ? g0 : Interval(0.0), degree >= 1 ? g1 : Interval(0.0)};
}

Root pair_root(const PairFunction& f, double t0) { return first_failure(f.certificate, Root::at(t0)); }
Root wall_root(const WallFunction& f, double t0) { return first_failure(f.certificate, Root::at(t0)); }

Window pair_window_closing(const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance,
                           double bound, const PairStart& start, TimeCounters& counters) {
  const double t0 = start.t0, B = start.B, C0 = start.C0;
  const double* D = start.D;
  const double* V = start.V;
  const double M = pair_magnitude(a, b, t0);
  const double eD = 8 * u * M + tiny;
  const double R = ra + rb;
  const double C = C0 - R * R + allowance;
  double A = 0, errB = 0, errC = 0;
  for (int k = 0; k < 3; ++k) {
    A += V[k] * V[k];
    errB += eD * std::fabs(V[k]) + 6 * u * std::fabs(D[k] * V[k]);
    errC += (2 * std::fabs(D[k]) + eD) * eD;
  }
  errB = safety * errB + tiny;
  errC = safety * (errC + 8 * u * (C0 + R * R + std::fabs(allowance))) + tiny;
  const double errA = bounds::a_error(A);
  // Moving apart: f only grows. f(t0) >= 0 holds for every pair the world asks about
  // (HardSphereWorld decides the allowance of every pair in contact at the later motion
  // start t0, as CollisionWorld::create_pair does, so that f + allowance >= 0 there unless
  // the pair approaches), so it never fails, touching or not.
  if (B > errB && C >= -errC) {
    ++counters.pair_rejected;
    return Window{};
  }
  if (C > errC) {
    if (B < -errB) {
      const double disc = B * B - A * C;
      const double errDisc = disc_error(A, errA, B, errB, C, errC);
      if (disc < -errDisc) {  // the pair passes by
        ++counters.pair_rejected;
        return Window{};
      }
      if (disc > errDisc) {
        // The first root s = C / (-B + sqrt(B^2 - A C)), enclosed with the bounds.
        const Interval Bi(B - errB, B + errB), Ci(C - errC, C + errC), Di(disc - errDisc, disc + errDisc);
        const Interval s = divide_positive(Ci, -Bi + sqrt(Di));
        const Interval T = Interval(t0) + s;
        if (T.lo() > bound) {
          ++counters.pair_beyond;
          return Window{};
        }
        // Before the vertex of the parabola, so that f decreases on [t0, T.hi]: the root
        // is isolated there (pair_instant bisects it).
        const Interval Ai(A - errA, A + errA);
        const Interval vertex = Interval(t0) + divide_positive(-Bi, Ai);
        if (T.hi() < vertex.lo()) {
          ++counters.pair_windows;
          return Window{std::max(T.lo(), t0), T.hi(), t0 + C / (-B + std::sqrt(disc)), false};
        }
      }
    } else if (never_fails_unless_approaching(a, b, A, errA, B, errB, C, errC)) {
      ++counters.pair_rejected;
      return Window{};
    }
  }
  // Touching now, a grazing pair, or signs too close to zero.
  ++counters.exact_fallbacks;
  return exact_pair_window(a, ra, b, rb, allowance, t0);
}

Window wall_window(const Kinematics& a, double r, int axis, double plane, int side, double allowance,
                   TimeCounters& counters) {
  ++counters.wall_tests;
  const double t0 = a.start;
  const double v = a.v[axis];
  // f(t) = side (x(t) - plane) - r + allowance, x(t0) = p exactly.
  // Not moving towards the wall and f(t0) >= 0 in doubles: the intervals below would say
  // never too (their upper bounds lie at or above the doubles' values, rounding being
  // monotonic), so half of the walls need none.
  if (side * v >= 0 && (side > 0 ? a.p[axis] - plane : plane - a.p[axis]) - r + allowance >= 0) return Window{};
  const Interval c = Interval(a.p[axis]);
  const Interval f0 = (side > 0 ? c - Interval(plane) : Interval(plane) - c) - Interval(r) + Interval(allowance);
  // Not moving towards the wall: never fails (f(t0) >= 0 as for pairs, by the allowance).
  if (side * v >= 0 && !f0.certainly_negative()) return Window{};
  if (f0.certainly_positive()) {
    const Interval T = Interval(t0) + divide_positive(f0, Interval(std::fabs(v)));
    ++counters.wall_windows;
    return Window{std::max(T.lo(), t0), T.hi(), t0 + f0.mid() / std::fabs(v), false};
  }
  ++counters.exact_fallbacks;
  const WallFunction f(a, r, axis, plane, side, allowance);
  return exact_window(f.certificate, t0);
}

double pair_instant(const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance, const Window& w,
                    TimeCounters& counters) {
  if (w.exact || !w.fails()) return w.lo;
  const double t0 = std::max(a.start, b.start);
  // Near the root intervals cannot tell the sign: the double-double filter, which can. The
  // first evaluation also gives f's expansion there (PairExpansion), which decides the
  // signs at the doubles around it, the search's next probes, in doubles; where it cannot,
  // f is evaluated again (and expanded there).
  PairExpansion expansion;
  auto sign_at = [&](double x, double& value) {
    if (expansion.known())
      if (const Sign s = expansion.sign_at(x, value); s != Sign::unknown) return s;
    return pair_sign_dd(a, ra, b, rb, allowance, x, value, &expansion);
  };
  auto slope = [&](double x) { return pair_slope(a, b, x); };
  struct Data {
    const Kinematics &a, &b;
    double ra, rb, allowance;
    std::unique_ptr<PairFunction> f;
  } data{a, b, ra, rb, allowance, nullptr};
  auto make = [](const void* p) -> const Function* {
    auto* d = const_cast<Data*>(static_cast<const Data*>(p));
    d->f = std::make_unique<PairFunction>(d->a, d->ra, d->b, d->rb, d->allowance);
    return &d->f->certificate;
  };
  // T >= w.lo > the double below it, and f > 0 on [t0, T).
  const double L = w.lo > t0 ? std::max(next_down(w.lo), t0) : t0;
  return instant_between(L, w.hi, w.guess, make, &data, sign_at, slope, counters);
}

double wall_instant(const Kinematics& a, double r, int axis, double plane, int side, double allowance, const Window& w,
                    TimeCounters& counters) {
  if (w.exact || !w.fails()) return w.lo;
  const double t0 = a.start;
  auto sign_at = [&](double x, double& value) { return wall_sign_dd(a, r, axis, plane, side, allowance, x, value); };
  auto slope = [&](double) { return side * a.v[axis]; };
  struct Data {
    const Kinematics& a;
    double r, plane, allowance;
    int axis, side;
    std::unique_ptr<WallFunction> f;
  } data{a, r, plane, allowance, axis, side, nullptr};
  auto make = [](const void* p) -> const Function* {
    auto* d = const_cast<Data*>(static_cast<const Data*>(p));
    d->f = std::make_unique<WallFunction>(d->a, d->r, d->axis, d->plane, d->side, d->allowance);
    return &d->f->certificate;
  };
  const double L = w.lo > t0 ? std::max(next_down(w.lo), t0) : t0;
  return instant_between(L, w.hi, w.guess, make, &data, sign_at, slope, counters);
}

// ---- pair_window's first tests, four pairs at a time

namespace {
using V4 = double __attribute__((vector_size(32)));
using M4 = long long __attribute__((vector_size(32)));  // lanes of a comparison: -1 (true) or 0
}  // namespace

/// |x| lane by lane: the sign bit cleared, as std::fabs does.
template <>
[[gnu::always_inline]] inline V4 bounds::magnitude<V4>(V4 x) {
  return reinterpret_cast<V4>(reinterpret_cast<M4>(x) & ~std::numeric_limits<long long>::min());
}

namespace {
// pair_start and pair_window's first tests on four lanes: the same closed_form and bounds
// functions as there, so the same doubles. Inlined into each build below (no function
// takes or returns a vector: the ABI of one differs between the builds).
[[gnu::always_inline]] inline unsigned never4(const FourPairs& q, const Magnitudes& magnitudes) {
  V4 as, bs, ra, rb, allowance;
  for (int l = 0; l < 4; ++l) {
    as[l] = q.a[l]->start;
    bs[l] = q.b[l]->start;
    ra[l] = q.ra[l];
    rb[l] = q.rb[l];
    allowance[l] = q.allowance[l];
  }
  // pair_start: a_later = !(a.start < b.start), the later-starting sphere (a on equal starts).
  const M4 a_later = ~(as < bs);
  const V4 t0 = a_later ? as : bs;
  const V4 h = t0 - (a_later ? bs : as);
  V4 B{}, C0{}, sumV{}, D[3], V[3];
  for (int k = 0; k < 3; ++k) {
    V4 ap, bp, av, bv;
    for (int l = 0; l < 4; ++l) {
      ap[l] = q.a[l]->p[k];
      bp[l] = q.b[l]->p[k];
      av[l] = q.a[l]->v[k];
      bv[l] = q.b[l]->v[k];
    }
    closed_form::add_axis(a_later ? ap : bp, a_later ? bp : ap, a_later ? av : bv, a_later ? bv : av, h, D[k], V[k], B, C0,
                          sumV);
  }
  // pair_window's first tests (with `magnitudes` known).
  const V4 M = magnitudes.bound(h);
  const V4 R = ra + rb;
  const V4 C = closed_form::c(C0, R, allowance);
  const V4 errB_c = bounds::coarse_b_error(M, sumV);
  const V4 errC_c = bounds::coarse_c_error(M, C0, R, allowance);
  const V4 A = closed_form::a(V);
  const V4 disc = closed_form::discriminant(A, B, C);
  const V4 errDisc_c = bounds::disc_error(A, bounds::a_error(A), B, errB_c, C, errC_c);
  const M4 never = closed_form::moving_apart(C, B, errB_c) | (closed_form::closing_in(C, errC_c, B, errB_c) & (disc < -errDisc_c));
  unsigned mask = 0;
  for (int k = 0; k < 4; ++k)
    if (never[k] != 0) mask |= 1u << k;
  return mask;
}

}  // namespace

namespace detail {
Sign pair_sign_from_expansion(const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance, double x0,
                              double x) {
  PairExpansion expansion;
  double ignored = 0;
  pair_sign_dd(a, ra, b, rb, allowance, x0, ignored, &expansion);
  return expansion.sign_at(x, ignored);
}

unsigned first_tests_never4_baseline(const FourPairs& q, const Magnitudes& magnitudes) { return never4(q, magnitudes); }
#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2"))) unsigned first_tests_never4_avx2(const FourPairs& q, const Magnitudes& magnitudes) {
  return never4(q, magnitudes);
}
bool first_tests_avx2() {
  static const bool supported = __builtin_cpu_supports("avx2");
  return supported;
}
#else
unsigned first_tests_never4_avx2(const FourPairs& q, const Magnitudes& magnitudes) { return never4(q, magnitudes); }
bool first_tests_avx2() { return false; }
#endif
}  // namespace detail

unsigned first_tests_never4(const FourPairs& q, const Magnitudes& magnitudes) {
  static const auto run = detail::first_tests_avx2() ? &detail::first_tests_never4_avx2 : &detail::first_tests_never4_baseline;
  return run(q, magnitudes);
}


}  // namespace kds::hard_spheres
