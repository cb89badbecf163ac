#pragma once
/// \file
/// When a pair of ballistic spheres meets, or a sphere reaches a wall, as the *instant*
/// kds processes it: the smallest double at or after the exact failure time of the
/// collision world's certificate (BoundSeparation, PlaneSide) over the same motions, with
/// the same allowance. That is the time CollisionWorld logs (Simulator::round_clock), so
/// that the hard-sphere path and the all-pairs reference log identical contacts.
///
/// The fast path is the quadratic's closed form in doubles with a rigorous error bound
/// (every rounding of the coefficients counted, first order, times a safety factor), then
/// the instant found by bisection on doubles with interval signs of the exact function
/// (kds::Interval: outward rounding). Where the bound cannot decide (a contact now, a
/// grazing pair, a root within an ulp of a double, a sign too close to zero), the exact
/// path runs: the world's own certificate function over the same motions, kds's
/// first_failure and ceil_to_double (interval filter, then GMP and CGAL). Counted.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

#include "certificates/bound_separation.hpp"
#include "certificates/plane_side.hpp"
#include "kds/interval.hpp"
#include "kds/motion.hpp"
#include "kds/root.hpp"

namespace kds::hard_spheres {

/// A ballistic motion without gravity: x(t) = p + v (t - start), the same doubles as the
/// world's Motion<3>::accelerated(start, p, v, 0) (position() computes v * dt + p).
struct Kinematics {
  Vec<3> p{};
  Vec<3> v{};
  double start = 0;
  double position(int k, double t) const { return v[k] * (t - start) + p[k]; }
  Vec<3> position(double t) const { return {position(0, t), position(1, t), position(2, t)}; }
};

/// How often each path ran.
struct TimeCounters {
  std::uint64_t pair_tests = 0;       ///< pair instants asked for
  std::uint64_t pair_rejected = 0;    ///< ... decided "never" by the doubles (apart, missing)
  std::uint64_t pair_rejected_coarse = 0;  ///< ... of which by pair_window's first tests (coarse bounds)
  std::uint64_t pair_beyond = 0;      ///< ... decided "later than the bound" by the root's enclosure
  std::uint64_t pair_beyond_coarse = 0;  ///< ... of which by pair_window's first tests (coarse bounds)
  std::uint64_t pair_windows = 0;     ///< ... enclosed by the closed form's error bound
  std::uint64_t wall_tests = 0;
  std::uint64_t wall_windows = 0;     ///< wall failures enclosed by the bound
  std::uint64_t exact_fallbacks = 0;  ///< failures the bounds could not enclose: kds's exact path
  std::uint64_t instants = 0;         ///< instants resolved from a window
  std::uint64_t instants_exact = 0;   ///< ... that needed exact evaluation in the last ulps
};

/// The owner of the world's certificate functions for one pair (or one sphere and a
/// wall), so that the exact path evaluates *the same* function as CollisionWorld: body 0
/// is the sphere of smaller id.
struct MotionPair {
  std::array<Motion<3>, 2> motion;
  std::array<double, 2> radii{};
  template <class NT>
  Polynomial<NT> centre(BodyId id, int axis, double origin) const {
    return motion[id.index].template coordinate<NT>(axis, origin);
  }
  template <class NT>
  Polynomial<NT> radius(BodyId id, double /*origin*/) const {
    return Polynomial<NT>(NT(radii[id.index]));  // Bound::radius_polynomial of a ballistic sphere
  }
  /// BoundSeparation's fast path (certificates/bound_separation.hpp), as CollisionWorld
  /// offers it: the same function bit for bit, built on the stack.
  template <class NT>
  bool centre_line(BodyId id, int axis, double origin, Line<NT>& out) const {
    return motion[id.index].template coordinate_line<NT>(axis, origin, out);
  }
  template <class NT>
  ShortPolynomial<NT> short_radius(BodyId id, double /*origin*/) const {
    return ShortPolynomial<NT>(NT(radii[id.index]));
  }
  void separation_failed(BoundSeparation<MotionPair>&, Simulator&) {}
  void plane_crossed(PlaneSide<MotionPair>&, Simulator&) {}
};

inline Motion<3> motion_of(const Kinematics& k) { return Motion<3>::accelerated(k.start, k.p, k.v, {0, 0, 0}); }

/// The pair's certificate (CollisionWorld::PairCertificate's function), kept alive with
/// its owner while a Root refers to it.
struct PairFunction {
  MotionPair owner;
  BoundSeparation<MotionPair> certificate;
  /// a: the sphere of smaller id.
  PairFunction(const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance)
      : owner{{motion_of(a), motion_of(b)}, {ra, rb}},
        certificate(owner, BodyId{0, 0}, BodyId{1, 0}, "collision", 0, allowance) {}
};

/// The wall's certificate (CollisionWorld::WallCertificate's function).
struct WallFunction {
  MotionPair owner;
  PlaneSide<MotionPair> certificate;
  WallFunction(const Kinematics& a, double r, int axis, double plane, int side, double allowance)
      : owner{{motion_of(a), motion_of(a)}, {r, r}},
        certificate(owner, BodyId{0, 0}, axis, plane, side, "wall", 0, -1, allowance) {}
};

inline constexpr double never = std::numeric_limits<double>::infinity();

/// Where an exact failure time T lies: lo <= T <= hi (doubles). `exact`: lo == hi is the
/// instant itself (the smallest double >= T). lo == never: it never fails.
struct Window {
  double lo = never, hi = never;
  double guess = never;  ///< the closed form's value in doubles, where the instant likely is
  bool exact = false;
  bool fails() const { return lo != never; }
};

/// The constants of the error bounds of the closed forms below (event_times.cpp).
namespace bounds {
inline constexpr double u = 0x1p-53;       // unit roundoff
inline constexpr double safety = 1.0625;   // on every first-order error bound (second-order terms)
inline constexpr double tiny = 0x1p-1000;  // absolute floor of the bounds (underflow)
/// The bound on the rounding of A = V.V (the differences V_k, three squares and two sums,
/// first order), with the absolute floor every other bound has: products that
/// underflow round by up to half the smallest subnormal, far above 8u A (found by review:
/// without the floor, pairs with |V| below about 1e-154 far apart were "passing by" but met).
/// (Written once for a double and for the lanes of a vector, first_tests_never4, so that
/// both compute the same doubles; always inlined, so that no copy taking a vector is ever
/// called across the two builds of first_tests_never4, whose vector ABIs differ.)
template <class T>
[[gnu::always_inline]] inline T a_error(T A) {
  return safety * 8 * u * A + tiny;
}
/// |x|: std::fabs for a double; lane by lane, bit for bit the same, for the lanes of a
/// vector (its specialisation is in event_times.cpp).
template <class T>
T magnitude(T x);
template <>
[[gnu::always_inline]] inline double magnitude<double>(double x) {
  return std::fabs(x);
}
/// The bound on the rounding of the discriminant B^2 - A C in doubles (A >= 0, C > 0), given
/// bounds on the errors of A, B and C. It grows with each of them (every term is a sum of
/// non-negative products, and rounding is monotonic): a larger error bound in gives a
/// larger bound out.
template <class T>
[[gnu::always_inline]] inline T disc_error(T A, T errA, T B, T errB, T C, T errC) {
  return safety * (2 * magnitude(B) * errB + errB * errB + A * errC + C * errA + errA * errC + 4 * u * (B * B + A * C)) +
         tiny;
}
/// pair_window's first tests' coarse bounds, from M, a bound on the pair's magnitude
/// (below): on the rounding of D_k, eD = 8 u M + tiny; of B (errB, from sum |V_k|); of C
/// (errC). Each is at least pair_window_closing's own (pair_window explains why).
template <class T>
[[gnu::always_inline]] inline T coarse_d_error(T M) {
  return 8 * u * M + tiny;
}
template <class T>
[[gnu::always_inline]] inline T coarse_b_error(T M, T sumV) {
  return 1.001 * safety * (coarse_d_error(M) + 7 * u * M) * sumV + 2 * tiny;
}
template <class T>
[[gnu::always_inline]] inline T coarse_c_error(T M, T C0, T R, T allowance) {
  const T eD = coarse_d_error(M);
  return 1.001 * safety * (3 * (2 * (1 + 8 * u) * M + eD) * eD + 8 * u * (C0 + R * R + magnitude(allowance))) +
         2 * tiny;
}
}  // namespace bounds

/// Bounds on the magnitudes of every motion a caller passes to pair_window: |p_k| <= p and
/// |v_k| <= v for every coordinate of every position and velocity (a world keeps the
/// largest it has set). They let the first tests bound the roundings without a pair's own
/// magnitudes; infinite (the default) means unknown.
struct Magnitudes {
  double p = std::numeric_limits<double>::infinity();
  double v = std::numeric_limits<double>::infinity();
  void include(const Kinematics& k) {
    for (int i = 0; i < 3; ++i) {
      p = std::max(p, std::fabs(k.p[i]));
      v = std::max(v, std::fabs(k.v[i]));
    }
  }
  /// At least the pair's largest magnitude M (pair_window_closing) for a pair whose
  /// earlier motion started h before the later one: |fl(v_k h)| = fl(|v_k| h) <= fl(v h)
  /// (rounding is monotonic; also where the product is subnormal), so M, three terms summed
  /// in any order, is at most (2p + fl(v h)) (1 + u)^2, and this, computed in doubles, is
  /// above that (its sum and product round by at most 1 + u each; 1 + 8u covers them).
  template <class T>
  [[gnu::always_inline]] T bound(T h) const {
    return (2 * p + v * h) * (1 + 8 * bounds::u);
  }
};

/// What pair_window computes of a pair before it knows whether the pair closes in: at
/// t0, the later of the two motion starts, the centres' difference D and the velocities'
/// difference V in doubles (from the later-starting sphere to the other: the sign does not
/// matter below), B = D.V, C0 = D.D, sum |V_k|, and h, how long before t0 the other
/// motion started.
struct PairStart {
  double t0, h;
  double D[3], V[3];
  double B, C0, sumV;
};
/// pair_window's arithmetic, written once for a double and for the lanes of a vector
/// (first_tests_never4), so that both compute the same doubles in the same order.
namespace closed_form {
/// One axis of pair_start: D_k and V_k, added into B = D.V, C0 = D.D and sum |V_k|.
template <class T>
[[gnu::always_inline]] inline void add_axis(T later_p, T earlier_p, T later_v, T earlier_v, T h, T& D, T& V, T& B, T& C0,
                                             T& sumV) {
  D = later_p - (earlier_v * h + earlier_p);
  V = later_v - earlier_v;
  B += D * V;
  C0 += D * D;
  sumV += bounds::magnitude(V);
}
/// C = D.D - R^2 + allowance, A = V.V, the discriminant B^2 - A C.
template <class T>
[[gnu::always_inline]] inline T c(T C0, T R, T allowance) {
  return C0 - R * R + allowance;
}
template <class T>
[[gnu::always_inline]] inline T a(const T (&V)[3]) {
  return V[0] * V[0] + V[1] * V[1] + V[2] * V[2];
}
template <class T>
[[gnu::always_inline]] inline T discriminant(T A, T B, T C) {
  return B * B - A * C;
}
/// The first tests' decisions (pair_window): moving apart (f only grows from f(t0) >= 0;
/// only for a finite B), and closing in but passing by (no real root). A bool for a
/// double, a mask of lanes for a vector.
template <class T>
[[gnu::always_inline]] inline auto moving_apart(T C, T B, T errB) {
  return (C >= 0) & (B <= std::numeric_limits<double>::max()) & (B > errB);
}
template <class T>
[[gnu::always_inline]] inline auto closing_in(T C, T errC, T B, T errB) {
  return (C > errC) & (B < -errB);
}
}  // namespace closed_form

inline PairStart pair_start(const Kinematics& a, const Kinematics& b) {
  // The sphere whose motion starts later is at its start point at t0 (its p, exactly: v * 0
  // + p == p): only the other one's position is computed. The same doubles as computing
  // both, with half the operations.
  const bool a_later = !(a.start < b.start);
  const Kinematics& later = a_later ? a : b;
  const Kinematics& earlier = a_later ? b : a;
  PairStart s;
  s.t0 = later.start;
  s.h = s.t0 - earlier.start;
  s.B = 0, s.C0 = 0, s.sumV = 0;
  for (int k = 0; k < 3; ++k)
    closed_form::add_axis(later.p[k], earlier.p[k], later.v[k], earlier.v[k], s.h, s.D[k], s.V[k], s.B, s.C0, s.sumV);
  return s;
}
/// The pair's largest magnitude M = max_k |p_k| + |v_k h| + |p'_k| + |v'_k h'| (h, h': from
/// each motion's start to t0, one of them 0): |D_k - exact| <= 8 u M, the rounding of h,
/// of v h, of p + v h on each side, and of the difference.
inline double pair_magnitude(const Kinematics& a, const Kinematics& b, double t0) {
  const double ha = t0 - a.start, hb = t0 - b.start;
  double M = 0;
  for (int k = 0; k < 3; ++k)
    M = std::max(M, std::fabs(a.p[k]) + std::fabs(a.v[k] * ha) + std::fabs(b.p[k]) + std::fabs(b.v[k] * hb));
  return M;
}

/// pair_window past its first tests, with the error bounds of the pair's own magnitude:
/// called alone (with pair_start), it gives the same answer as pair_window.
Window pair_window_closing(const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance,
                           double bound, const PairStart& start, TimeCounters& counters);

/// The window of the pair's failure (a is the sphere of smaller id), from the later of
/// the two motion starts on: the closed form in doubles with its error bound, a few
/// ulps wide; the exact instant where the bound cannot decide. May also return "never"
/// when the failure is certainly later than `bound` (the caller wants only earlier ones).
/// `magnitudes` bound a and b's (Magnitudes): the answer is the same without them.
///
/// Inline up to its first tests, which decide most pairs of a scan (moving apart, or
/// closing in and passing by) with coarse error bounds, cheaper than the pair's own
/// (pair_window_closing).
inline Window pair_window(const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance,
                          double bound, TimeCounters& counters, const Magnitudes& magnitudes = {}) {
  using bounds::safety, bounds::tiny, bounds::u;
  ++counters.pair_tests;
  const PairStart s = pair_start(a, b);
  // f(t0 + s) = A s^2 + 2 B s + C with A = V.V, B = D.V, C = D.D - R^2 + allowance.
  // Each bound below is at least the one pair_window_closing computes, so a pair decided
  // here is decided there the same way, and the others get exactly its answer. With M the
  // pair's largest magnitude (pair_magnitude, or more: `magnitudes`), |D_k - exact| <= eD
  // = 8 u M + tiny and |D_k| <= M (1 + 6u). So the bounds there,
  //   errB = safety sum (eD |V_k| + 6u |D_k V_k|) + tiny and
  //   errC = safety (sum (2 |D_k| + eD) eD + 8u (C0 + R^2 + |allowance|)) + tiny,
  // are at most errB_c and errC_c below (the factor 1.001 covers their own roundings).
  const bool known = magnitudes.p <= std::numeric_limits<double>::max() &&
                     magnitudes.v <= std::numeric_limits<double>::max();
  const double M = known ? magnitudes.bound(s.h) : pair_magnitude(a, b, s.t0);
  const double R = ra + rb;
  const double C = closed_form::c(s.C0, R, allowance);
  const double errB_c = bounds::coarse_b_error(M, s.sumV);
  // Moving apart: f only grows from f(t0) >= 0. Only for a finite B: a product D_k V_k that
  // overflows makes B infinite and the finer bound infinite (then the exact path decides),
  // while this bound stays finite (found by review).
  if (closed_form::moving_apart(C, s.B, errB_c)) {
    ++counters.pair_rejected;
    ++counters.pair_rejected_coarse;
    return Window{};
  }
  // Closing in but passing by: f has no real root (the discriminant certainly negative).
  const double errC_c = bounds::coarse_c_error(M, s.C0, R, allowance);
  if (closed_form::closing_in(C, errC_c, s.B, errB_c)) {
    const double A = closed_form::a(s.V);
    const double errA = bounds::a_error(A);
    const double disc = closed_form::discriminant(A, s.B, C);
    const double errDisc_c = bounds::disc_error(A, errA, s.B, errB_c, C, errC_c);
    if (disc < -errDisc_c) {
      ++counters.pair_rejected;
      ++counters.pair_rejected_coarse;
      return Window{};
    }
    // Certainly meeting, but after `bound`: the first root s = C / (-B + sqrt(disc)) is at
    // least num / den with each part at its end of the coarse bounds, which lies at or
    // below the lower end of pair_window_closing's enclosure: num and den are its
    // numerator's lower end and denominator's upper end or beyond (at most a few ulps
    // inside them, from rounding to nearest here), and 1 - 2^-40 takes far more than those
    // ulps off. Its sum with t0 is rounded down as there, so "beyond" here is "beyond" there.
    // Only for a normal, finite quotient: relative rounding bounds hold only there, and an
    // infinite one (a root more than the largest double away) would be rounded down to the
    // largest double, above the enclosure's lower end, which is clamped first (found by
    // review: a wrong "later" for t0 near -1e308).
    if (disc > errDisc_c) {
      const double num = C - errC_c;
      const double den = (-s.B + errB_c) + std::sqrt(disc + errDisc_c);
      const double at_least = num / den * (1 - 0x1p-40);
      if (at_least >= 0x1p-1022 && at_least <= std::numeric_limits<double>::max() &&
          (Interval(s.t0) + Interval(at_least)).lo() > bound) {
        ++counters.pair_beyond;
        ++counters.pair_beyond_coarse;
        return Window{};
      }
    }
  }
  return pair_window_closing(a, ra, b, rb, allowance, bound, s, counters);
}

/// pair_window's first tests for four pairs at once: bit k of the result is set when they
/// decide pair k "never" (moving apart, or closing in and passing by), the answer
/// pair_window gives it then without going further. The same operations in the same
/// order as there, on four lanes (IEEE operations give each lane the scalar result; none
/// is fused: -ffp-contract=off), so a set bit is exactly pair_window's decision and a
/// clear one means pair_window goes past its first tests. a[k] is the sphere of smaller
/// id of pair k, as for pair_window; `magnitudes` must be known (finite). Built twice, for
/// AVX2 and for the x86-64 baseline (SSE2, two lanes at a time), the one the processor
/// runs chosen on the first call. A scan of neighbours puts its pairs through this
/// first: most are decided here, at a fraction of the scalar cost.
struct FourPairs {
  const Kinematics* a[4];
  const Kinematics* b[4];
  double ra[4], rb[4], allowance[4];
};
unsigned first_tests_never4(const FourPairs& pairs, const Magnitudes& magnitudes);
namespace detail {
/// The sign at the double x of the pair's function (as pair_instant's search reads it)
/// from its expansion at the double x0 (the quadratic's value and slope at x0 enclosed by
/// one double-double evaluation there): unknown where the enclosures cannot tell. For tests.
Sign pair_sign_from_expansion(const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance, double x0,
                              double x);
/// The two builds of first_tests_never4, for tests (the AVX2 one only where
/// first_tests_avx2() says the processor has it).
unsigned first_tests_never4_baseline(const FourPairs& pairs, const Magnitudes& magnitudes);
unsigned first_tests_never4_avx2(const FourPairs& pairs, const Magnitudes& magnitudes);
bool first_tests_avx2();
}  // namespace detail

/// The window of the failure of a sphere's certificate against a wall (plane at `plane`
/// on `axis`; side +1 for a low wall, -1 for a high one), from its motion's start on.
Window wall_window(const Kinematics& a, double r, int axis, double plane, int side, double allowance,
                   TimeCounters& counters);

/// The instant of a failure given its window: bisection with interval signs of the exact
/// function, then kds's ceil_to_double (exact evaluation at doubles) for the last ulps.
double pair_instant(const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance, const Window& w,
                    TimeCounters& counters);
double wall_instant(const Kinematics& a, double r, int axis, double plane, int side, double allowance, const Window& w,
                    TimeCounters& counters);

/// The pair's certificate function with no allowance, at `origin`, as the first two
/// coefficients of its interval polynomial there: f(origin) and f'(origin) (0 when the
/// polynomial's degree is below 1), bit for bit those of
/// `PairFunction(a, ra, b, rb, 0).certificate.interval_polynomial(origin)`, which is what
/// allowance_at reads. The same interval operations on the coefficients it needs, in the
/// same order, with the same trimming of zero coefficients (which decides which sums
/// happen), without building the function or its higher coefficients: a restart decides
/// the allowance of every pair it leaves touching, and that polynomial was 6% of the
/// paper's ballistic scene. Tested against it bit for bit.
struct ValueAndSlope {
  Interval value, slope;
};
ValueAndSlope pair_value_and_slope(const Kinematics& a, double ra, const Kinematics& b, double rb, double origin);

/// The exact failure times themselves (for ordering the events of one instant): the
/// functions must outlive the roots.
Root pair_root(const PairFunction& f, double t0);
Root wall_root(const WallFunction& f, double t0);

}  // namespace kds::hard_spheres
