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

#include <cstdint>
#include <memory>

#include "certificates/bound_separation.hpp"
#include "certificates/plane_side.hpp"
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
  std::uint64_t pair_beyond = 0;      ///< ... decided "later than the bound" by the root's enclosure
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

/// The window of the pair's failure (a is the sphere of smaller id), from the later of
/// the two motion starts on: the closed form in doubles with its error bound, a few
/// ulps wide; the exact instant where the bound cannot decide. May also return "never"
/// when the failure is certainly later than `bound` (the caller wants only earlier ones).
Window pair_window(const Kinematics& a, double ra, const Kinematics& b, double rb, double allowance, double bound,
                   TimeCounters& counters);
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
