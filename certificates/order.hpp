#pragma once
/// \file
/// The order certificate: object a is not after object b on a line, x_b(t) - x_a(t) >= 0.
///
/// Reusable by any structure that keeps things sorted along a line. The owner supplies
/// the coordinates and the repair:
///   template <class NT> kds::Polynomial<NT> coordinate(kds::ObjectId, double origin) const;
///   void order_failed(kds::Order<Owner>& certificate, kds::Simulator& sim);

#include "kds/certificate.hpp"

namespace kds {

template <class Owner>
class Order final : public Certificate<Order<Owner>> {
 public:
  /// `kind` names the events in statistics and traces (a string literal).
  Order(Owner& owner, ObjectId a, ObjectId b, const char* kind = "order")
      : Certificate<Order<Owner>>({a, b}), owner_(&owner), kind_(kind) {}

  ObjectId before() const { return this->objects()[0]; }
  ObjectId after() const { return this->objects()[1]; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    return owner_->template coordinate<NT>(after(), origin) - owner_->template coordinate<NT>(before(), origin);
  }
  void on_failure(Simulator& sim) override { owner_->order_failed(*this, sim); }
  const char* kind() const override { return kind_; }

 private:
  Owner* owner_;
  const char* kind_;
};

}  // namespace kds
