#pragma once
/// \file
/// Separation of two moving spheres of varying radius (time-varying bounds, or plain
/// spheres when the radius is constant): |c_a(t) - c_b(t)|^2 - (r_a(t) + r_b(t))^2 >= 0.
/// For linear centres and quadratic radii this is the quartic of eq. (10) in Kim, Guibas,
/// Shin; for two ballistic spheres under the same gravity, a quadratic.
///
/// `allowance` (a length squared, >= 0) is added to the function. It is zero except for a
/// pair created while already in contact (after a collision response at a rounded time
/// the two spheres may overlap by a few ulps): the owner sets it to cover exactly that
/// overlap, so that the certificate fails when the pair moves deeper into contact, not at
/// once and forever. The owner bounds it by its contact tolerance.
///
/// Owner interface:
///   template <class NT> Polynomial<NT> centre(BodyId, int axis, double origin) const;
///   template <class NT> Polynomial<NT> radius(BodyId, double origin) const;
///   void separation_failed(BoundSeparation<Owner>&, Simulator&);
/// and optionally, for the fast path of linear centres and radii of degree <= 2:
///   template <class NT> bool centre_line(BodyId, int axis, double origin, Line<NT>&) const;
///     (false when that coordinate is not linear)
///   template <class NT> ShortPolynomial<NT> short_radius(BodyId, double origin) const;
/// With them, the interval function is built in doubles with bounded roundings
/// (bounded_function below), and the exact and floating ones on short polynomials (the
/// same function as the generic code, bit for bit: short_polynomial.hpp); and under a
/// finite horizon, holds_before proves from the bounds' closest approach that the pair
/// stays apart until the horizon or until a time its failure time is deferred to.
/// And optionally, for that proof from the stored numbers (stored_inputs below: one
/// error bound per sum instead of one per operation; 0.68x the proof's instructions on the
/// unknown-trajectory scene, docs/benchmarks/event-cost.md), and for the double-double
/// function written out from them (stored_ball_function):
///   bool stored_centre(BodyId, std::array<StoredLine, 3>&) const;  (false when not linear)
///   RadiusGrowth radius_growth(BodyId) const;

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <limits>
#include <optional>
#include <type_traits>

#include "certificates/first_root_below.hpp"
#include "certificates/short_polynomial.hpp"
#include "kds/bounded_double.hpp"
#include "kds/certificate.hpp"
#include "kds/line.hpp"

namespace kds {

/// A radius as a time-varying bound stores it: radius + acceleration / 2 (t - reset_time)^2
/// from reset_time on (structures/collision/bound.hpp), the owner's answer to
/// BoundSeparation's radius_growth.
struct RadiusGrowth {
  double radius = 0, acceleration = 0, reset_time = 0;
};

/// The coefficients of |c_a - c_b|^2 - (r_a + r_b)^2 + allowance in bounded doubles
/// (kds/bounded_double.hpp), written out: with D = c_a - c_b = D0 + D1 s on each axis and
/// R = r_a + r_b = R0 + R1 s + R2 s^2,
///   f = allowance + sum D0^2 + 2 sum D0 D1 s + sum D1^2 s^2
///       - (R0^2 + 2 R0 R1 s + (R1^2 + 2 R0 R2) s^2 + 2 R1 R2 s^3 + R2^2 s^4),
/// and its degree (exact zeros stay exact, so it is the exact polynomial's whenever that
/// one's leading coefficients are exactly zero). BoundSeparation builds its interval
/// function from it; the hard-sphere world reads its first two coefficients from it
/// (pair_value_and_slope), so both must call this one function.
struct BoundedQuartic {
  std::array<BoundedDouble, 5> c{};
  int degree = -1;

  /// `d`: c_a - c_b on each axis; `ra`, `rb`: the radii, of degree at most 2.
  BoundedQuartic(const std::array<Line<BoundedDouble>, 3>& d, const ShortPolynomial<BoundedDouble>& ra,
                 const ShortPolynomial<BoundedDouble>& rb, double allowance) {
    using B = BoundedDouble;
    std::array<B, 3> d0{}, d1{};
    for (int k = 0; k < 3; ++k) {
      if (d[k].degree >= 0) d0[k] = d[k].c0;
      if (d[k].degree >= 1) d1[k] = d[k].c1;
    }
    B R[3];
    for (int i = 0; i < 3; ++i) {
      const B x = i <= ra.degree ? ra.c[i] : B{}, y = i <= rb.degree ? rb.c[i] : B{};
      R[i] = x + y;
    }
    c[0] = B(allowance) + square(d0[0]) + square(d0[1]) + square(d0[2]) - square(R[0]);
    c[1] = twice(d0[0] * d1[0] + d0[1] * d1[1] + d0[2] * d1[2]) - twice(R[0] * R[1]);
    c[2] = square(d1[0]) + square(d1[1]) + square(d1[2]) - (square(R[1]) + twice(R[0] * R[2]));
    c[3] = -twice(R[1] * R[2]);
    c[4] = -square(R[2]);
    degree = 4;
    while (degree >= 0 && c[static_cast<std::size_t>(degree)].exact_zero()) --degree;
  }

  /// Enclosures of the coefficients up to the degree (zero above it); nothing when a value
  /// or bound overflowed.
  std::optional<std::array<Interval, 5>> enclosures() const {
    std::array<Interval, 5> out{};
    for (int i = 0; i <= degree; ++i) {
      const std::optional<Interval> x = c[static_cast<std::size_t>(i)].enclosure();
      if (!x) return std::nullopt;
      out[static_cast<std::size_t>(i)] = *x;
    }
    return out;
  }
};

template <class Owner>
class BoundSeparation final : public Certificate<BoundSeparation<Owner>> {
 public:
  /// `tie_key` orders this event among events at exactly the same time.
  BoundSeparation(Owner& owner, BodyId a, BodyId b, const char* kind, std::uint64_t tie_key, double allowance = 0)
      : Certificate<BoundSeparation<Owner>>({a, b}), owner_(&owner), kind_(kind), allowance_(allowance) {
    this->set_tie_key(tie_key);
  }

  BodyId first() const { return this->bodies()[0]; }
  BodyId second() const { return this->bodies()[1]; }
  double allowance() const { return allowance_; }
  /// Sets the allowance before the failure time is first computed (right after creation).
  void set_allowance(double a) { allowance_ = a; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    if constexpr (std::is_same_v<NT, DoubleDoubleBall> && has_stored_path) {
      if (std::optional<Polynomial<DoubleDoubleBall>> f = stored_ball_function(origin)) return *f;
    }
    if constexpr (std::is_same_v<NT, Interval> && has_short_path<BoundedDouble>) {
      if (std::optional<Polynomial<Interval>> f = bounded_function(origin)) return *f;
    }
    if constexpr (has_short_path<NT>) {
      std::array<Line<NT>, 3> a, b;
      bool linear = true;
      for (int k = 0; k < 3 && linear; ++k)
        linear = owner_->template centre_line<NT>(first(), k, origin, a[k]) &&
                 owner_->template centre_line<NT>(second(), k, origin, b[k]);
      if (linear) {
        // The generic code below, step for step, on short polynomials.
        auto f = ShortPolynomial<NT>(NT(allowance_));
        for (int k = 0; k < 3; ++k) {
          f = f + square(ShortPolynomial<NT>(a[k] - b[k]));
        }
        const ShortPolynomial<NT> r =
            owner_->template short_radius<NT>(first(), origin) + owner_->template short_radius<NT>(second(), origin);
        return (f - square(r)).polynomial();
      }
    }
    Polynomial<NT> f = Polynomial<NT>(NT(allowance_));
    for (int k = 0; k < 3; ++k) {
      Polynomial<NT> d = owner_->template centre<NT>(first(), k, origin) - owner_->template centre<NT>(second(), k, origin);
      f += square(d);
    }
    Polynomial<NT> r = owner_->template radius<NT>(first(), origin) + owner_->template radius<NT>(second(), origin);
    return f - square(r);
  }
  /// Over time-varying bounds (a finite horizon: unknown trajectories), what the bounds'
  /// closest approach proves (separation()): the bounds stay apart until after the
  /// horizon (then no failure time is computed at all), or until a time ahead of the clock
  /// (then the simulator defers the failure time, CertificateBase::holds_before). Bounds
  /// that grow always meet some day, so without a horizon nothing is proven here (and a
  /// ballistic pair's failure time is a cheap quadratic).
  double holds_before(const Root& now, double horizon) const override {
    if constexpr (has_short_path<BoundedDouble>) {
      if (horizon < std::numeric_limits<double>::infinity()) {
        const double t = separation(now, horizon);
        if (t > horizon) {
          ++solver_counters().failure_computations;
          ++solver_counters().failure_apart;
        }
        return t;
      }
    }
    return -std::numeric_limits<double>::infinity();
  }
  void on_failure(Simulator& sim) override { owner_->separation_failed(*this, sim); }
  const char* kind() const override { return kind_; }

 private:
  /// A double t such that the function is certainly positive on [now, t): next_up(horizon)
  /// when it is positive up to and including the horizon, else a time the bounds cannot
  /// meet before (-infinity when nothing is proven). With D(s) = D0 + D1 s (linear
  /// centres, s = t - now.lo()) and R(s) = R0 + R1 s + R2 s^2, a bound's radius
  /// r + A/2 (t - t0)^2 after its reset (all coefficients >= 0, so R grows on s >= 0),
  /// f = |D|^2 - R^2 + allowance with allowance >= 0:
  ///  - up to L (the horizon): f >= min |D|^2 - R(L)^2 on [0, L], where min |D|^2 is
  ///    |D0|^2 if D0.D1 >= 0 (moving apart), |D(L)|^2 if the closest approach
  ///    -D0.D1 / |D1|^2 comes after L, and |D0|^2 - (D0.D1)^2 / |D1|^2 (the closest
  ///    approach m^2) otherwise;
  ///  - else f > 0 while R(s) < m (the bounds cannot touch before their radii reach the
  ///    closest approach), and while R(s) < |D0| - |D1| s (before they could close the
  ///    gap head on): the larger of the two roots, each bounded from below.
  /// The sums in doubles with bounded errors (Inputs), the rest rounded outward, so every
  /// rounding is counted; any doubt (an overflow, a coefficient of R that might be
  /// negative) proves nothing. Much sharper than evaluating the quartic over the window
  /// in intervals (the filter's first test), and a fraction of the cost of building it.
  double separation(const Root& now, double horizon) const {
    constexpr double nothing = -std::numeric_limits<double>::infinity();
    const double origin = now.lo();
    const double w = (Interval(now.hi()) - Interval(origin)).hi();
    const double limit = (Interval(horizon) - Interval(origin)).hi();
    if (!(limit >= w) || !(allowance_ >= 0)) return nothing;
    Inputs in;
    if constexpr (has_stored_path) {
      if (!stored_inputs(origin, in)) return nothing;
    } else {
      if (!line_inputs(origin, in)) return nothing;
    }
    if (apart_by_reach(in, limit)) return next_up(horizon);
    const std::optional<Interval> P = in.p.enclosure(), Q = in.q.enclosure(), S = in.sq.enclosure();
    if (!P || !Q || !S) return nothing;
    std::array<double, 3> r{};  // the radii's coefficients from above, each certainly >= 0
    for (std::size_t j = 0; j < 3; ++j) {
      const std::optional<Interval> c = in.r[j].enclosure();
      if (!c || c->lo() < 0) return nothing;  // R might not grow on s >= 0
      r[j] = c->hi();
    }
    // From here every bound's sign is known, so each operation is rounded outward by one
    // step (up, down) on the side the bound needs, where interval arithmetic would take
    // four products and their least and greatest (the same bounds: 0.8x the instructions
    // of this proof on the unknown-trajectory scene, docs/benchmarks/event-cost.md).
    const double Pl = P->lo(), Ql = Q->lo(), Qh = Q->hi(), Sl = S->lo(), Sh = S->hi(), L = limit;
    // P's lower end not positive: the least distance and the closest approach prove nothing.
    if (!(Pl > 0)) return nothing;
    const double RL = up(up(up(up(r[2] * L) + r[1]) * L) + r[0]);  // R(L) from above
    // The least |D|^2 over [0, L], and the closest approach m^2 over s >= 0, from below.
    double least, closest;
    if (Ql >= 0) {
      least = closest = Pl;
    } else if (Sl > 0) {
      const double Q2 = up(std::max(-Ql, std::fabs(Qh)) * std::max(-Ql, std::fabs(Qh)));  // Q^2 from above
      closest = down(Pl - up(Q2 / Sl));
      // The time of the closest approach, -Q / S, from below: -Q's lower end over S's upper
      // end when it is not negative, else over its lower end.
      const double when = -Qh >= 0 ? down(-Qh / Sh) : down(-Qh / Sl);
      least = when >= L ? down(down(Pl + down(2 * Ql * L)) + down(down(Sl * L) * L)) : closest;
    } else {
      return nothing;
    }
    if (down(least - up(RL * RL)) > 0) return next_up(horizon);
    // The first s >= 0 with R(s) = x, for x > R0: the positive root of
    // R2 s^2 + R1 s = x - R0. It grows with x - R0 and falls with R1 and R2, so x - R0 at
    // its lower end and R1, R2 at their upper ends give a lower bound, evaluated in
    // doubles with its roundings bounded (first_root_below: 2 g / (b + sqrt(b^2 + 4 a g))
    // on non-negative values). Values that might be subnormal prove nothing (0); an
    // overflow gives 0 too.
    auto sqrt_down = [](double x) { return x <= 0 ? 0.0 : std::max(down(std::sqrt(x)), 0.0); };
    auto reach = [&](double x, double r1) { return first_root_below(r[2], r1, down(x - r[0])); };
    const double s = std::max(reach(sqrt_down(closest), r[1]), reach(sqrt_down(Pl), up(r[1] + up(std::sqrt(Sh)))));
    if (!(s > 0)) return nothing;
    return (Interval(origin) + Interval(s)).lo();
  }

  /// One step outward from a result rounded to nearest: a bound from above (up) or below
  /// (down) of the exact one (a product that underflowed to 0 too).
  [[gnu::always_inline]] static double up(double x) { return next_up(x); }
  [[gnu::always_inline]] static double down(double x) { return next_down(x); }

  /// What separation() decides from, at s = t - origin: |D0|^2, D0.D1 and |D1|^2 of the
  /// centres' difference D0 + D1 s (with the allowance in p), and the radii's sum
  /// R0 + R1 s + R2 s^2, each a double with a bound on its error (enclosure() widens it by
  /// 1/16 for the bound's own roundings, as for every BoundedDouble).
  struct Inputs {
    BoundedDouble p, q, sq;
    std::array<BoundedDouble, 3> r{};
  };

  /// The inputs from the owner's lines and short radii in bounded doubles: a bound per
  /// operation. False when a centre is not linear.
  bool line_inputs(double origin, Inputs& in) const {
    using B = BoundedDouble;
    for (int k = 0; k < 3; ++k) {
      Line<B> a, b;
      if (!owner_->template centre_line<B>(first(), k, origin, a) || !owner_->template centre_line<B>(second(), k, origin, b))
        return false;
      const Line<B> d = a - b;
      const B d0 = d.degree >= 0 ? d.c0 : B{}, d1 = d.degree >= 1 ? d.c1 : B{};
      in.p = in.p + square(d0);
      in.q = in.q + d0 * d1;
      in.sq = in.sq + square(d1);
    }
    const ShortPolynomial<B> ra = owner_->template short_radius<B>(first(), origin),
                             rb = owner_->template short_radius<B>(second(), origin);
    for (int i = 0; i <= std::max(ra.degree, rb.degree); ++i) {
      const std::size_t j = static_cast<std::size_t>(i);
      in.r[j] = (i <= ra.degree ? ra.c[j] : B{}) + (i <= rb.degree ? rb.c[j] : B{});
    }
    return true;
  }

  /// The same inputs from the numbers the owner stores (the centres x + offset + v (t - t0),
  /// the radii r + A/2 (t - t_r)^2), in plain doubles, with one error bound per sum derived
  /// here instead of one per operation (u = 2^-53, first order, as BoundedDouble's):
  ///  - a coordinate at the origin, c = (x + offset) + v h with h = origin - t0 rounded:
  ///    |c - exact| <= 4 u M, M = |x| + |offset| + |v h| (h, the product and two sums
  ///    round once each, each by at most u M); taken as 5 u M;
  ///  - d0 = c_a - c_b: 5 u (M_a + M_b) + u |d0| <= 7 u (M_a + M_b) = e; d1 = v_a - v_b:
  ///    u |d1| = e1;
  ///  - p = sum d0^2 (+ allowance): sum (2 |d0| + e) e from the inputs' errors and 4 u p for
  ///    its own roundings (three products, three sums of non-negative terms); sq = sum d1^2:
  ///    (2 + 4) u sq; q = sum d0 d1: sum (|d1| e + |d0| e1 + e e1) + 4 u sum |d0 d1|;
  ///  - each radius's coefficients r + A/2 h_r^2, A h_r, A/2 (h_r = origin - t_r, which must
  ///    not be negative; r and A must not be) are non-negative and round by at most 5 u
  ///    relative (h_r, at most two products and a sum), their sums by one more: 8 u
  ///    relative;
  ///  - a product below the normal range loses up to 2^-1075 absolute: each bound whose
  ///    quantity has a product of non-zero factors in it gains 2^-1060 (p's always; sums and
  ///    differences are exact there). Where every factor is zero the quantity is an exact
  ///    zero, as BoundedDouble keeps it, so that pairs at equal velocities (d1 = 0) and
  ///    bounds that do not grow keep their exact zeros. Two losses that a later product
  ///    could multiply are covered where they arise: e gains 2^-1073 on an axis with a
  ///    velocity (the products v h, which d1 multiplies in q), and a subnormal A proves
  ///    nothing (A/2 rounded, then multiplied by h and h^2).
  /// The allowance is exact. A NaN or an overflow makes a value or a bound non-finite, and
  /// then enclosure() and apart_by_reach prove nothing. False when a centre is not linear or
  /// the origin comes before a bound's reset.
  bool stored_inputs(double origin, Inputs& in) const {
    using B = BoundedDouble;
    constexpr double u = B::u, tiny = 0x1p-1060;
    std::array<StoredLine, 3> la, lb;
    if (!owner_->stored_centre(first(), la) || !owner_->stored_centre(second(), lb)) return false;
    double p = allowance_, q = 0, sq = 0, ep = 0, eq = 0, qm = 0;
    bool any_d1 = false;  // a velocity difference not zero
    for (std::size_t k = 0; k < 3; ++k) {
      const double ha = origin - la[k].t0, hb = origin - lb[k].t0;
      const double ma = la[k].v * ha, mb = lb[k].v * hb;
      const double ca = (la[k].x + la[k].offset) + ma, cb = (lb[k].x + lb[k].offset) + mb;
      const double M = std::fabs(la[k].x) + std::fabs(la[k].offset) + std::fabs(ma) + std::fabs(lb[k].x) +
                       std::fabs(lb[k].offset) + std::fabs(mb);
      const double d0 = ca - cb, d1 = la[k].v - lb[k].v;
      any_d1 |= d1 != 0;
      // A product v h below the normal range loses up to 2^-1075 (two of them: 2^-1074),
      // which d1 may then multiply in q: carried in e itself (a reviewer's case).
      const double e = 7 * u * M + (la[k].v != 0 || lb[k].v != 0 ? 0x1p-1073 : 0.0), e1 = u * std::fabs(d1);
      p += d0 * d0;
      q += d0 * d1;
      sq += d1 * d1;
      ep += (2 * std::fabs(d0) + e) * e;
      eq += std::fabs(d1) * e + std::fabs(d0) * e1 + e * e1;
      qm += std::fabs(d0 * d1);
    }
    // Where every velocity difference is zero, so are q's and sq's products: exact zeros.
    // p's bound always gains tiny: a p whose lower end is not positive proves nothing anyway.
    const double tiny_d1 = any_d1 ? tiny : 0;
    in.p = B(p, ep + 4 * u * p + tiny);
    in.q = B(q, eq + 4 * u * qm + tiny_d1);
    in.sq = B(sq, 6 * u * sq + tiny_d1);
    const RadiusGrowth ga = owner_->radius_growth(first()), gb = owner_->radius_growth(second());
    std::array<double, 3> r{ga.radius + gb.radius, 0, 0};
    bool grows = false, later = false;  // a bound grows; one does and has grown since its reset
    for (const RadiusGrowth& g : {ga, gb}) {
      if (!(g.radius >= 0) || !(g.acceleration >= 0)) return false;  // the bounds above need non-negative terms
      if (g.acceleration == 0) continue;
      // A subnormal A/2 loses up to 2^-1075, which h^2 may multiply far beyond the 2^-1060
      // below (a reviewer's case): proves nothing. (A normal A/2 times h >= 1 stays normal,
      // and with h < 1 a loss below the normal range only shrinks.)
      if (g.acceleration < 0x1p-1021) return false;
      const double h = origin - g.reset_time, half = g.acceleration * 0.5;
      if (!(h >= 0)) return false;
      grows = true;
      later |= h != 0;
      r[0] += half * h * h;
      r[1] += 2.0 * half * h;
      r[2] += half;
    }
    // r0 and r1 hold products of h_r (exact zeros right at the resets), r2 the halves of A.
    const double tiny_h = later ? tiny : 0;
    in.r[0] = B(r[0], 8 * u * r[0] + tiny_h);
    in.r[1] = B(r[1], 8 * u * r[1] + tiny_h);
    in.r[2] = B(r[2], 8 * u * r[2] + (grows ? tiny : 0));
    return true;
  }

  /// separation()'s first answer, "apart up to the horizon", where the gap alone proves it,
  /// in doubles: the centres are |D0| apart at the origin and close at most |D1| per unit
  /// of time, so they stay at least |D0| - |D1| L apart on [0, L]; the radii sum to at most
  /// c0 + c1 L + c2 L^2 there (non-negative coefficients); if the gap exceeds that,
  /// f >= |D|^2 - R^2 > 0 (the allowance is >= 0). The triangle inequality is weaker than
  /// the closest approach separation() computes, so this proves only what that proves too,
  /// and pairs whose bounds are far apart (most of the grid's candidates) skip the closest
  /// approach. Each input's bound (e) is
  /// taken with the enclosure's factor 1.0625 and the few roundings here (a relative
  /// 2^-53 each, fewer than 16) are covered by the factors 1 -/+ 2^-48; a bound that
  /// might be negative, an overflow or a NaN proves nothing, and so does a radius
  /// coefficient that might be negative (R could then turn negative and R^2 exceed the
  /// reach's square: never so for a bound's r + A/2 (t - t0)^2 from its reset on, but an
  /// owner's radius is not checked otherwise).
  [[gnu::always_inline]] static bool apart_by_reach(const Inputs& in, double limit) {
    constexpr double margin = 0x1p-48, largest = std::numeric_limits<double>::max();
    const double p_lo = in.p.v - 1.0625 * in.p.e;  // |D0|^2 from below
    if (!(p_lo > 0) || !(p_lo <= largest)) return false;
    const double sq_hi = in.sq.v + 1.0625 * in.sq.e;  // |D1|^2 from above
    const double gap = std::sqrt(p_lo) * (1 - margin);
    double reach = std::sqrt(std::fabs(sq_hi)) * limit;  // |D1| L
    double power = 1;  // L^i
    for (std::size_t j = 0; j < 3; ++j) {
      if (!(in.r[j].v - 1.0625 * in.r[j].e >= 0)) return false;
      reach += (in.r[j].v + 1.0625 * in.r[j].e) * power;
      power *= limit;
    }
    return reach * (1 + margin) < gap;  // false for a NaN or an infinite reach
  }

  template <class NT>
  static constexpr bool has_short_path = requires(const Owner& o, Line<NT>& l) {
    o.template centre_line<NT>(BodyId{}, 0, 0.0, l);
    o.template short_radius<NT>(BodyId{}, 0.0);
  };
  static constexpr bool has_stored_path = requires(const Owner& o, std::array<StoredLine, 3>& l) {
    { o.stored_centre(BodyId{}, l) } -> std::same_as<bool>;
    { o.radius_growth(BodyId{}) } -> std::same_as<RadiusGrowth>;
  };

  /// The function in intervals from BoundedQuartic: the same polynomial as the interval
  /// path below, in enclosures of the same exact coefficients, as narrow or narrower (about
  /// a third of its instructions). Nothing when a centre is not linear or a value overflows:
  /// then the interval path decides. Always inlined into function<Interval>, its one
  /// caller: with BoundedDouble::enclosure inlined in it GCC kept it apart, and the copy
  /// of the returned polynomial cost the ballistic scene 1% of its instructions.
  [[gnu::always_inline]] std::optional<Polynomial<Interval>> bounded_function(double origin) const {
    using B = BoundedDouble;
    std::array<Line<B>, 3> d;
    for (int k = 0; k < 3; ++k) {
      Line<B> a, b;
      if (!owner_->template centre_line<B>(first(), k, origin, a) || !owner_->template centre_line<B>(second(), k, origin, b))
        return std::nullopt;
      d[k] = a - b;
    }
    const BoundedQuartic q(d, owner_->template short_radius<B>(first(), origin),
                           owner_->template short_radius<B>(second(), origin), allowance_);
    const std::optional<std::array<Interval, 5>> c = q.enclosures();
    if (!c) return std::nullopt;
    return Polynomial<Interval>::from_range(c->begin(), c->begin() + (q.degree + 1));
  }

  /// The function in double-double balls from the stored numbers, written out with
  /// BoundedQuartic's formulas (the centres x + offset + v (origin - t0) + v s, the radii
  /// r + A/2 (origin - t_r + s)^2), every operation a ball's (rigorous at any origin).
  /// Rounding the clock to a double (ceil_to_double) asks for it at every bound collision:
  /// built through the owner's lines and short polynomials it took about twice the
  /// instructions. Nothing when a centre is not linear.
  std::optional<Polynomial<DoubleDoubleBall>> stored_ball_function(double origin) const {
    using D = DoubleDoubleBall;
    std::array<StoredLine, 3> la, lb;
    if (!owner_->stored_centre(first(), la) || !owner_->stored_centre(second(), lb)) return std::nullopt;
    D p(allowance_), q, sq;
    for (std::size_t k = 0; k < 3; ++k) {
      // (x + offset, like origin - t0, is exact in a double-double.)
      const D ca = D::difference(la[k].x, -la[k].offset) + D::difference(origin, la[k].t0) * la[k].v;
      const D cb = D::difference(lb[k].x, -lb[k].offset) + D::difference(origin, lb[k].t0) * lb[k].v;
      const D d0 = ca - cb, d1 = D::difference(la[k].v, lb[k].v);
      p += d0 * d0;
      q += d0 * d1;
      sq += d1 * d1;
    }
    const RadiusGrowth ga = owner_->radius_growth(first()), gb = owner_->radius_growth(second());
    D R0 = D(ga.radius) + D(gb.radius), R1, R2;
    bool grows = false;
    for (const RadiusGrowth& g : {ga, gb}) {
      if (g.acceleration == 0) continue;
      grows = true;
      const D h = D::difference(origin, g.reset_time), half = D(g.acceleration) * D(0.5);
      R0 += half * (h * h);
      R1 += h * g.acceleration;
      R2 += half;
    }
    const D two(2.0);
    std::array<D, 5> c{p - R0 * R0, two * (q - R0 * R1), sq - (R1 * R1 + two * R0 * R2), D(), D()};
    if (grows) {
      c[3] = -(two * R1 * R2);
      c[4] = -(R2 * R2);
    }
    return Polynomial<D>::from_range(c.begin(), c.end());
  }

  Owner* owner_;
  const char* kind_;
  double allowance_;
};

}  // namespace kds
