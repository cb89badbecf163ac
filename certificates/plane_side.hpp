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
  void on_failure(Simulator& sim) override { owner_->plane_crossed(*this, sim); }
  const char* kind() const override { return kind_; }

 private:
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
