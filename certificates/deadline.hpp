#pragma once
/// \file
/// A deadline: the function T - t, which fails at the fixed time T. A timer for events
/// whose time is known in advance, such as the reset of a time-varying bound when its
/// diameter reaches the cell side (Kim, Guibas, Shin, eq. 8).
///
/// Owner interface: void deadline_reached(Deadline<Owner>&, Simulator&);

#include "kds/certificate.hpp"
#include "kds/solver.hpp"

namespace kds {

template <class Owner>
class Deadline final : public Certificate<Deadline<Owner>> {
 public:
  Deadline(Owner& owner, BodyId object, double time, const char* kind, std::uint64_t tie_key)
      : Certificate<Deadline<Owner>>({object}), owner_(&owner), kind_(kind), time_(time) {
    this->set_tie_key(tie_key);
  }
  BodyId object() const { return this->bodies()[0]; }
  double time() const { return time_; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    return Polynomial<NT>{NT(NT(time_) - NT(origin)), NT(-1.0)};
  }
  /// T - t has one root, T, a double: a point, so that rounding the clock there
  /// (Simulator::round_clock, at every reset) asks no sign of the function next to it,
  /// which is 0 at T exactly and only the exact path could tell. A deadline at or before
  /// now fails now, as first_failure decides.
  Root failure_after(const Root& now, Birth birth, Exactness mode, double horizon) const override {
    if (compare(now, time_) < 0) return Root::at(time_);
    return first_failure(*this, now, birth, mode, horizon);
  }
  void on_failure(Simulator& sim) override { owner_->deadline_reached(*this, sim); }
  const char* kind() const override { return kind_; }

 private:
  Owner* owner_;
  const char* kind_;
  double time_;
};

}  // namespace kds
