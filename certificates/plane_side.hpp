#pragma once
/// \file
/// A moving sphere (of possibly varying radius) and an axis-aligned plane x_k = p:
///   side * (c_k(t) - p) + reach * r(t) >= 0.
/// With reach = -1 the sphere stays entirely on the `side` of the plane (side +1: above);
/// with reach = +1 it keeps reaching across the plane to that side (its extreme point on
/// that side stays beyond the plane); with reach = 0 the test is on the centre alone. Grid cell faces (entering and leaving events, eq. 7) and box walls are
/// planes of this kind. `allowance` (a length >= 0) is added to the function, for a sphere
/// created already touching the plane by a few ulps (see certificates/bound_separation.hpp).
/// `set_fixed_radius` replaces the owner's radius by a constant: how far a convex polytope
/// reaches toward the plane (its extreme vertex), for walls.
///
/// Owner interface:
///   template <class NT> Polynomial<NT> centre(BodyId, int axis, double origin) const;
///   template <class NT> Polynomial<NT> radius(BodyId, double origin) const;
///   void plane_crossed(PlaneSide<Owner>&, Simulator&);
/// and optionally, as for BoundSeparation (certificates/bound_separation.hpp):
///   template <class NT> bool centre_line(BodyId, int axis, double origin, Line<NT>&) const;
///     (false when that coordinate is not linear)
///   template <class NT> ShortPolynomial<NT> short_radius(BodyId, double origin) const;
/// With them, under a finite horizon, holds_before proves from the function's three
/// coefficients that the sphere stays on its side until the horizon, or until a time its
/// failure time is deferred to.

#include <array>
#include <limits>
#include <optional>

#include "certificates/first_root_below.hpp"
#include "certificates/short_polynomial.hpp"
#include "kds/bounded_double.hpp"
#include "kds/certificate.hpp"

namespace kds {

template <class Owner>
class PlaneSide final : public Certificate<PlaneSide<Owner>> {
 public:
  PlaneSide(Owner& owner, BodyId sphere, int axis, double plane, int side, const char* kind, std::uint64_t tie_key,
            int reach = -1, double allowance = 0)
      : Certificate<PlaneSide<Owner>>({sphere}),
        owner_(&owner),
        kind_(kind),
        plane_(plane),
        allowance_(allowance),
        axis_(static_cast<std::int8_t>(axis)),
        side_(static_cast<std::int8_t>(side)),
        reach_(static_cast<std::int8_t>(reach)) {
    this->set_tie_key(tie_key);
  }

  BodyId sphere() const { return this->bodies()[0]; }
  int axis() const { return axis_; }
  int side() const { return side_; }
  int reach() const { return reach_; }
  double plane() const { return plane_; }
  double allowance() const { return allowance_; }
  /// Sets the allowance before the failure time is first computed (right after creation).
  void set_allowance(double a) { allowance_ = a; }
  /// Uses r instead of the owner's radius (>= 0), before the failure time is first computed.
  void set_fixed_radius(double r) { fixed_radius_ = r; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    Polynomial<NT> c = owner_->template centre<NT>(sphere(), axis_, origin);
    Polynomial<NT> d = side_ > 0 ? c - Polynomial<NT>(NT(plane_)) : Polynomial<NT>(NT(plane_)) - c;
    if (reach_ != 0) {
      const Polynomial<NT> r = fixed_radius_ >= 0 ? Polynomial<NT>(NT(fixed_radius_))
                                                  : owner_->template radius<NT>(sphere(), origin);
      if (reach_ < 0) d -= r;
      else d += r;
    }
    if (allowance_ != 0) d += Polynomial<NT>(NT(allowance_));
    return d;
  }
  /// Under a finite horizon (a time-varying bound: unknown trajectories), what clearance()
  /// proves: the sphere stays on its side until after the horizon (then no failure time
  /// is computed at all), or until a time ahead of the clock (then the simulator defers
  /// the failure time, CertificateBase::holds_before). Without a horizon nothing is
  /// proven here (a ballistic sphere's failure time is a cheap quadratic).
  double holds_before(const Root& now, double horizon) const override {
    if constexpr (has_short_path<BoundedDouble>) {
      if (horizon < std::numeric_limits<double>::infinity()) {
        const double t = clearance(now);
        if (t > horizon) {
          ++solver_counters().failure_computations;
          ++solver_counters().failure_apart;
          return next_up(horizon);
        }
        return t;
      }
    }
    return -std::numeric_limits<double>::infinity();
  }
  void on_failure(Simulator& sim) override { owner_->plane_crossed(*this, sim); }
  const char* kind() const override { return kind_; }

 private:
  /// A double t such that the function is certainly positive on [now, t) (infinity: at
  /// every time from now on; -infinity: nothing proven). With a linear centre the function
  /// is a quadratic in s = t - now.lo(),
  ///   f(s) = g0 + g1 s + g2 s^2,  g0 = side (c0 - plane) + reach R0 + allowance,
  ///   g1 = side c1 + reach R1,     g2 = reach R2,
  /// for the centre c0 + c1 s and the radius R0 + R1 s + R2 s^2 (a bound's r + A/2 (t - t0)^2,
  /// or a fixed radius). Its coefficients are summed in bounded doubles (as BoundSeparation's),
  /// and their enclosures' lower ends give l(s) = a0 + b s + c s^2 <= f(s) for every s >= 0
  /// (a0 <= g0, b <= g1, c <= g2, and s, s^2 >= 0). With a0 > 0, l > 0 up to its first
  /// positive root, which first_root_below bounds from below (no root: l > 0 for ever; for a
  /// bound seen from a plane it must not reach, c = -A/2 < 0 and the root is about where the
  /// centre's approach and the radius's growth close the gap). Any doubt (a centre that is
  /// not linear, an overflow, a value at now that might not be positive: touching now, or
  /// the negation of a face just crossed) proves nothing.
  double clearance(const Root& now) const {
    using B = BoundedDouble;
    constexpr double nothing = -std::numeric_limits<double>::infinity();
    const double origin = now.lo();
    Line<B> c;
    if (!owner_->template centre_line<B>(sphere(), axis_, origin, c)) return nothing;
    const B c0 = c.degree >= 0 ? c.c0 : B{}, c1 = c.degree >= 1 ? c.c1 : B{};
    std::array<B, 3> r{};
    if (reach_ != 0) {
      if (fixed_radius_ >= 0) {
        r[0] = B(fixed_radius_);
      } else {
        const ShortPolynomial<B> p = owner_->template short_radius<B>(sphere(), origin);
        if (p.degree > 2) return nothing;
        for (int i = 0; i <= p.degree; ++i) r[static_cast<std::size_t>(i)] = p.c[static_cast<std::size_t>(i)];
      }
    }
    const B d0 = side_ > 0 ? c0 - B(plane_) : B(plane_) - c0, d1 = side_ > 0 ? c1 : -c1;
    const B g0 = (reach_ < 0 ? d0 - r[0] : d0 + r[0]) + B(allowance_);
    const B g1 = reach_ < 0 ? d1 - r[1] : d1 + r[1];
    const B g2 = reach_ < 0 ? -r[2] : r[2];
    const std::optional<Interval> G0 = g0.enclosure(), G1 = g1.enclosure(), G2 = g2.enclosure();
    if (!G0 || !G1 || !G2 || !(G0->lo() > 0)) return nothing;
    // l(s) = 0 where (-c) s^2 + (-b) s = a0.
    const double s = first_root_below(-G2->lo(), -G1->lo(), G0->lo());
    if (!(s > 0)) return nothing;
    if (s == std::numeric_limits<double>::infinity()) return s;
    return (Interval(origin) + Interval(s)).lo();
  }

  template <class NT>
  static constexpr bool has_short_path = requires(const Owner& o, Line<NT>& l) {
    o.template centre_line<NT>(BodyId{}, 0, 0.0, l);
    o.template short_radius<NT>(BodyId{}, 0.0);
  };

  Owner* owner_;
  const char* kind_;
  double plane_;
  double allowance_;
  double fixed_radius_ = -1;  // < 0: the owner's radius
  std::int8_t axis_;
  std::int8_t side_;
  std::int8_t reach_;
};

}  // namespace kds
