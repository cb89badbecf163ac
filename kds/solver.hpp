#pragma once
/// \file
/// Failure times of certificate functions: the filter and its exact fallback.
///
/// The failure time of a function f after the current time `now` is the first t >= now
/// at which f becomes negative, i.e. f < 0 on (t, t + e) for some e > 0. The written
/// rules for the degenerate cases follow from that definition:
/// - a root at `now` is a failure only if f is negative just after `now`;
/// - a root of even multiplicity where f touches zero and stays positive is not a failure;
/// - an identically zero function never fails (it holds, with equality, forever);
/// - a function already negative just after `now` fails at `now` ("violated at birth").

#include <cstdint>
#include <limits>
#include <optional>

#include "kds/function_ref.hpp"
#include "kds/line.hpp"
#include "kds/root.hpp"

namespace kds {

/// What a structure knows about a certificate it creates while processing an event.
enum class Birth : std::uint8_t {
  /// Nothing: the framework decides the sign at `now` itself.
  generic,
  /// The function is zero or positive at `now` and positive just after. True of the
  /// certificate that replaces a failed one with the objects swapped (the sorted-list
  /// swap: the new function is the negation of one that just changed sign, so it
  /// vanishes now). It lets the filter skip a root at `now` without an exact computation.
  /// The promise must be true: where the filter decides, a function that is in fact
  /// slightly negative at `now` is then never reported as failing (the exact path, where
  /// the filter cannot decide, ignores the hint).
  vanishes_now,
};

/// How often each path ran. Cumulative over the thread; a simulator reports the change
/// since it was created, which includes the work of other simulators on the same thread.
struct SolverCounters {
  std::uint64_t failure_computations = 0;  ///< first_failure calls
  std::uint64_t failure_exact = 0;         ///< ... of which the filter could not decide
  std::uint64_t sign_queries = 0;          ///< sign_just_after calls
  std::uint64_t sign_exact = 0;            ///< ... of which needed the exact path
  std::uint64_t comparisons = 0;           ///< compare(Root, Root) calls
  std::uint64_t comparisons_exact = 0;     ///< ... decided by exact algebraic comparison
  std::uint64_t comparisons_same_line = 0; ///< ... decided equal as roots of one linear function (Function::same_linear_function), without the exact path
  std::uint64_t exact_roots_built = 0;     ///< algebraic numbers constructed on demand
  std::uint64_t exact_linear = 0;          ///< exact failure times and signs of degree <= 1 (rational, no root isolation)
  std::uint64_t failure_same_roots = 0;    ///< failure computations of a line born at a root of the clock's own function (Function::same_or_negated), without the exact path
  std::uint64_t failure_apart = 0;         ///< failure computations decided "not before the horizon" by a certificate's holds_before (a bound pair's separation, a bound's clearance from a plane)
};
SolverCounters& solver_counters();

/// The first failure time of f at or after `now`; Root::infinity() if it never fails.
/// Failures later than `horizon` may be reported as infinity (the filter does not look
/// beyond it; see CertificateBase::set_horizon); earlier ones are always reported.
Root first_failure(const Function& f, const Root& now, Birth birth = Birth::generic,
                   Exactness mode = Exactness::filtered,
                   double horizon = std::numeric_limits<double>::infinity());

/// first_failure() of a function known to be the line p (in s = t - now.lo(), built with
/// the rounding of f's own polynomial: kds/line.hpp), without building a polynomial: one
/// interval division in the usual case. The same answer, bit for bit, as
/// first_failure(f, ...); nullopt where that needs more than the line's closed form (p
/// not of degree 1, the filter undecided, an overflow): the caller then calls
/// first_failure(f, ...), which counts the computation. The interval line serves the
/// filtered and exact modes, the double line the floating mode (`mode` must match).
std::optional<Root> first_failure_of_line(const Line<Interval>& p, const Function& f, const Root& now, Birth birth,
                                          Exactness mode, double horizon);
std::optional<Root> first_failure_of_line(const Line<double>& p, const Function& f, const Root& now, Birth birth,
                                          Exactness mode, double horizon);

/// first_failure() of upper - lower for two coordinate keys of linear motions, computed
/// from what the motions store (kds/line.hpp, StoredLine) in absolute time: the root
/// T + (x_upper(T) - x_lower(T)) / (v_lower - v_upper), T the later of the two starts, as
/// one division in doubles with a first-order bound on every rounding (filtered and exact
/// modes: the isolating interval is that bound, widened by one step outward; without the
/// bound in the floating mode), without re-basing both motions to the clock. The same failure time as first_failure(f, ...), compared exactly
/// (its isolating interval may differ in the last bits); for two lines of one speed,
/// whose difference is a constant, never or now by that constant's exact sign (an exact
/// sum of the stored doubles) when the rounding bound cannot tell it from 0; nullopt where
/// the closed form cannot decide: the difference not certainly positive now, a root that
/// cannot be told from now by its interval, an overflow. The caller then falls back to the general
/// path. `f` must be upper - lower (the root's source, for exact values).
std::optional<Root> first_failure_of_stored_lines(const StoredLine& upper, const StoredLine& lower,
                                                  const Function& f, const Root& now, Birth birth, Exactness mode,
                                                  double horizon);

/// first_failure() of a function known to be a constant of sign `sign` (zero, positive
/// or negative; not unknown): never for zero or positive, now for negative (violated at
/// birth). Counted as a failure computation decided by the filter. For constants whose
/// sign a certificate knows exactly where their polynomial would not show it
/// (KeyTable::constant_difference_sign).
Root first_failure_of_constant(Sign sign, const Root& now, Exactness mode);

/// The smallest double >= r (r finite). Filtered: bisection on the isolating interval with
/// the source's interval polynomial; exact comparisons only for the last ulp if needed.
double ceil_to_double(const Root& r);

/// The smallest double >= x (exact); +infinity beyond the largest double.
double ceil_to_double(const Rational& x);

/// The allowance of a certificate created at the double t, possibly already violated by
/// rounding there: a double a >= 0 such that f + a is non-negative at t. A structure adds
/// it to f (certificates/bound_separation.hpp) when it creates a certificate right after
/// changing motions at a rounded time (a collision response leaves two spheres a few ulps
/// into each other). Decided with the filter, exact only when it must be:
///  - 0 when the filter proves f(t) > 0 (the usual case);
///  - when f certainly decreases at t faster than `decrease_rate` (f'(t) < -decrease_rate)
///    and f(t) is not certainly negative, the smallest such double, so that f + a fails
///    at t if f(t) <= 0: the fact is being broken now, not an ulp of time later. Exact
///    arithmetic decides f(t) here, since the filter could not;
///  - otherwise (f at rest or increasing up to `decrease_rate`, or clearly negative) the
///    interval value's negative part plus twice its width, rounded up, and at least
///    2^-1000: f + a is then certainly positive at t and fails only if f drops by more
///    than its own rounding, with no exact arithmetic. A smallest allowance there would let a function that
///    decreases by a rounding error fail now, again and again.
/// `decrease_rate` >= 0 is the slope the caller's own rounding can produce.
double allowance_at(const Function& f, double t, double decrease_rate = 0);
/// The same allowance from f(t) and f'(t) as the first two coefficients of f's interval
/// polynomial at t (f'(t) = 0 when its degree is below 1), for a caller that has them
/// cheaper than the whole polynomial (structures/hard_spheres: pair_value_and_slope);
/// `function()` gives f, only where exact arithmetic decides (it may build f then).
double allowance_at(Interval value, Interval slope, double t, double decrease_rate,
                    FunctionRef<const Function&()> function);

/// The sign of f just after `now`: negative, positive, or zero (f identically zero);
/// never unknown (the exact path decides what the filter cannot).
Sign sign_just_after(const Function& f, const Root& now, Exactness mode = Exactness::filtered);

}  // namespace kds
