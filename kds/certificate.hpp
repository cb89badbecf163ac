#pragma once
/// \file
/// Certificates: functions of time that stay positive while a fact about moving objects
/// holds, with a failure handler that repairs the structure when they fail.
///
/// To write one, derive from `kds::Certificate<YourCertificate>` and provide
///   template <class NT> kds::Polynomial<NT> function(double origin) const;  // in s = t - origin
///   void on_failure(kds::Simulator& sim) override;                         // repair
///   const char* kind() const override;                                     // "order", "collision"...
/// Certificates are created and destroyed through the simulator (`Simulator::create`,
/// `Simulator::destroy`), which owns them.

#include <array>
#include <boost/intrusive/list.hpp>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <stdexcept>

#include "kds/function.hpp"
#include "kds/root.hpp"
#include "kds/solver.hpp"

namespace kds {

/// The simulator's name for a moving object (a point, a sphere...): a dense 32-bit index.
using ObjectId = std::uint32_t;
inline constexpr ObjectId no_object = ~ObjectId{0};

class Simulator;
class CertificateBase;

/// The hook that puts a certificate in the list of each of its objects (Boost.Intrusive):
/// a motion change walks exactly that object's certificates, with no allocation.
struct ObjectLink : boost::intrusive::list_base_hook<boost::intrusive::link_mode<boost::intrusive::auto_unlink>> {
  CertificateBase* owner = nullptr;
};
using ObjectCertificateList = boost::intrusive::list<ObjectLink, boost::intrusive::constant_time_size<false>>;

class CertificateBase : public Function {
 public:
  static constexpr int max_objects = 4;

  explicit CertificateBase(std::initializer_list<ObjectId> objects) {
    if (objects.size() > max_objects) throw std::length_error("kds::Certificate: more than 4 objects");
    for (ObjectId o : objects) objects_[n_objects_++] = o;
    for (auto& l : links_) l.owner = this;
  }
  /// Certificates come from per-size free lists (kds/certificate.cpp): creating and
  /// destroying them at every event then allocates nothing once the lists are warm.
  static void* operator new(std::size_t size);
  static void operator delete(void* p, std::size_t size) noexcept;

  CertificateBase(const CertificateBase&) = delete;
  CertificateBase& operator=(const CertificateBase&) = delete;
  ~CertificateBase() override = default;

  /// Repairs the structure at the failure time. It must destroy this certificate
  /// (`sim.destroy(this)`) or reschedule it (after changing motions, `sim.motion_changed`).
  virtual void on_failure(Simulator& sim) = 0;
  /// A short name of the kind: "order", "collision"... (a string literal).
  virtual const char* kind() const = 0;
  /// Whether the structure tolerates this certificate being violated when it is created:
  /// if true (the default) it then fails at once; if false, creation throws CertificateViolated.
  virtual bool may_fail_at_birth() const { return true; }

  std::span<const ObjectId> objects() const { return {objects_.data(), n_objects_}; }
  /// The scheduled failure time (infinity if it never fails or is not computed yet).
  const Root& failure_time() const { return failure_; }
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

  std::array<ObjectId, max_objects> objects_{};
  std::uint8_t n_objects_ = 0;
  Birth birth_ = Birth::generic;
  State state_ = State::pending;
  bool in_queue_ = false;
  bool newborn_ = true;  // failure time not computed yet since creation
  std::uint32_t id_ = 0;
  std::uint64_t sequence_ = 0;
  std::uint64_t tie_key_ = 0;
  double horizon_ = std::numeric_limits<double>::infinity();
  bool custom_tie_key_ = false;
  Root failure_;
  std::array<ObjectLink, max_objects> links_;
};

/// The base class users derive from: `struct Mine : kds::Certificate<Mine> { ... }`.
template <class Derived>
class Certificate : public FunctionOf<Derived, CertificateBase> {
 public:
  using FunctionOf<Derived, CertificateBase>::FunctionOf;
};

}  // namespace kds
