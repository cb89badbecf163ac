#pragma once
/// \file
/// The order certificate: key `lower` is not above key `upper`,
///     upper(t) - lower(t) >= 0,
/// for two entries of a keyed structure (kds/key.hpp). Reusable by any structure that
/// keeps keys sorted or ranked (the sorted list, the tournament). It names the bodies of
/// both keys, so a motion change of any of them reschedules it.
///
/// It keeps copies of the two keys, taken at creation: its function depends only on
/// data fixed then (docs/certificates.md). The clock may be this certificate's failure
/// time, whose exact value is computed from the function long after; a structure that
/// erases or re-keys the entry meanwhile must not change it.
///
/// Owner interface:
///   const kds::Key& entry_key(kds::EntryId) const;
///   const kds::Bodies& key_bodies() const;
///   void order_failed(kds::Order<Owner>& certificate, kds::Simulator& sim);

#include "kds/certificate.hpp"
#include "kds/key.hpp"

namespace kds {

template <class Owner>
class Order final : public Certificate<Order<Owner>> {
 public:
  /// `kind` names the events in statistics and traces (a string literal).
  Order(Owner& owner, EntryId lower, EntryId upper, const char* kind = "order")
      : Order(owner, lower, owner.entry_key(lower), upper, owner.entry_key(upper), kind) {}

  EntryId lower() const { return lower_; }
  EntryId upper() const { return upper_; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    return upper_key_.template value<NT>(*bodies_, origin) - lower_key_.template value<NT>(*bodies_, origin);
  }
  void on_failure(Simulator& sim) override { owner_->order_failed(*this, sim); }
  const char* kind() const override { return kind_; }

 private:
  Order(Owner& owner, EntryId lower, const Key& lower_key, EntryId upper, const Key& upper_key, const char* kind)
      : Certificate<Order<Owner>>(both(lower_key, upper_key)),
        owner_(&owner),
        bodies_(&owner.key_bodies()),
        kind_(kind),
        lower_key_(lower_key),
        upper_key_(upper_key),
        lower_(lower),
        upper_(upper) {}
  static BodyList both(const Key& a, const Key& b) {
    BodyList l = a.bodies();
    for (BodyId x : b.bodies()) l.add(x);
    return l;
  }

  Owner* owner_;
  const Bodies* bodies_;
  const char* kind_;
  Key lower_key_, upper_key_;
  EntryId lower_, upper_;
};

}  // namespace kds
