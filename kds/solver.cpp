// The filter: failure times from interval (or, in floating mode, double) polynomials.
// Whatever the filter cannot decide goes to the exact path in kds/exact/.
#include "kds/solver.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cmath>
#include <optional>

#include "kds/error_free.hpp"
#include "kds/exact/algebraic.hpp"

namespace kds {

SolverCounters& solver_counters() {
  thread_local SolverCounters counters;
  return counters;
}

namespace {

// ---- Sign tests that are certain for intervals and trivially so for doubles ----
bool positive(const Interval& x) { return x.certainly_positive(); }
bool negative(const Interval& x) { return x.certainly_negative(); }
bool positive(double x) { return x > 0; }
bool negative(double x) { return x < 0; }
double upper(const Interval& x) { return x.hi(); }
double upper(double x) { return x; }
double lower(const Interval& x) { return x.lo(); }
double lower(double x) { return x; }
Interval span(double a, double b, Interval) { return Interval(a, b); }
double span(double a, double b, double) { return 0.5 * (a + b); }

/// The outcome of the filter in local time u (u = 0 is where the search starts).
struct LocalResult {
  enum Kind { never, fails_at_start, root, undecided } kind = undecided;
  double lo = 0, hi = 0;  // isolating interval of the root in u
};

/// Inward-rounded sum a + b: a double that is >= (lower) or <= (upper) the exact sum.
double sum_up(double a, double b) { return (Interval(a) + Interval(b)).hi(); }

/// An upper bound on the positive roots of q (q(0) > 0 known), or nullopt if undecided.
/// Only coefficients that may have the sign opposite to the leading one contribute
/// (a Lagrange-type bound); if none does, q has no positive root and 0 is returned.
template <class NT>
std::optional<double> positive_root_bound(const Polynomial<NT>& q) {
  const int d = q.degree();
  const NT& lead = q[d];
  if (!positive(lead) && !negative(lead)) return std::nullopt;
  const bool lead_pos = positive(lead);
  const double lead_abs = lead_pos ? lower(lead) : -upper(lead);
  double bound = 0;
  for (int i = 0; i < d; ++i) {
    bool may_oppose = lead_pos ? lower(q[i]) < 0 : upper(q[i]) > 0;
    if (!may_oppose) continue;
    double mag = std::max(std::fabs(lower(q[i])), std::fabs(upper(q[i])));
    double r = std::pow(mag / lead_abs, 1.0 / (d - i));
    bound = std::max(bound, r);
  }
  if (bound == 0) return 0.0;
  bound = 2 * bound * (1 + 1e-9) + 1e-300;  // slack for the rounding of pow and division
  if (!std::isfinite(bound)) return std::nullopt;
  return bound;
}

/// First failure of q on u > 0 for degree 1 and 2, in closed form; q(0) > 0 known.
template <class NT>
LocalResult closed_form(const Polynomial<NT>& q) {
  LocalResult r;
  const int d = q.degree();
  const NT& c0 = q[0];
  const NT c1 = d >= 1 ? q[1] : NT(0);
  if (d == 1) {
    if (lower(c1) >= 0) return {LocalResult::never};
    if (!negative(c1)) return r;
    NT u = NT(-c0) / c1;  // positive
    r.kind = LocalResult::root;
    r.lo = std::max(0.0, lower(u));
    r.hi = upper(u);
    return r;
  }
  const NT& c2 = q[2];
  if (!positive(c2) && !negative(c2)) return r;
  NT disc = c1 * c1 - NT(4.0) * c0 * c2;
  if (positive(c2)) {
    // Both roots have the sign of -c1 (their product c0/c2 is positive).
    if (lower(c1) >= 0 || negative(disc)) return {LocalResult::never};
    if (!negative(c1) || !positive(disc)) return r;  // near-tangent or undecided direction
    NT sq = sqrt(disc);
    NT small = NT(2.0) * c0 / (sq - c1);   // stable: -c1 > 0
    NT large = (sq - c1) / (NT(2.0) * c2);
    if (upper(small) >= lower(large)) return r;  // roots not separated
    r.kind = LocalResult::root;
    r.lo = std::max(0.0, lower(small));
    r.hi = upper(small);
    return r;
  }
  // c2 < 0: exactly one positive root, where q goes from + to -.
  NT sq = sqrt(disc);
  // With c1 < 0 possible, sq - c1 is positive exactly but may not be certainly so.
  if (lower(c1) < 0 && !positive(NT(sq - c1))) return r;
  NT u = lower(c1) >= 0 ? NT((c1 + sq) / (NT(-2.0) * c2)) : NT(NT(2.0) * c0 / (sq - c1));
  r.kind = LocalResult::root;
  r.lo = std::max(0.0, lower(u));
  r.hi = upper(u);
  return r;
}

/// The Bernstein coefficients of q(bound * x) on x in [0, 1] (q of degree d).
template <class NT>
std::array<NT, Polynomial<NT>::max_degree + 1> bernstein_coefficients(const Polynomial<NT>& q, double bound) {
  const int d = q.degree();
  using Coeffs = std::array<NT, Polynomial<NT>::max_degree + 1>;
  Coeffs a{}, b{};
  NT scale(1.0);
  for (int i = 0; i <= d; ++i) {
    a[i] = q[i] * scale;
    scale = scale * NT(bound);
  }
  // b_k = sum_{i<=k} C(k,i)/C(d,i) a_i
  for (int k = 0; k <= d; ++k) {
    NT s(0.0);
    double ck = 1;  // C(k, i)
    double cd = 1;  // C(d, i)
    for (int i = 0; i <= k; ++i) {
      s = s + a[i] * (NT(ck) / NT(cd));  // C(k,i)/C(d,i) is not a double in general
      ck = ck * (k - i) / (i + 1);
      cd = cd * (d - i) / (i + 1);
    }
    b[k] = s;
  }
  return b;
}

/// The same search as bernstein_search below, run on the midpoints of the interval
/// Bernstein coefficients in plain doubles with one rigorous error bound for all of them
/// (several times cheaper than interval arithmetic, which rounds every operation outward
/// by hand). A sign is taken only where a coefficient clears the bound. Why the bound
/// holds: every coefficient of a piece is a convex combination of the starting ones (de
/// Casteljau at 1/2 only averages), so an error e on the inputs stays at most e, and each
/// averaging adds at most one rounding of a value of magnitude <= M, the largest starting
/// coefficient: u M (u = 2^-53) for the sum, halving exact but for subnormals (2^-1075).
/// At depth k a coefficient has gone through at most k d averagings. Returns undecided
/// where the interval search might still decide (a root near a coefficient's noise).
LocalResult bernstein_search_doubles(const std::array<Interval, Polynomial<Interval>::max_degree + 1>& bi, int d,
                                     double bound) {
  using Coeffs = std::array<double, Polynomial<double>::max_degree + 1>;
  Coeffs b{};
  double e0 = 0, magnitude = 0;
  for (int k = 0; k <= d; ++k) {
    const double lo = bi[k].lo(), hi = bi[k].hi();
    if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
    b[k] = lo + 0.5 * (hi - lo);
    if (!(b[k] >= lo && b[k] <= hi)) b[k] = lo;  // hi - lo overflowed
    e0 = std::max({e0, (Interval(hi) - Interval(b[k])).hi(), (Interval(b[k]) - Interval(lo)).hi()});
    magnitude = std::max({magnitude, std::fabs(lo), std::fabs(hi)});
  }
  // One averaging's rounding, rounded up with a generous margin.
  const double step = next_up((0x1p-53 * magnitude + 0x1p-1074) * (1 + 0x1p-40));
  struct Piece {
    double x0, x1;
    Coeffs c;
    int depth;
  };
  std::array<Piece, 80> stack;
  int top = 0;
  stack[top++] = {0.0, 1.0, b, 0};
  while (top > 0) {
    Piece p = stack[--top];
    // The error bound at this depth, rounded up (k d + 1 roundings at most, counted generously).
    const double e = next_up(next_up(e0 + step * (p.depth * d + 2)) * (1 + 0x1p-40));
    int variations = 0, last = 0;
    bool certain = true, all_positive = true;
    for (int k = 0; k <= d; ++k) {
      const int s = p.c[k] > e ? 1 : p.c[k] < -e ? -1 : 0;
      if (s == 0) { certain = false; all_positive = false; continue; }
      if (s < 0) all_positive = false;
      if (last != 0 && s != last) ++variations;
      last = s;
    }
    if (all_positive) continue;
    if (certain && variations == 1 && p.c[0] > e && p.c[d] < -e) {
      LocalResult r;
      r.kind = LocalResult::root;
      r.lo = (Interval(bound) * Interval(p.x0)).hi();
      r.hi = (Interval(bound) * Interval(p.x1)).lo();
      if (r.lo >= r.hi) return {};
      return r;
    }
    if (certain && variations == 0) return {};
    const double mid = 0.5 * (p.x0 + p.x1);
    // Give up early (the interval search goes on): a root the noise hides.
    if (p.depth >= 50 || !(mid > p.x0 && mid < p.x1) || top + 2 > static_cast<int>(stack.size())) return {};
    Coeffs left{}, right{}, w = p.c;
    for (int k = 0; k <= d; ++k) {
      left[k] = w[0];
      right[d - k] = w[d - k];
      for (int i = 0; i < d - k; ++i) w[i] = (w[i] + w[i + 1]) * 0.5;
    }
    stack[top++] = {mid, p.x1, right, p.depth + 1};
    stack[top++] = {p.x0, mid, left, p.depth + 1};
  }
  return {LocalResult::never};
}

/// First failure of q on u in (0, bound], by subdivision in the Bernstein basis; q(0) > 0.
template <class NT>
LocalResult bernstein_search(const Polynomial<NT>& q, double bound) {
  const int d = q.degree();
  using Coeffs = std::array<NT, Polynomial<NT>::max_degree + 1>;
  const Coeffs b = bernstein_coefficients(q, bound);
  if constexpr (std::is_same_v<NT, Interval>) {
    const LocalResult fast = bernstein_search_doubles(b, d, bound);
    if (fast.kind != LocalResult::undecided) return fast;
  }
  struct Piece {
    double x0, x1;
    Coeffs c;
    int depth;
  };
  std::array<Piece, 80> stack;  // depth-first, left piece on top
  int top = 0;
  stack[top++] = {0.0, 1.0, b, 0};
  while (top > 0) {
    Piece p = stack[--top];
    int variations = 0, last = 0;
    bool certain = true, all_positive = true;
    for (int k = 0; k <= d; ++k) {
      int s = positive(p.c[k]) ? 1 : negative(p.c[k]) ? -1 : 0;
      if (s == 0) { certain = false; all_positive = false; continue; }
      if (s < 0) all_positive = false;
      if (last != 0 && s != last) ++variations;
      last = s;
    }
    if (all_positive) continue;  // no root here
    if (certain && variations == 1 && positive(p.c[0]) && negative(p.c[d])) {
      LocalResult r;
      r.kind = LocalResult::root;
      r.lo = (Interval(bound) * Interval(p.x0)).hi();  // inward: stay inside the piece
      r.hi = (Interval(bound) * Interval(p.x1)).lo();
      if (r.lo >= r.hi) return {};
      return r;
    }
    if (certain && variations == 0) {  // all negative: q(x0) < 0 contradicts the search so far
      return {};
    }
    double mid = 0.5 * (p.x0 + p.x1);
    if (p.depth >= 60 || !(mid > p.x0 && mid < p.x1) || top + 2 > static_cast<int>(stack.size())) {
      // A multiple root, or roots too close to separate in doubles.
      if constexpr (std::is_same_v<NT, double>) {
        // Floating mode: take a sign change across the piece as a failure, else skip it.
        if (negative(p.c[d]) && positive(p.c[0])) {
          return {LocalResult::root, bound * p.x0, bound * p.x1};
        }
        continue;
      }
      return {};
    }
    // de Casteljau at 1/2.
    Coeffs left{}, right{}, w = p.c;
    for (int k = 0; k <= d; ++k) {
      left[k] = w[0];
      right[d - k] = w[d - k];
      for (int i = 0; i < d - k; ++i) w[i] = (w[i] + w[i + 1]) * NT(0.5);
    }
    stack[top++] = {mid, p.x1, right, p.depth + 1};
    stack[top++] = {p.x0, mid, left, p.depth + 1};
  }
  return {LocalResult::never};
}

/// Narrows [lo, hi] (q(lo) > 0 > q(hi), one root inside) by bisection in u, down to a
/// relative width of about 2^-30 of `scale`: most roots are only ever compared with far
/// away ones. Root::tighten() goes on to full precision when two intervals overlap.
template <class NT>
bool refine(const Polynomial<NT>& q, double& lo, double& hi, double scale) {
  const double enough = std::is_same_v<NT, double> ? 0.0 : 0x1p-30 * scale;
  if constexpr (std::is_same_v<NT, Interval>) {
    // The bounds came from rounded arithmetic: certify the sign change first.
    if (lo > 0 && !positive(q(Interval(lo)))) return false;
    if (!negative(q(Interval(hi)))) return false;
    // Bisect on the midpoint polynomial in doubles (several times cheaper than interval
    // Horner), then certify the narrowed ends with intervals: [lo, hi] holds exactly one
    // root, so any sub-interval with a certified sign change holds it. Where the doubles
    // mislead (a root in the coefficients' noise), the interval bisection below runs.
    Polynomial<double> m;
    for (int i = 0; i <= q.degree(); ++i) m.set(i, q[i].mid());
    double a = lo, b = hi;
    for (int it = 0; it < 80 && b - a > enough; ++it) {
      const double mid = a + 0.5 * (b - a);
      if (!(mid > a && mid < b)) break;
      const double v = m(mid);
      if (v > 0) a = mid;
      else if (v < 0) b = mid;
      else break;
    }
    if ((a == lo || positive(q(Interval(a)))) && (b == hi || negative(q(Interval(b))))) {
      lo = a;
      hi = b;
      if (hi - lo <= enough) return true;
    }
  }
  for (int it = 0; it < 80 && hi - lo > enough; ++it) {
    double mid = lo + 0.5 * (hi - lo);
    if (!(mid > lo && mid < hi)) break;
    NT v = q(NT(mid));
    if (positive(v)) lo = mid;
    else if (negative(v)) hi = mid;
    else break;
  }
  return true;
}

/// Sign of a double polynomial just after s = 0: the sign of its first non-zero coefficient.
int sign_after_zero(const Polynomial<double>& p) {
  for (int i = 0; i <= p.degree(); ++i)
    if (p[i] != 0) return p[i] > 0 ? 1 : -1;
  return 0;
}

/// The filter proper: first failure of p (in s = t - origin) given the now-window [0, w].
/// On return, `start` is where the local variable u of the result begins (u = s - start).
/// `limit` (in s, rounded up): roots beyond it are of no interest (the certificate's horizon).
template <class NT>
LocalResult filter(const Polynomial<NT>& p, double w, double time_scale, Birth birth, double limit, double& start) {
  constexpr bool floating = std::is_same_v<NT, double>;
  start = 0;
  if (p.is_zero()) return {LocalResult::never};
  NT at_now = p(span(0.0, w, NT()));
  bool positive_from_start = positive(at_now);
  if (positive_from_start) {
    start = w;
  } else if (birth != Birth::vanishes_now) {
    if constexpr (floating) {
      // Negative now: fails now. Exactly zero now and rising: handled as vanishing now.
      // (A swapped certificate that rounding leaves slightly negative comes with the
      // vanishes_now hint and does not get here; without it a swap would undo itself.)
      Polynomial<double> rest = p;
      rest.set(0, 0.0);
      if (sign_after_zero(rest) <= 0 || negative(at_now)) return {LocalResult::fails_at_start};
      birth = Birth::vanishes_now;
    } else {
      if (negative(at_now)) return {LocalResult::fails_at_start};
      return {};  // a root within the now-window: the exact path decides
    }
  }
  if (!positive_from_start) {
    // The structure promises p(now) = 0 and p > 0 just after: find w2 >= w such that p is
    // increasing on [0, w2] and p(w2) > 0. Then the only root in [0, w2] is now itself.
    Polynomial<NT> dp = p.derivative();
    bool found = false;
    for (double delta : {0.0, 1e-13, 1e-10, 1e-7, 1e-4}) {
      double w2 = sum_up(w, delta * time_scale);
      if (w2 == 0) continue;
      if (!positive(dp(span(0.0, w2, NT())))) {
        if constexpr (floating) continue;
        break;  // p turns within [0, w2]: a wider window cannot help
      }
      if (positive(p(NT(w2)))) {
        start = w2;
        found = true;
        break;
      }
    }
    if (!found) {
      if constexpr (floating) return {LocalResult::never};
      return {};
    }
  }
  // A linear function (the order certificate of linear motions, the commonest case): its
  // one root, directly in s, without shifting to `start` (p > 0 on [0, start] is known).
  if (p.degree() == 1) {
    if (lower(p[1]) >= 0) return {LocalResult::never};
    if (!negative(p[1])) return {};
    const NT root = NT(-p[0]) / p[1];
    const double root_lo = std::max(lower(root), start), root_hi = upper(root);
    if (root_lo > limit) return {LocalResult::never};
    if (!(root_hi >= root_lo)) return {};
    start = 0;
    return {LocalResult::root, root_lo, root_hi};
  }
  // Search (start, infinity) in u = s - start, where q(0) = p(start) > 0.
  Polynomial<NT> q = start == 0 ? p : p.shifted(NT(start));
  if (q.degree() <= 0) return {LocalResult::never};
  if (!positive(q.leading()) && !negative(q.leading())) return {};
  if (!positive(q[0])) return {};  // the shift lost the certainty of q(0) > 0
  const double u_limit = (Interval(limit) - Interval(start)).hi();
  if (!(u_limit > 0)) return {LocalResult::never};
  LocalResult r;
  if (q.degree() <= 2) {
    r = closed_form(q);
    if (r.kind == LocalResult::root && r.lo > u_limit) return {LocalResult::never};
  } else {
    // One interval evaluation over the whole window often proves q > 0 there already
    // (two bounds far apart before their reset): no subdivision needed.
    if constexpr (!floating) {
      if (std::isfinite(u_limit) && positive(q(Interval(0.0, u_limit)))) return {LocalResult::never};
    }
    std::optional<double> bound = positive_root_bound(q);
    if (!bound) return {};
    if (*bound == 0) return {LocalResult::never};
    // Section 3.3 of Kim, Guibas, Shin: no need to look past the horizon.
    r = bernstein_search(q, std::min(*bound, u_limit));
    if (r.kind == LocalResult::root && !refine(q, r.lo, r.hi, time_scale)) return {};
  }
  return r;
}

/// filter() for a line of degree exactly 1, without a Polynomial: the same operations in
/// the same order (Horner's rule on two coefficients, the derivative as c1 * 1), so the
/// same result; the degree-1 branch of filter() returns with start = 0.
template <class NT>
LocalResult filter_line(const Line<NT>& p, double w, double time_scale, Birth birth, double limit) {
  constexpr bool floating = std::is_same_v<NT, double>;
  double start = 0;
  const NT at_now = NT(p.c1 * span(0.0, w, NT()) + p.c0);
  const bool positive_from_start = positive(at_now);
  if (positive_from_start) {
    start = w;
  } else if (birth != Birth::vanishes_now) {
    if constexpr (floating) {
      // sign_after_zero of p without its constant term: the sign of c1 (not zero here).
      if (!(p.c1 > 0) || negative(at_now)) return {LocalResult::fails_at_start};
    } else {
      if (negative(at_now)) return {LocalResult::fails_at_start};
      return {};
    }
  }
  if (!positive_from_start) {
    const NT slope = NT(p.c1 * NT(1.0));  // Polynomial::derivative()
    bool found = false;
    for (double delta : {0.0, 1e-13, 1e-10, 1e-7, 1e-4}) {
      const double w2 = sum_up(w, delta * time_scale);
      if (w2 == 0) continue;
      if (is_zero(slope) || !positive(slope)) {
        if constexpr (floating) continue;
        break;
      }
      if (positive(NT(p.c1 * NT(w2) + p.c0))) {
        start = w2;
        found = true;
        break;
      }
    }
    if (!found) {
      if constexpr (floating) return {LocalResult::never};
      return {};
    }
  }
  if (lower(p.c1) >= 0) return {LocalResult::never};
  if (!negative(p.c1)) return {};
  const NT root = NT(-p.c0) / p.c1;
  const double root_lo = std::max(lower(root), start), root_hi = upper(root);
  if (root_lo > limit) return {LocalResult::never};
  if (!(root_hi >= root_lo)) return {};
  return {LocalResult::root, root_lo, root_hi};
}

/// A failure whose isolating interval [lo, +inf] reaches beyond the doubles (a wall far
/// away at a subnormal speed: 4 / 5e-324 overflows). The clock is a double, so a failure
/// after the largest double is "never"; one at or before it gets a finite interval.
/// Decided exactly at the largest double (a finite dyadic), never converting infinity.
Root clip_to_doubles(const Function& f, double lo) {
  constexpr double largest = std::numeric_limits<double>::max();
  if (lo == largest) lo = next_down(largest);
  const int sign_at_largest = sgn(f.exact_value_at(largest));
  // f > 0 before its failure and < 0 just after, on [lo, +inf], which holds only that root.
  if (sign_at_largest > 0) return Root::infinity();
  if (sign_at_largest == 0) return Root::at(largest);
  return Root::isolated(lo, largest, &f);
}

}  // namespace

Root first_failure(const Function& f, const Root& now, Birth birth, Exactness mode, double horizon) {
  auto& counters = solver_counters();
  ++counters.failure_computations;
  if (now.is_infinite()) return Root::infinity();
  const double origin = now.lo();
  const double w = (Interval(now.hi()) - Interval(origin)).hi();
  const double time_scale = std::max(1.0, std::fabs(origin));
  const double limit = std::isinf(horizon) ? horizon : (Interval(horizon) - Interval(origin)).hi();
  double start = 0;
  if (mode == Exactness::floating) {
    LocalResult r = filter(f.double_polynomial(origin), 0.0, time_scale, birth, limit, start);
    switch (r.kind) {
      case LocalResult::never: return Root::infinity();
      case LocalResult::fails_at_start: return Root::at(origin);
      case LocalResult::root: {
        // f is positive just after now, so its failure is strictly later. A root that
        // rounded to now fired while f still held, and certificates re-created by the
        // repair saw the state before the event and undid it: a sphere on a diagonal,
        // crossing grid planes on three axes within one ulp of time, looped forever at
        // one instant, filling memory with destroyed certificates waiting for the clock.
        double t = origin + start + 0.5 * (r.lo + r.hi);
        return Root::at(std::max(t, next_up(origin)));
      }
      case LocalResult::undecided: return Root::infinity();
    }
  }
  Polynomial<Interval> p = f.interval_polynomial(origin);
  if (p.all_finite()) {
    LocalResult r = filter(p, w, time_scale, birth, limit, start);
    switch (r.kind) {
      case LocalResult::never: return Root::infinity();
      case LocalResult::fails_at_start: return now;
      case LocalResult::root: {
        Interval base = Interval(origin) + Interval(start);
        double lo = (base + Interval(r.lo)).lo();
        double hi = (base + Interval(r.hi)).hi();
        if (!std::isfinite(hi) && std::isfinite(lo)) {
          if (p.degree() <= 1 || p.derivative()(Interval(0.0, std::numeric_limits<double>::max())).sign() != Sign::unknown)
            return clip_to_doubles(f, lo);  // monotone from now on: one root in [lo, +inf]
          break;
        }
        // Widening to doubles around t may take in a neighbouring root (two roots closer
        // than the spacing of doubles at t): keep the interval only if p is monotone on it.
        if (p.degree() <= 1) return Root::isolated(lo, hi, &f);  // one root at most
        const Interval s((Interval(lo) - Interval(origin)).lo(), (Interval(hi) - Interval(origin)).hi());
        const Sign slope = p.derivative()(s).sign();
        if (slope == Sign::positive || slope == Sign::negative) return Root::isolated(lo, hi, &f);
        break;
      }
      case LocalResult::undecided: break;
    }
  }
  // A line with a root within the now-window (born at the instant of a swap, level with
  // the keys that swapped): if it is, exactly, the clock's own function or its negation,
  // that root is the clock, and its slope says what follows it. Not for a pinned clock:
  // its source may have changed since (Simulator::pin_clock).
  if (p.all_finite() && p.degree() == 1 && now.source() != nullptr && !now.pinned() &&
      (negative(p[1]) || positive(p[1])) && f.same_or_negated(*now.source())) {
    ++counters.failure_same_roots;
    return negative(p[1]) ? now : Root::infinity();
  }
  ++counters.failure_exact;
  return exact::first_failure(f.exact_polynomial(), now);
}

std::optional<Root> first_failure_of_line(const Line<Interval>& p, const Function& f, const Root& now, Birth birth,
                                          Exactness mode, double horizon) {
  // The prologue and the root's conversion of first_failure(), for a filter_line() result.
  if (mode == Exactness::floating || p.degree != 1 || now.is_infinite()) return std::nullopt;
  if (!p.c0.is_finite() || !p.c1.is_finite()) return std::nullopt;
  const double origin = now.lo();
  const double w = (Interval(now.hi()) - Interval(origin)).hi();
  const double time_scale = std::max(1.0, std::fabs(origin));
  const double limit = std::isinf(horizon) ? horizon : (Interval(horizon) - Interval(origin)).hi();
  const LocalResult r = filter_line(p, w, time_scale, birth, limit);
  switch (r.kind) {
    case LocalResult::never:
      ++solver_counters().failure_computations;
      return Root::infinity();
    case LocalResult::fails_at_start:
      ++solver_counters().failure_computations;
      return now;
    case LocalResult::root: {
      const Interval base = Interval(origin) + Interval(0.0);
      const double lo = (base + Interval(r.lo)).lo();
      const double hi = (base + Interval(r.hi)).hi();
      if (!std::isfinite(hi) && std::isfinite(lo)) return std::nullopt;  // clip_to_doubles
      ++solver_counters().failure_computations;
      return Root::isolated(lo, hi, &f);
    }
    case LocalResult::undecided: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Root> first_failure_of_line(const Line<double>& p, const Function&, const Root& now, Birth birth,
                                          Exactness mode, double horizon) {
  if (mode != Exactness::floating || p.degree != 1 || now.is_infinite()) return std::nullopt;
  if (!std::isfinite(p.c0) || !std::isfinite(p.c1)) return std::nullopt;
  const double origin = now.lo();
  const double time_scale = std::max(1.0, std::fabs(origin));
  const double limit = std::isinf(horizon) ? horizon : (Interval(horizon) - Interval(origin)).hi();
  const LocalResult r = filter_line(p, 0.0, time_scale, birth, limit);
  ++solver_counters().failure_computations;
  switch (r.kind) {
    case LocalResult::never: return Root::infinity();
    case LocalResult::fails_at_start: return Root::at(origin);
    case LocalResult::root: {
      const double t = origin + 0.0 + 0.5 * (r.lo + r.hi);  // as first_failure: start is 0
      return Root::at(std::max(t, next_up(origin)));
    }
    case LocalResult::undecided: return Root::infinity();
  }
  return Root::infinity();
}

Root first_failure_of_constant(Sign sign, const Root& now, Exactness mode) {
  ++solver_counters().failure_computations;
  if (now.is_infinite() || sign != Sign::negative) return Root::infinity();
  return mode == Exactness::floating ? Root::at(now.lo()) : now;  // as first_failure's fails_at_start
}

namespace {
Sign sign_of_level_difference(const StoredLine& upper, const StoredLine& lower);
}  // namespace

std::optional<Root> first_failure_of_stored_lines(const StoredLine& upper, const StoredLine& lower,
                                                  const Function& f, const Root& now, Birth birth, Exactness mode,
                                                  double horizon) {
  if (now.is_infinite()) return std::nullopt;
  // f(t) = c0 + c1 (t - T): both keys' values at the later start T, and their speeds.
  const double T = std::max(upper.t0, lower.t0);
  if (mode == Exactness::floating) {
    auto at_T = [T](const StoredLine& k) { return k.x + k.offset + (k.t0 == T ? 0.0 : k.v * (T - k.t0)); };
    const double c0 = at_T(upper) - at_T(lower), c1 = upper.v - lower.v;
    if (!std::isfinite(c0)) return std::nullopt;
    if (c1 == 0) {
      if (!(c0 > 0)) return std::nullopt;
      ++solver_counters().failure_computations;
      return Root::infinity();
    }
    const double t = T - c0 / c1;
    if (c1 > 0) {  // growing: positive after its root
      if (birth != Birth::vanishes_now && !(t <= now.lo())) return std::nullopt;
      ++solver_counters().failure_computations;
      return Root::infinity();
    }
    if (birth == Birth::vanishes_now || !(t > now.lo()) || !std::isfinite(t)) return std::nullopt;
    ++solver_counters().failure_computations;
    if (t > horizon) return Root::infinity();
    return Root::at(std::max(t, next_up(now.lo())));
  }
  // Filtered and exact modes: the same decisions in doubles, each value with a bound on
  // its rounding (every operation's error at most u times its result's magnitude, first
  // order, times the safety factor 1.0625 for the second-order terms, plus an absolute
  // 2^-1000 for results in or near the subnormal range, where a product's or quotient's
  // error is absolute: found by review), instead of interval operations: a failure time
  // costs two outward steps (next_down, next_up) instead of about ten
  // (docs/benchmarks/event-cost.md, third stop).
  constexpr double u = 0x1p-53, safety = 1.0625, tiny = 0x1p-1000;
  bool exact = true;  // no rounding at all in the two keys' values at T
  auto at_T = [T, &exact](const StoredLine& k, double& err) {
    double x = k.x;
    if (k.offset != 0) {
      x = x + k.offset;
      err += std::fabs(x);
      exact = false;
    }
    if (k.t0 != T && k.v != 0) {
      const double h = T - k.t0;  // rounded: |v h - v (T - t0)| <= u |v h| (1 + u), or absolute if v h underflows
      const double p = k.v * h;
      x = x + p;
      err += std::fabs(x) + 2.01 * std::fabs(p);
      exact = false;
    }
    return x;
  };
  double e0 = 0;
  const double xu = at_T(upper, e0), xl = at_T(lower, e0);
  const double c0 = xu - xl;
  const double err0 = safety * u * (e0 + std::fabs(c0)) + tiny;  // c0's distance from the exact difference
  const double c1 = upper.v - lower.v;
  const double err1 = safety * u * std::fabs(c1) + tiny;  // (c1 is 0 only when the speeds are equal)
  if (!std::isfinite(c0) || !std::isfinite(err0) || !std::isfinite(c1)) return std::nullopt;
  if (c1 == 0) {  // equal speeds: a constant difference
    if (c0 > err0) {
      ++solver_counters().failure_computations;
      return Root::infinity();
    }
    // Too close for the bound (two bodies level on an axis at rest along it, the same
    // key twice): the constant's exact sign from the stored doubles, not the exact path.
    const Sign s = sign_of_level_difference(upper, lower);
    if (s == Sign::unknown) return std::nullopt;
    return first_failure_of_constant(s, now, mode);
  }
  if (c1 > err1) {
    // Growing: positive just after now if it vanishes now (the swapped pair's promise),
    // or if it is positive at T <= now (no division), or if its root is at or before now.
    bool never_fails = birth == Birth::vanishes_now || (c0 > err0 && T <= now.lo());
    if (!never_fails && c0 == 0) {
      never_fails = exact && T <= now.lo();  // an exact zero: the root is T itself
    } else if (!never_fails && std::fabs(c0) > err0 && c1 > 32 * err1) {
      // The root T - c0 / c1: q is within q (a + b) / (1 - b) of the exact quotient for
      // relative errors a < 1 of c0 and b <= 1/32 of c1, which the safety factor covers
      // over a + b: at or before now if the upper end of its bound is.
      const double q = c0 / c1, r = T - q;
      const double err_q = std::fabs(q) * (err0 / std::fabs(c0) + err1 / c1 + 2 * u) + tiny;
      const double upper_end = r + safety * (err_q + u * std::fabs(r)) + tiny;
      never_fails = std::isfinite(upper_end) && next_up(upper_end) <= now.lo();
    }
    if (!never_fails) return std::nullopt;
    ++solver_counters().failure_computations;
    return Root::infinity();
  }
  // Decreasing, and positive at T: it fails at its root T + c0 / (-c1), which must be
  // certainly after now.
  if (!(c1 < -32 * err1) || !(c0 > err0) || birth == Birth::vanishes_now) return std::nullopt;
  const double speed = -c1;
  const double q = c0 / speed;
  // |q - exact| <= q (a + b) / (1 - b) for the relative errors a = err0 / c0 < 1 and
  // b = err1 / speed <= 1/32 (the safety factor covers the 1 / (1 - b)), plus the
  // division's rounding; then T + q rounds once more.
  const double err_q = q * (err0 / c0 + err1 / speed + u) + tiny;
  const double t = T + q;
  const double err_t = safety * (err_q + u * std::fabs(t)) + tiny;
  const double lo = next_down(t - err_t), hi = next_up(t + err_t);
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo > now.hi())) return std::nullopt;
  ++solver_counters().failure_computations;
  if (lo > horizon) return Root::infinity();
  return Root::isolated(lo, hi, &f);
}

Sign sign_just_after(const Function& f, const Root& now, Exactness mode) {
  auto& counters = solver_counters();
  ++counters.sign_queries;
  const double origin = now.lo();
  const double w = (Interval(now.hi()) - Interval(origin)).hi();
  if (mode == Exactness::floating) {
    return sign_of(sign_after_zero(f.double_polynomial(origin)));
  }
  Polynomial<Interval> p = f.interval_polynomial(origin);
  if (p.is_zero()) return Sign::zero;
  Interval v = p(Interval(0.0, w));
  if (v.certainly_positive()) return Sign::positive;
  if (v.certainly_negative()) return Sign::negative;
  ++counters.sign_exact;
  return sign_of(exact::sign_just_after(f.exact_polynomial(), now));
}

namespace {

bool same_line(const StoredLine& p, const StoredLine& q) {
  return p.t0 == q.t0 && p.x == q.x && p.v == q.v && p.offset == q.offset;
}

bool in_range(const StoredLine& l) {
  return in_error_free_range(l.t0) && in_error_free_range(l.x) && in_error_free_range(l.v) &&
         in_error_free_range(l.offset);
}

/// Appends the terms of +-(x + offset - v t0), the line's value at t = 0, exactly.
void add_intercept(const StoredLine& l, double sign, double* out) {
  out[0] = sign * l.x;
  out[1] = sign * l.offset;
  two_product(-sign * l.v, l.t0, out[2], out[3]);
}

/// The exact sign of upper - lower for two lines of one speed: the difference of their
/// values at t = 0, a constant. Unknown outside the error-free range.
Sign sign_of_level_difference(const StoredLine& upper, const StoredLine& lower) {
  if (upper.v != lower.v || !in_range(upper) || !in_range(lower)) return Sign::unknown;
  std::array<double, 8> terms;
  add_intercept(upper, 1, &terms[0]);
  add_intercept(lower, -1, &terms[4]);
  return exact_sign_of_sum(terms);
}

/// Whether (fu - fl) = s (gu - gl) exactly, s = +-1: the slopes and the values at t = 0,
/// each as an exact sum of doubles.
bool equal_differences(const StoredLine& fu, const StoredLine& fl, const StoredLine& gu, const StoredLine& gl,
                       double s) {
  if (exact_sign_of_sum(std::array<double, 4>{fu.v, -fl.v, -s * gu.v, s * gl.v}) != Sign::zero) return false;
  std::array<double, 16> terms;
  add_intercept(fu, 1, &terms[0]);
  add_intercept(fl, -1, &terms[4]);
  add_intercept(gu, -s, &terms[8]);
  add_intercept(gl, s, &terms[12]);
  return exact_sign_of_sum(terms) == Sign::zero;
}

}  // namespace

/// The same function of degree 1, or each other's negation, by their stored lines: the same
/// two lines (the same doubles: no arithmetic), or other lines whose differences are equal
/// or opposite, decided by exact sums of doubles (two objects of one size seen through
/// each other's mirrored guards, say).
bool Function::same_linear_function(const Function& other) const {
  StoredLine fu, fl, gu, gl;
  if (!stored_lines(fu, fl) || !other.stored_lines(gu, gl)) return false;
  if (fu.v == fl.v || gu.v == gl.v) return false;  // constant: no root to share
  if ((same_line(fu, gu) && same_line(fl, gl)) || (same_line(fu, gl) && same_line(fl, gu))) return true;
  if (!in_range(fu) || !in_range(fl) || !in_range(gu) || !in_range(gl)) return false;
  // fu.v - fl.v and gu.v - gl.v are not 0 (above), so their rounded signs are exact.
  const double s = (fu.v - fl.v > 0) == (gu.v - gl.v > 0) ? 1 : -1;
  return equal_differences(fu, fl, gu, gl, s);
}

int compare(const Root& a, const Root& b) {
  ++solver_counters().comparisons;
  if (a.is_infinite() || b.is_infinite()) return a.is_infinite() == b.is_infinite() ? 0 : a.is_infinite() ? 1 : -1;
  if (a.hi() < b.lo()) return -1;
  if (b.hi() < a.lo()) return 1;
  if (a.is_point() && b.is_point()) return 0;  // equal doubles
  // The same root of the same function (a copy of the clock, say): equal without computing.
  if (a.lo() == b.lo() && a.hi() == b.hi() && a.source() != nullptr && a.source() == b.source()) return 0;
  // Roots of the same linear function (or of a multiple of it) from two certificates: the
  // same two keys compared in several sorted lists (the rolling tree lists a ball in every
  // node above it, so a crossing is an event of each of those lists at once), a centre and
  // one plane through several guards (guards and cones). A function of degree 1 has one
  // root, and a root encloses a root of its source: they are equal.
  // Not for a root whose exact value is known, or that was pinned: its source may be gone
  // (Root::pin).
  if (a.source() != nullptr && b.source() != nullptr && !a.has_exact() && !b.has_exact() && !a.pinned() &&
      !b.pinned() &&
      a.source()->same_linear_function(*b.source())) {
    ++solver_counters().comparisons_same_line;
    return 0;
  }
  a.tighten();
  b.tighten();
  if (a.hi() < b.lo()) return -1;
  if (b.hi() < a.lo()) return 1;
  ++solver_counters().comparisons_exact;
  return exact::compare(a, b);
}

int compare(const Root& a, double t) { return compare(a, Root::at(t)); }

namespace {

/// The sign of a root's source at doubles near the root from three polynomials about
/// `origin`, each built once when first needed: intervals, double-double balls, and the
/// exact polynomial (dyadic about `origin` when the source offers it, else rational in t).
/// filtered() and operator() ask the intervals first, ball_first() the balls (next to a
/// root, where intervals almost never decide); the exact polynomial decides last.
class SourceSigns {
 public:
  SourceSigns(const Function& f, double origin) : f_(f), origin_(origin) {}
  /// The sign from intervals, then double-double balls; Sign::unknown where neither
  /// decides (never the exact path).
  Sign filtered(double x) {
    if (const Sign s = interval_sign(x); s != Sign::unknown) return s;
    return ball_sign(x);
  }
  /// The certified sign, Sign::zero only at an exact root.
  Sign operator()(double x) {
    if (const Sign s = filtered(x); s != Sign::unknown) return s;
    return exact_sign(x);
  }
  /// The same sign, the ball first: at doubles within a few ulps of the root intervals
  /// almost never decide (72% of the rounding's probes on the Kim-Guibas-Shin scene), and
  /// a source with a ball needs no interval polynomial at all where the ball decides.
  Sign ball_first(double x) {
    if (const Sign b = ball_sign(x); b != Sign::unknown) return b;
    if (const Sign s = interval_sign(x); s != Sign::unknown) return s;
    return exact_sign(x);
  }
  /// Approximations of the coefficients about the origin, for a guess of the root (Newton's
  /// method in doubles): the balls' heads, or the intervals' midpoints without a ball.
  /// Returns the degree.
  int approximate_coefficients(std::array<double, Polynomial<Interval>::max_degree + 1>& c) {
    build_ball();
    if (ball_) {
      for (int i = 0; i <= ball_->degree(); ++i) c[static_cast<std::size_t>(i)] = (*ball_)[i].head();
      return ball_->degree();
    }
    build_intervals();
    for (int i = 0; i <= p_.degree(); ++i) c[static_cast<std::size_t>(i)] = p_[i].mid();
    return p_.degree();
  }

 private:
  void build_intervals() {
    if (intervals_built_) return;
    p_ = f_.interval_polynomial(origin_);
    intervals_built_ = true;
  }
  void build_ball() {
    if (ball_built_) return;
    ball_ = f_.double_double_polynomial(origin_);
    ball_built_ = true;
  }
  Sign interval_sign(double x) {
    build_intervals();
    return p_(Interval(x) - Interval(origin_)).sign();
  }
  /// The sign from the double-double ball, or Sign::unknown.
  Sign ball_sign(double x) {
    build_ball();
    if (ball_) {
      const Sign b = (*ball_)(DoubleDoubleBall::difference(x, origin_)).sign();
      if (b == Sign::positive || b == Sign::negative) return b;
    }
    return Sign::unknown;
  }
  Sign exact_sign(double x) {
    if (!exact_built_) {
      dyadic_ = f_.dyadic_polynomial(origin_);
      if (!dyadic_) rational_ = f_.exact_polynomial();
      exact_built_ = true;
    }
    if (dyadic_) return sign_of((*dyadic_)(Dyadic(x) - Dyadic(origin_)).sign());
    return sign_of(sgn((*rational_)(Rational(x))));
  }

  const Function& f_;
  double origin_;
  Polynomial<Interval> p_;
  std::optional<Polynomial<DoubleDoubleBall>> ball_;
  std::optional<Polynomial<Dyadic>> dyadic_;
  std::optional<Polynomial<Rational>> rational_;
  bool intervals_built_ = false, ball_built_ = false, exact_built_ = false;
};

}  // namespace

void Root::tighten() const {
  if ((source_ & tight_flag) != 0 || is_point() || is_infinite() || source() == nullptr || exact_) return;
  source_ |= tight_flag;
  // Intervals first, then double-double balls where they cannot tell: two failure times
  // a few 1e-13 apart whose keys' interval evaluations are as wide (points far from the
  // origin, custom keys) are told apart here instead of by the exact path.
  SourceSigns sign_at(*source(), lo_);
  const Sign s_hi = sign_at.filtered(hi_);
  if (s_hi != Sign::positive && s_hi != Sign::negative) return;
  double lo = lo_, hi = hi_;
  for (int it = 0; it < 80; ++it) {
    double mid = lo + 0.5 * (hi - lo);
    if (!(mid > lo && mid < hi)) break;
    const Sign s = sign_at.filtered(mid);
    if (s == s_hi) hi = mid;
    else if (s == -s_hi) lo = mid;
    else break;
  }
  lo_ = lo;
  hi_ = hi;
}

namespace {

/// ceil_to_double of a root isolated in [lo, hi] (0 <= lo < hi, the source's only root
/// there, where it changes sign) from a guess: Newton's method in doubles on approximate
/// coefficients (the balls' heads, or the intervals' midpoints for a source without balls)
/// lands within a few ulps of the root; certified signs there and at the doubles next to
/// it (the balls first: SourceSigns::ball_first), galloping outwards, bracket it, and a
/// bisection on the doubles' bit patterns (ordered as the doubles are, for lo >= 0)
/// closes the bracket. The guess only chooses where to look: the answer is the same
/// double as the plain bisection's. A few sign evaluations near the root, where
/// bisecting the isolating interval took about eight and a tightening. nullopt (nothing
/// evaluated near the root) when the guess leaves (lo, hi).
std::optional<double> ceil_from_guess(SourceSigns& sign_at, double lo, double hi, Sign s_hi) {
  std::array<double, Polynomial<Interval>::max_degree + 1> c{};
  const int d = sign_at.approximate_coefficients(c);
  if (d < 1) return std::nullopt;
  const double width = hi - lo;
  double s = 0.5 * width;  // in s = t - lo
  for (int k = 0; k < 8; ++k) {
    double f = c[static_cast<std::size_t>(d)], df = 0;
    for (int i = d - 1; i >= 0; --i) {
      df = df * s + f;
      f = f * s + c[static_cast<std::size_t>(i)];
    }
    if (!(df != 0)) break;
    const double next = s - f / df;
    if (!(next > 0 && next < width)) return std::nullopt;
    if (next == s) break;
    s = next;
  }
  using Bits = std::uint64_t;
  auto bits = [](double x) { return std::bit_cast<Bits>(x); };
  auto value = [](Bits b) { return std::bit_cast<double>(b); };
  Bits lb = bits(lo), hb = bits(hi);  // before the root at lb (or the root itself), at or after it at hb
  const Bits g0 = bits(lo + s);
  if (!(g0 > lb && g0 < hb)) return std::nullopt;
  // One probe: true when it is at or after the root (its sign that after it, or zero).
  std::optional<double> exact;  // a probe that hit the root
  auto probe = [&](Bits b) {
    const Sign sign = sign_at.ball_first(value(b));
    if (sign == Sign::zero) exact = value(b);
    const bool after = sign == s_hi || sign == Sign::zero;
    (after ? hb : lb) = b;
    return after;
  };
  const bool after = probe(g0);
  if (exact) return exact;
  Bits g = g0;
  for (Bits step = 1; hb - lb > 1; step *= 2) {
    const Bits next = after ? (g - lb > step ? g - step : lb) : (hb - g > step ? g + step : hb);
    if (next == lb || next == hb) break;
    const bool a = probe(next);
    if (exact) return exact;
    if (a != after) break;
    g = next;
  }
  while (hb - lb > 1) {
    probe(lb + (hb - lb) / 2);
    if (exact) return exact;
  }
  return value(hb);
}

}  // namespace

double ceil_to_double(const Root& r) {
  if (r.is_point() || r.is_infinite()) return r.lo();
  if (r.source() != nullptr && !r.has_exact() && r.lo() >= 0) {
    // First from a guess, without tightening the isolating interval (see ceil_from_guess).
    const double lo = r.lo() == 0 ? 0.0 : r.lo(), hi = r.hi();  // (-0.0 has the bit pattern of a negative)
    SourceSigns sign_at(*r.source(), lo);
    const Sign s_hi = sign_at.ball_first(hi);
    if (s_hi == Sign::zero) return hi;
    if (sign_at.ball_first(lo) == Sign::zero) return lo;
    if (const std::optional<double> d = ceil_from_guess(sign_at, lo, hi, s_hi)) return *d;
  }
  r.tighten();
  double lo = r.lo(), hi = r.hi();  // r in [lo, hi]
  if (r.source() != nullptr && !r.has_exact()) {
    // r is the only root of its source in [lo, hi], where the source changes sign. Bisect
    // on doubles with certified signs (SourceSigns: intervals, then double-double balls,
    // then exact arithmetic at the double; no root isolation needed).
    SourceSigns sign_at(*r.source(), lo);
    const Sign s_hi = sign_at(hi);
    if (s_hi == Sign::zero) return hi;
    if (sign_at(lo) == Sign::zero) return lo;
    while (next_up(lo) < hi) {
      double mid = lo + 0.5 * (hi - lo);
      if (!(mid > lo && mid < hi)) mid = next_up(lo);
      const Sign s = sign_at(mid);
      if (s == Sign::zero) return mid;
      if (s == s_hi) hi = mid;
      else lo = mid;
    }
    return hi;  // lo < r < hi and no double in between
  }
  // Exactly known (algebraic) roots: bisect with exact comparisons.
  while (next_up(lo) < hi) {
    double mid = lo + 0.5 * (hi - lo);
    if (!(mid > lo && mid < hi)) mid = next_up(lo);
    if (compare(r, mid) <= 0) hi = mid;
    else lo = mid;
  }
  return compare(r, lo) <= 0 ? lo : hi;
}

double ceil_to_double(const Rational& x) {
  double d = x.get_d();  // rounded towards zero: d <= x for x > 0, and the answer for x <= 0
  if (std::isfinite(d) && Rational(d) < x) d = next_up(d);
  return d;
}

double allowance_at(const Function& f, double t, double decrease_rate) {
  const Polynomial<Interval> p = f.interval_polynomial(t);  // in s = t' - t: p[0] = f(t), p[1] = f'(t)
  return allowance_at(p[0], p.degree() >= 1 ? p[1] : Interval(0.0), t, decrease_rate,
                      [&]() -> const Function& { return f; });
}

double allowance_at(Interval value, Interval slope, double t, double decrease_rate,
                    FunctionRef<const Function&()> function) {
  if (value.certainly_positive()) return 0;
  if (slope.hi() < -decrease_rate && !value.certainly_negative()) {
    const Rational exact = function().exact_value_at(t);
    return sgn(exact) < 0 ? ceil_to_double(Rational(-exact)) : 0.0;
  }
  // At least 2^-1000: f + a is summed, and then evaluated, in intervals, whose lower ends
  // step down by one double at each operation (kds/interval.hpp). An exact zero (a sphere
  // exactly on a plane, whose interval value is the point 0) plus the smallest double
  // would step back to 0 and leave the filter undecided, for nothing: f is 0 and rising.
  return std::max(0x1p-1000, next_up(std::max(0.0, -value.lo()) + 2 * value.width()));
}

}  // namespace kds
