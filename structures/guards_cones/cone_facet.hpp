#pragma once
/// \file
/// The certificate of a center event: the centre of object K stays on the inner side of
/// one facet of the cone of guard g it was assigned to,
///     n . (c_K(t) - g(t)) >= 0,   g(t) = c_owner(t) + offset,
/// with n the facet's integer inward normal (cones.hpp). Three of them (one per facet)
/// certify that c_K stays in the closed cone. It names both bodies (the guard's owner and
/// K), so a motion change of either reschedules it.
///
/// Owner interface:
///   template <class NT> Polynomial<NT> facet_function(std::uint32_t guard, SphereId object,
///                                                      const IntVec& normal, double origin) const;
///   void facet_crossed(ConeFacet<Owner>&, Simulator&);
///   bool same_facet_function(std::uint32_t guard, const IntVec& normal, SphereId object,
///                            std::uint32_t other_guard, const IntVec& other_normal, SphereId other_object) const;

#include <cstdint>

#include "kds/certificate.hpp"
#include "structures/collision/sphere.hpp"
#include "structures/guards_cones/cones.hpp"

namespace kds {

template <class Owner>
class ConeFacet final : public Certificate<ConeFacet<Owner>> {
 public:
  ConeFacet(Owner& owner, BodyId guard_body, BodyId object_body, std::uint32_t guard, SphereId object,
            const IntVec& normal, std::uint64_t tie_key)
      : Certificate<ConeFacet<Owner>>({guard_body, object_body}),
        owner_(&owner),
        guard_(guard),
        object_(object),
        normal_(normal) {
    this->set_tie_key(tie_key);
  }

  std::uint32_t guard() const { return guard_; }
  SphereId object() const { return object_; }
  const IntVec& normal() const { return normal_; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    return owner_->template facet_function<NT>(guard_, object_, normal_, origin);
  }
  /// Several guards of one object lie on one plane of a facet orientation, and a centre in
  /// their cones gives each the same facet function; two objects of one size see each
  /// other through mirrored guards. Such certificates fail at one instant, which compare()
  /// then decides without computing it.
  bool same_linear_function(const Function& other) const override {
    const auto* o = dynamic_cast<const ConeFacet*>(&other);
    if (o == nullptr || o->owner_ != owner_) return Function::same_linear_function(other);
    return owner_->same_facet_function(guard_, normal_, object_, o->guard_, o->normal_, o->object_);
  }
  void on_failure(Simulator& sim) override { owner_->facet_crossed(*this, sim); }
  const char* kind() const override { return "cone facet"; }

 private:
  Owner* owner_;
  std::uint32_t guard_;
  SphereId object_;
  IntVec normal_;
};

}  // namespace kds
