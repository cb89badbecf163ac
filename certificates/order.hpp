#pragma once
/// \file
/// The order certificate: key `lower` is not above key `upper`,
///     upper(t) - lower(t) >= 0,
/// for two entries of a keyed structure (kds/key.hpp). Reusable by any structure that
/// keeps keys sorted or ranked (the sorted list, the tournament). It names the bodies of
/// both keys, so a motion change of any of them reschedules it.
///
/// Owner interface:
///   template <class NT> kds::Polynomial<NT> key_value(kds::EntryId, double origin) const;
///   kds::BodyList bodies_of(kds::EntryId lower, kds::EntryId upper) const;
///   void order_failed(kds::Order<Owner>& certificate, kds::Simulator& sim);

#include "kds/certificate.hpp"
#include "kds/key.hpp"

namespace kds {

template <class Owner>
class Order final : public Certificate<Order<Owner>> {
 public:
  /// `kind` names the events in statistics and traces (a string literal).
  Order(Owner& owner, EntryId lower, EntryId upper, const char* kind = "order")
      : Certificate<Order<Owner>>(owner.bodies_of(lower, upper)), owner_(&owner), kind_(kind), lower_(lower), upper_(upper) {}

  EntryId lower() const { return lower_; }
  EntryId upper() const { return upper_; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    return owner_->template key_value<NT>(upper_, origin) - owner_->template key_value<NT>(lower_, origin);
  }
  void on_failure(Simulator& sim) override { owner_->order_failed(*this, sim); }
  const char* kind() const override { return kind_; }

 private:
  Owner* owner_;
  const char* kind_;
  EntryId lower_, upper_;
};

}  // namespace kds
