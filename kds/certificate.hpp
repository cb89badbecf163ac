#pragma once
/// \file
/// Certificates: functions of time that stay positive while a fact about moving bodies
/// holds, with a failure handler that repairs the structure when they fail.
///
/// To write one, derive from `kds::Certificate<YourCertificate>` and provide
///   template <class NT> kds::Polynomial<NT> function(double origin) const;  // in s = t - origin
///   void on_failure(kds::Simulator& sim) override;                         // repair
///   const char* kind() const override;                                     // "order", "collision"...
/// Certificates are created and destroyed through the simulator (`Simulator::create`,
/// `Simulator::destroy`), which owns them.

#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <new>
#include <span>
#include <stdexcept>

#include "kds/body_id.hpp"
#include "kds/body_links.hpp"
#include "kds/function.hpp"
#include "kds/root.hpp"
#include "kds/solver.hpp"

namespace kds {

/// The bodies a certificate's function depends on, at most four, without repeats (a
/// certificate comparing two gaps of a sorted list may name a body twice; it is listed once).
class BodyList {
 public:
  static constexpr int capacity = 4;
  BodyList() = default;
  BodyList(std::initializer_list<BodyId> ids) {
    for (BodyId b : ids) add(b);
  }
  void add(BodyId b) {
    for (std::uint8_t i = 0; i < n_; ++i)
      if (ids_[i] == b) return;
    if (n_ == capacity) throw std::length_error("kds::Certificate: more than 4 bodies");
    ids_[n_++] = b;
  }
  void add(std::span<const BodyId> bs) {
    for (BodyId b : bs) add(b);
  }
  /// The bodies; not on a temporary (`for (BodyId b : key.bodies())` iterates safely).
  std::span<const BodyId> view() const& { return {ids_.data(), n_}; }
  std::span<const BodyId> view() const&& = delete;
  const BodyId* begin() const { return ids_.data(); }
  const BodyId* end() const { return ids_.data() + n_; }
  std::size_t size() const { return n_; }
  BodyId operator[](std::size_t i) const { return ids_[i]; }

 private:
  std::array<BodyId, capacity> ids_{};
  std::uint8_t n_ = 0;
};

class Simulator;
class CertificateBase;

class CertificateBase : public Function {
 public:
  static constexpr int max_bodies = BodyList::capacity;

  /// The bodies the function depends on: a motion change of one of them reschedules it.
  explicit CertificateBase(const BodyList& bodies) {
    for (BodyId b : bodies.view()) bodies_[n_bodies_++] = b;
  }
  CertificateBase(std::initializer_list<BodyId> bodies) : CertificateBase(BodyList(bodies)) {}
  /// Certificates come from per-size free lists over slabs (kds/certificate.cpp): creating
  /// and destroying them at every event then allocates nothing once the lists are warm,
  /// and new ones lie side by side, on huge pages once there are many.
  static void* operator new(std::size_t size);
  static void operator delete(void* p, std::size_t size) noexcept;
  /// A kind aligned beyond what operator new guarantees (alignas above 16) takes the
  /// global aligned allocation: the pools' blocks are aligned to 16 bytes only.
  static void* operator new(std::size_t size, std::align_val_t al) { return ::operator new(size, al); }
  /// (The unsized global form: Clang before 19 declares the sized aligned one only with
  /// -fsized-deallocation.)
  static void operator delete(void* p, std::size_t, std::align_val_t al) noexcept { ::operator delete(p, al); }

  CertificateBase(const CertificateBase&) = delete;
  CertificateBase& operator=(const CertificateBase&) = delete;
  ~CertificateBase() override = default;

  /// Repairs the structure at the failure time. It must destroy this certificate
  /// (`sim.destroy(this)`) or reschedule it (after changing motions, `sim.motion_changed`).
  virtual void on_failure(Simulator& sim) = 0;
  /// The first failure at or after `now` (Simulator::flush calls it). By default
  /// first_failure(*this, ...) (kds/solver.hpp). A kind whose function has a closed form
  /// may override it to skip building polynomials, if it returns the same failure time as
  /// first_failure would, as an isolating interval of the same root (the order
  /// certificate of linear keys: first_failure_of_stored_lines).
  virtual Root failure_after(const Root& now, Birth birth, Exactness mode, double horizon) const {
    return first_failure(*this, now, birth, mode, horizon);
  }
  /// A double t such that the function is certainly positive at every time of [now, t):
  /// what a kind can prove more cheaply than its failure time. -infinity (the default):
  /// nothing. The simulator (flush) asks it of a certificate with a horizon (set_horizon:
  /// one its structure replaces by then, so most never fail), before failure_after:
  ///  - t > horizon: no failure up to and including the horizon; not queued, as a
  ///    failure beyond the horizon (CertificateBase::set_horizon);
  ///  - now < t <= horizon: the failure time is *deferred*: the certificate is queued at
  ///    t, ahead of every event at exactly t, and failure_after runs only if t reaches the
  ///    front of the queue (most certificates of a time-varying-bound pair are destroyed
  ///    long before). The events are the same, at the same exact times and in the same
  ///    order, as with the failure time computed at once (SimulatorSettings::
  ///    defer_failure_times turns this case off); only their isolating intervals may
  ///    differ in the last bits, as the failure time is then found from a later clock,
  ///    and a deferred time that falls within another failure's interval costs an exact
  ///    comparison. (A deferred certificate its structure keeps through a motion change,
  ///    Simulator::keep, has a new function positive wherever the old one was: its first
  ///    failure after the deferred time is still the new function's first failure.) The
  ///    failure time may be computed inside a handler (round_clock, when a motion
  ///    changes): a structure changes what its certificates read only after set_motion,
  ///    as the motion-change protocol already asks.
  /// The pair certificate over time-varying bounds proves both from the bounds' closest
  /// approach (certificates/bound_separation.hpp), the plane certificate (grid faces,
  /// walls) from its quadratic's coefficients (certificates/plane_side.hpp).
  virtual double holds_before(const Root& /*now*/, double /*horizon*/) const {
    return -std::numeric_limits<double>::infinity();
  }
  /// A short name of the kind: "order", "collision"... (a string literal).
  virtual const char* kind() const = 0;
  /// Whether the structure tolerates this certificate being violated when it is created:
  /// if true (the default) it then fails at once; if false, creation throws CertificateViolated.
  virtual bool may_fail_at_birth() const { return true; }

  std::span<const BodyId> bodies() const { return {bodies_.data(), n_bodies_}; }
  /// The scheduled failure time (infinity if it never fails or is not computed yet). For
  /// a deferred certificate (holds_before), the time until which it certainly holds.
  const Root& failure_time() const { return failure_; }
  /// Queued at the time holds_before gave, its failure time not computed yet.
  bool deferred() const { return deferred_; }
  /// Dense id within the simulator (reused after destruction).
  std::uint32_t id() const { return id_; }
  /// Creation order.
  std::uint64_t sequence() const { return sequence_; }
  /// Order among certificates failing at exactly the same time: smaller first. By default
  /// the creation order (older first); a structure may set a key that depends only on the
  /// objects (set_tie_key), so that two structures processing the same physics order
  /// simultaneous events alike.
  std::uint64_t tie_key() const { return tie_key_; }
  bool alive() const { return state_ != State::destroyed; }

  /// Failures later than `t` are not queued (the certificate stays idle): its structure
  /// promises to replace it by then (Kim, Guibas, Shin, section 3.3: no candidate event
  /// later than the bound's reset). A failure whose isolating interval reaches below t
  /// is queued, so nothing is ever dropped by rounding.
  void set_horizon(double t) { horizon_ = t; }
  double horizon() const { return horizon_; }

 protected:
  /// Replaces the creation order as the tie key (call in the constructor).
  void set_tie_key(std::uint64_t key) {
    tie_key_ = key;
    custom_tie_key_ = true;
  }

 private:
  friend class Simulator;
  enum class State : std::uint8_t { pending, scheduled, idle, destroyed };

  // The flags together after the bodies (no padding between them), then the 32-bit
  // fields: 128 bytes with the vtable pointer, two cache lines (the base of every queued
  // event; issue 8).
  std::array<BodyId, max_bodies> bodies_{};
  std::uint8_t n_bodies_ = 0;
  Birth birth_ = Birth::generic;
  State state_ = State::pending;
  bool in_queue_ = false;
  bool deferred_ = false;  // queued at holds_before's time, failure time not computed
  bool newborn_ = true;  // failure time not computed yet since creation
  bool custom_tie_key_ = false;
  bool kept_ = false;  // Simulator::keep: exempt from reschedules until the next flush
  std::uint32_t id_ = 0;
  // Where this certificate's entry lies in the list of bodies_[k] (kds/body_links.hpp).
  std::array<std::uint32_t, max_bodies> link_index_{};
  std::uint64_t sequence_ = 0;
  std::uint64_t tie_key_ = 0;
  double horizon_ = std::numeric_limits<double>::infinity();
  Root failure_;
};
static_assert(alignof(CertificateBase) > BodyLink::max_position, "kds: BodyLink keeps a body's position in the low bits");
static_assert(static_cast<std::size_t>(CertificateBase::max_bodies) == BodyLink::max_position + 1, "kds: BodyLink holds every position");

/// The base class users derive from: `struct Mine : kds::Certificate<Mine> { ... }`.
template <class Derived>
class Certificate : public FunctionOf<Derived, CertificateBase> {
 public:
  using FunctionOf<Derived, CertificateBase>::FunctionOf;
};

}  // namespace kds
