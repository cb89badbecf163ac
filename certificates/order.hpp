#pragma once
/// \file
/// The order certificate: key `lower` is not above key `upper`,
///     upper(t) - lower(t) >= 0,
/// for two entries of a keyed structure (kds/key.hpp). Reusable by any structure that
/// keeps keys sorted or ranked (the sorted list, the tournament). It names the bodies of
/// both keys, so a motion change of any of them reschedules it.
///
/// It reads the keys from its owner's KeyTable (copies would double its size, and the
/// sorted list's speed is its size). So an owner that erases or re-keys an entry must
/// first call `pin_clock_if_reading(sim, entry)`: the clock may be the failure time of a
/// certificate over that entry, whose exact value is computed lazily from the function
/// (docs/certificates.md, section 2).
///
/// Owner interface:
///   const kds::KeyTable& key_table() const;
///   void order_failed(kds::Order<Owner>& certificate, kds::Simulator& sim);

#include "kds/certificate.hpp"
#include "kds/key_table.hpp"
#include "kds/simulator.hpp"

namespace kds {

template <class Owner>
class Order final : public Certificate<Order<Owner>> {
 public:
  /// `kind` names the events in statistics and traces (a string literal).
  Order(Owner& owner, EntryId lower, EntryId upper, const char* kind = "order")
      : Certificate<Order<Owner>>(both(owner.key_table(), lower, upper)),
        owner_(&owner),
        kind_(kind),
        lower_(lower),
        upper_(upper) {}

  EntryId lower() const { return lower_; }
  EntryId upper() const { return upper_; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    const KeyTable& keys = owner_->key_table();
    return keys.value<NT>(upper_, origin) - keys.value<NT>(lower_, origin);
  }
  /// Keys that differ by a constant (of one body, or of two bodies moving alike along
  /// the keys' direction): never, or now, from its exact sign
  /// (KeyTable::constant_difference_sign). Linear keys (points in linear motion, the
  /// commonest case): the failure time from the two motions as stored, one interval
  /// division in absolute time, no re-basing (first_failure_of_stored_lines); where that
  /// cannot decide, from the two keys' lines at the clock (kds/line.hpp); anything else
  /// goes to first_failure(). The same failure time in every case (in the floating mode
  /// the constant's exact sign may differ from its doubles' difference, which can round
  /// to 0: there it decides).
  Root failure_after(const Root& now, Birth birth, Exactness mode, double horizon) const override {
    const KeyTable& keys = owner_->key_table();
    // Two keys under one linear form of one body (a box's two extremes, a centre and the
    // plane through its own guard), or of two bodies moving alike along it (two guard
    // planes of objects at rest), differ by a constant whose sign is known exactly.
    if (const Sign s = keys.constant_difference_sign(upper_, lower_); s != Sign::unknown)
      return first_failure_of_constant(s, now, mode);
    StoredLine u, l;
    if (keys.stored_line(upper_, u) && keys.stored_line(lower_, l))
      if (auto r = first_failure_of_stored_lines(u, l, *this, now, birth, mode, horizon)) return *r;
    const double origin = now.lo();
    if (mode == Exactness::floating) {
      Line<double> a, b;
      if (keys.line(upper_, origin, a) && keys.line(lower_, origin, b))
        if (auto r = first_failure_of_line(a - b, *this, now, birth, mode, horizon)) return *r;
    } else {
      Line<Interval> a, b;
      if (keys.line(upper_, origin, a) && keys.line(lower_, origin, b))
        if (auto r = first_failure_of_line(a - b, *this, now, birth, mode, horizon)) return *r;
    }
    return first_failure(*this, now, birth, mode, horizon);
  }
  bool stored_lines(StoredLine& upper, StoredLine& lower) const override {
    const KeyTable& keys = owner_->key_table();
    return keys.stored_line(upper_, upper) && keys.stored_line(lower_, lower);
  }
  /// In one owner: the same two keys, or keys that differ from them by an exact zero
  /// (coinciding planes: KeyTable::constant_difference_sign), in the same or the swapped
  /// order. Else, in one owner or two of one kind: keys that are linear forms whose
  /// differences are equal or opposite (same_or_negated_difference: two objects of one
  /// size seen through mirrored guards, one crossing kept in the lists of u and -u).
  bool same_or_negated(const Function& other) const override {
    const auto* o = dynamic_cast<const Order*>(&other);
    if (o == nullptr) return false;
    const KeyTable& keys = owner_->key_table();
    if (o->owner_ == owner_) {
      auto coincide = [&](EntryId a, EntryId b) { return a == b || keys.constant_difference_sign(a, b) == Sign::zero; };
      if ((coincide(upper_, o->upper_) && coincide(lower_, o->lower_)) ||
          (coincide(upper_, o->lower_) && coincide(lower_, o->upper_)))
        return true;
    }
    const KeyTable& other_keys = o->owner_->key_table();
    LinearForm au, al, bu, bl;
    return keys.linear_form(upper_, au) && keys.linear_form(lower_, al) && other_keys.linear_form(o->upper_, bu) &&
           other_keys.linear_form(o->lower_, bl) && same_or_negated_difference(au, al, bu, bl);
  }
  /// Whether the function is known to vanish at the failure time, exactly: the time is a
  /// root of this certificate's own function (a renewal or a motion change recomputes
  /// it), or a copy of the clock, not pinned, whose source is this function up to sign
  /// (first_failure's rule for a line born level with the clock). A pinned time is left
  /// alone: its source may have changed since (Root::pinned). false when not known.
  bool vanishes_at_failure_time() const {
    const Root& f = this->failure_time();
    if (f.source() == nullptr || f.pinned()) return false;
    return f.source() == this || same_or_negated(*f.source());
  }
  /// The base's stored lines (coordinate keys), or same_or_negated() over linear keys:
  /// two certificates of one list whose keys coincide pairwise fail at one instant.
  bool same_linear_function(const Function& other) const override {
    if (Function::same_linear_function(other)) return true;
    // Degree 1 in intervals: no key has a t^2 or t^3 term (sums copy what they do not
    // add, kds/polynomial.hpp), and a function with a root is not a constant.
    return same_or_negated(other) && this->interval_polynomial(0.0).degree() == 1;
  }
  void on_failure(Simulator& sim) override { owner_->order_failed(*this, sim); }
  /// Makes this the certificate of another pair of entries of the same owner, in place
  /// (Simulator::renew): what a sorted list does with the neighbours of a swap.
  void move_to(Simulator& sim, EntryId lower, EntryId upper, Birth birth = Birth::generic) {
    sim.renew(
        this, both(owner_->key_table(), lower, upper),
        [&] {
          lower_ = lower;
          upper_ = upper;
        },
        birth);
  }
  /// After this certificate failed: makes it the certificate of the swapped pair, whose
  /// function is the negation of the old one (Simulator::renew_negated), in place.
  void swap_in_place(Simulator& sim, Birth birth = Birth::vanishes_now) {
    sim.renew_negated(
        this, both(owner_->key_table(), upper_, lower_), [&] { std::swap(lower_, upper_); }, birth);
  }
  const char* kind() const override { return kind_; }

  /// Before `owner` changes the key of `entry`: if the clock is the failure time of one of
  /// its order certificates over that entry (alive or just destroyed), fix the clock's
  /// exact value while the function still reads the old key. Rare: the clock usually
  /// comes from another entry's certificate, and then nothing is computed.
  static void pin_clock_if_reading(const Simulator& sim, const Owner& owner, EntryId entry) {
    const auto* c = dynamic_cast<const Order*>(sim.now().source());
    if (c != nullptr && c->owner_ == &owner && (c->lower_ == entry || c->upper_ == entry)) sim.pin_clock();
  }
  /// Before `owner` goes: if the clock is the failure time of one of its order
  /// certificates (alive or just destroyed), fix the clock's exact value while that
  /// certificate can still read the owner's keys; after, nothing reads them (a clock's
  /// source is read only while the clock is not pinned).
  static void pin_clock_if_owned(const Simulator& sim, const Owner& owner) {
    const auto* c = dynamic_cast<const Order*>(sim.now().source());
    if (c != nullptr && c->owner_ == &owner) sim.pin_clock();
  }

 private:
  static BodyList both(const KeyTable& keys, EntryId a, EntryId b) {
    BodyList l = keys.bodies_of(a);
    for (BodyId x : keys.bodies_of(b)) l.add(x);
    return l;
  }

  Owner* owner_;
  const char* kind_;
  EntryId lower_, upper_;
};

}  // namespace kds
