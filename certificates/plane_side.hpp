#pragma once
/// \file
/// A moving sphere (of possibly varying radius) stays on one side of an axis-aligned
/// plane x_k = p: for side +1 (the sphere is above the plane) c_k(t) - r(t) - p >= 0, for
/// side -1 (below) p - c_k(t) - r(t) >= 0. With `with_radius = false` the test is on the
/// centre alone. Grid cell faces (entering and leaving events, eq. 7) and box walls are
/// planes of this kind.
///
/// Owner interface:
///   template <class NT> Polynomial<NT> centre(ObjectId, int axis, double origin) const;
///   template <class NT> Polynomial<NT> radius(ObjectId, double origin) const;
///   void plane_crossed(PlaneSide<Owner>&, Simulator&);

#include "kds/certificate.hpp"

namespace kds {

template <class Owner>
class PlaneSide final : public Certificate<PlaneSide<Owner>> {
 public:
  PlaneSide(Owner& owner, ObjectId sphere, int axis, double plane, int side, const char* kind, std::uint64_t tie_key,
            bool with_radius = true)
      : Certificate<PlaneSide<Owner>>({sphere}),
        owner_(&owner),
        kind_(kind),
        plane_(plane),
        axis_(static_cast<std::int8_t>(axis)),
        side_(static_cast<std::int8_t>(side)),
        with_radius_(with_radius) {
    this->set_tie_key(tie_key);
  }

  ObjectId sphere() const { return this->objects()[0]; }
  int axis() const { return axis_; }
  int side() const { return side_; }
  double plane() const { return plane_; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    Polynomial<NT> c = owner_->template centre<NT>(sphere(), axis_, origin);
    Polynomial<NT> d = side_ > 0 ? c - Polynomial<NT>(NT(plane_)) : Polynomial<NT>(NT(plane_)) - c;
    if (with_radius_) d -= owner_->template radius<NT>(sphere(), origin);
    return d;
  }
  void on_failure(Simulator& sim) override { owner_->plane_crossed(*this, sim); }
  const char* kind() const override { return kind_; }

 private:
  Owner* owner_;
  const char* kind_;
  double plane_;
  std::int8_t axis_;
  std::int8_t side_;
  bool with_radius_;
};

}  // namespace kds
