#pragma once
/// \file
/// The simulator: the clock, the bodies, the certificates and the event loop.
///
/// The event loop is `step()`, one named function per stage (docs/architecture.md uses
/// the same words): **pop** the earliest event, **advance** the clock, **validate** it,
/// **process** it (the certificate's failure handler repairs its structure),
/// **reschedule** the certificates that changed, **observe** (statistics, observers, audit).

#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "kds/bodies.hpp"
#include "kds/certificate.hpp"
#include "kds/config.hpp"
#include "kds/event_queue.hpp"
#include "kds/huge_pages.hpp"
#include "kds/observer.hpp"
#include "kds/statistics.hpp"
#include "kds/structure.hpp"

namespace kds {

struct SimulatorSettings {
  Exactness exactness = Exactness::filtered;
  QueueKind queue = QueueKind::heap;
  /// Audit every attached structure and every certificate after each event and each
  /// run_until (slow: for tests and the validating build, CMake option
  /// KDS_VALIDATING_BUILD, where it is on by default).
  bool audit = config::validating_build;
  /// The most events processed at one instant (one exact time, or a time rounding has
  /// already passed): `max_events_at_one_instant + max_events_at_one_instant_per_body *`
  /// (live bodies). One more and step() throws NoProgress naming the bodies involved;
  /// both 0: no bound. Simultaneous events are finite in a sound model (n touching equal
  /// spheres in a row collide at most n (n - 1) / 2 times at one instant), but a chain of
  /// touching spheres from wall to wall collides forever without the clock moving
  /// (docs/architecture.md, section 2).
  std::uint64_t max_events_at_one_instant = 10'000;
  std::uint64_t max_events_at_one_instant_per_body = 1'000;
  /// Queue a certificate at the time its kind proves it holds until
  /// (CertificateBase::holds_before), and compute its failure time only when that time
  /// reaches the front of the queue. The same events at the same exact times, in the same
  /// order, either way (their isolating intervals may differ in the last bits: docs/
  /// architecture.md, section 4); off, every failure time is computed when its
  /// certificate is created or changed.
  bool defer_failure_times = true;
};

class Simulator {
 public:
  explicit Simulator(SimulatorSettings settings = {});
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  const SimulatorSettings& settings() const { return settings_; }
  Exactness exactness() const { return settings_.exactness; }

  // ---- Time ----
  /// The current time: the time of the last event, or the last run_until target.
  const Root& now() const { return now_; }
  /// A double within the current time's isolating interval (for output only).
  double now_approx() const { return now_.approx(); }
  /// Fixes the current time's exact value, and that of every queued copy of it (the
  /// failure times of certificates violated at birth at this instant), while their source
  /// still computes it: call it before changing data that the certificate whose failure is
  /// the clock reads (`Order::pin_clock_if_reading` does, for keys). Renewing or
  /// rescheduling that certificate pins by itself.
  void pin_clock() const;
  /// Moves the clock to a double >= the current time and returns it. Motions change at
  /// such a time (the event time rounded up to a representable one); Bodies::set_motion
  /// calls it. Every queued event at or before the rounded time is moved to it: events
  /// that round to the same double are processed together there, in tie-key order.
  double round_clock();

  // ---- Bodies ----
  /// The moving bodies every structure of this simulator shares (kds/bodies.hpp): insert,
  /// erase, set_motion (the motion-change protocol), observers.
  Bodies& bodies() { return bodies_; }
  const Bodies& bodies() const { return bodies_; }
  /// Throws InvalidInput naming "`what` `body`" unless the motion start `t` is at or after
  /// now (the message is built only then: this runs at every motion change).
  void check_motion_start(double t, std::string_view what, std::uint32_t body) const;

  // ---- Certificates ----
  /// Creates a certificate; its failure time is computed in the reschedule step (or at
  /// the next flush()). If it is violated now, it fails now, unless its kind forbids
  /// that (may_fail_at_birth() == false), and then flush() throws CertificateViolated.
  template <class C, class... Args>
  C* create(Args&&... args) {
    return create_with<C>(Birth::generic, std::forward<Args>(args)...);
  }
  /// Creates a certificate that vanishes now and is positive just after (kds/solver.hpp).
  template <class C, class... Args>
  C* create_vanishing_now(Args&&... args) {
    return create_with<C>(Birth::vanishes_now, std::forward<Args>(args)...);
  }
  /// Unschedules and releases a certificate (its memory lives until the clock moves on).
  void destroy(CertificateBase* c);
  /// Recomputes the failure time of c (its function changed, or it must fire again later).
  void reschedule(CertificateBase* c);
  /// Exempts c from the reschedules of the motion changes that follow, up to the next
  /// flush: its structure has proven that what c's schedule says still holds of its new
  /// function, at every time from now on. That is, c is idle (no failure up to its
  /// horizon) or deferred (none before its queued time), and the new function is positive
  /// wherever the old one was (the collision world's bound restarted inside the old one:
  /// every proof over the larger bound holds of the smaller). Returns false, and changes
  /// nothing, when c's schedule is one that needs its function: a computed failure time
  /// (the queue may compare its exact value), a failure time not computed yet, the
  /// clock's own root, or the failure being processed; the caller then reschedules or
  /// renews it as usual.
  bool keep(CertificateBase* c);
  /// Gives a live certificate new data, as if it were destroyed and a new one created
  /// with `bodies` (it gets a new creation order and tie key, and its failure time is
  /// computed in the reschedule step with `birth`), but keeps its memory and id and moves
  /// only the body links that differ. `change()` updates the certificate's own data (what
  /// its function reads); it runs after the old failure time has left the queue. A
  /// structure whose certificates slide along (the sorted list's neighbours of a swap)
  /// saves an allocation, a destruction and most of the body bookkeeping per event.
  /// Renewing the certificate whose failure is the current time costs an exact root
  /// computation (the clock must keep the old function's value): recreate that one.
  template <class Change>
  void renew(CertificateBase* c, const BodyList& bodies, Change&& change, Birth birth = Birth::generic) {
    begin_renewal(c, bodies, false);
    change();
    end_renewal(c, birth);
  }
  /// renew() in two halves, for a structure whose certificate must leave the queue before
  /// the data its function reads changes (a motion: the queue may still compare its old
  /// failure time), and gets its new data afterwards. Between the halves the certificate
  /// is neither queued nor pending; it may be destroyed instead of ended.
  void begin_renew(CertificateBase* c, const BodyList& bodies) { begin_renewal(c, bodies, false); }
  void end_renew(CertificateBase* c, Birth birth = Birth::generic) { end_renewal(c, birth); }
  /// renew() for a change that exactly negates the certificate's function (the sorted
  /// list's swap: upper - lower becomes lower - upper). The roots stay the same, so the
  /// clock may go on computing its exact value from c: the certificate that just failed
  /// is renewed without pinning the clock, where renew() would cost an exact root and
  /// destroy and create an allocation and the body bookkeeping. A change that does not
  /// negate the function breaks exactness: use renew().
  template <class Change>
  void renew_negated(CertificateBase* c, const BodyList& bodies, Change&& change, Birth birth = Birth::generic) {
    begin_renewal(c, bodies, true);
    change();
    end_renewal(c, birth);
  }
  std::size_t certificate_count() const { return live_certificates_; }
  /// Calls f(const CertificateBase&) for every live certificate.
  template <class F>
  void for_each_certificate(F&& f) const {
    for (const auto& c : slots_)
      if (c && c->alive()) f(*c);
  }
  /// Computes the failure times of certificates created or changed since the last event.
  void flush();

  // ---- Running ----
  /// Processes the next event. Returns false if there is none. Throws NoProgress, before
  /// taking the event, if it would exceed SimulatorSettings::max_events_at_one_instant.
  bool step();
  /// Processes every event at or before t, then sets the clock to t.
  void run_until(double t);
  /// The time of the next event (infinity if none).
  Root next_event_time();
  /// A double strictly after the current time and strictly before the next event and
  /// `limit`, where nothing is in flux (for audits, probes and tests); nullopt when no
  /// double lies between them. Without a next event or limit: one unit of time later.
  std::optional<double> time_between_events(double limit = std::numeric_limits<double>::infinity());
  std::size_t pending_events() const { return queue_->size(); }

  // ---- Structures, observers, audit, statistics ----
  void attach(Structure& s);
  void detach(Structure& s);
  void add_observer(Observer& o);
  void remove_observer(Observer& o);
  /// Audits every structure and certificate at a double strictly between now and the next
  /// event. Throws AuditFailure. Returns false if no such double exists (skipped).
  bool audit();
  /// Structures call this when the attribute they maintain changes (a swap, a new
  /// winner): the denominator of the efficiency criterion.
  void note_external_event() { ++stats_.external_events; }
  /// Statistics so far (solver counters are those of this simulator's lifetime).
  const Statistics& statistics();

 private:
  template <class C, class... Args>
  C* create_with(Birth birth, Args&&... args) {
    auto owned = std::make_unique<C>(std::forward<Args>(args)...);
    C* c = owned.get();
    c->birth_ = birth;
    adopt(std::move(owned));
    return c;
  }
  void adopt(std::unique_ptr<CertificateBase> c);
  void begin_renewal(CertificateBase* c, const BodyList& bodies, bool roots_kept);
  // c leaves kept_ (destroyed, renewed, its deferred failure time computed).
  void unkeep(CertificateBase* c) {
    if (c->kept_) [[unlikely]]
      forget_kept(c);
  }
  void forget_kept(CertificateBase* c);
  [[gnu::noinline]] void end_keeping();  // the flush clears kept_
  [[gnu::noinline]] void flush_pending();  // flush() with something to do
  /// Room in every array of the simulator for room_ more certificates through their whole
  /// lives (scheduled, renewed, rescheduled, kept, destroyed): only a creation makes the
  /// arrays grow, before it changes anything. (A growth that failed in the middle of an
  /// operation could leave a live certificate never scheduled.)
  [[gnu::cold]] void make_room();
  void end_renewal(CertificateBase* c, Birth birth);
  void mark_pending(CertificateBase* c);
  /// Puts c in the list of its k-th body (kds/body_links.hpp), or takes it out: the last
  /// entry of the list moves into its place.
  void link(CertificateBase* c, std::size_t k) {
    CertificateList& list = bodies_.list(c->bodies_[k]);
    c->link_index_[k] = static_cast<std::uint32_t>(list.size());
    list.push_back(BodyLink(c, k));
  }
  void unlink(CertificateBase* c, std::size_t k) {
    CertificateList& list = bodies_.list(c->bodies_[k]);
    const std::uint32_t i = c->link_index_[k];
    const BodyLink last = list.back();
    list.pop_back();
    if (i == list.size()) return;  // it was the last
    list[i] = last;
    last.owner()->link_index_[last.position()] = i;
  }
  /// begin_renewal's way back when a list could not grow at position `failed`: the
  /// certificate's entries as they were before it.
  [[gnu::cold]] void undo_relink(CertificateBase* c, const std::array<BodyId, CertificateBase::max_bodies>& old,
                                 std::size_t old_n, std::size_t new_n, std::size_t failed);
  /// Throws AuditFailure unless the bodies' lists and the certificates' link indices agree.
  void audit_links() const;
  void set_now(const Root& t);
  void touch() { ++touched_in_event_; }

  /// The queue's first certificate once no deferred one is ahead of it (their failure
  /// times computed at the current time and requeued); nullptr if the queue is empty.
  CertificateBase* front();
  // The named steps of the event loop.
  CertificateBase* pop();
  void check_progress(const CertificateBase& next);
  void advance(const Root& t);
  void validate(const CertificateBase& c) const;
  void process(CertificateBase& c);
  void reschedule_changed();
  void observe(const char* kind, const BodyList& bodies, bool exact);

  SimulatorSettings settings_;
  Root now_ = Root::at(0.0);
  std::unique_ptr<EventQueue> queue_;
  Bodies bodies_;
  LargeVector<std::unique_ptr<CertificateBase>> slots_;  // indexed by certificate id (kds/huge_pages.hpp)
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::unique_ptr<CertificateBase>> graveyard_;  // destroyed, kept while now_ may refer to them
  std::vector<CertificateBase*> pending_;
  const CertificateBase* failing_ = nullptr;  // the certificate whose failure is being processed
  std::vector<CertificateBase*> kept_;  // exempt from reschedules until the next flush (keep)
  std::vector<CertificateBase*> rounded_;      // round_clock: events moved to the rounded time
  // Certificates whose failure time is a copy of the clock that was not pinned yet (its
  // exact value computed from the clock's source): pin_clock shares the clock's exact
  // value with them. Emptied when the clock moves.
  std::vector<CertificateBase*> clock_copies_;
  void note_clock_copy(CertificateBase* c, const Root& f);
  std::size_t live_certificates_ = 0;
  std::size_t room_ = 0;  // creations before make_room must run again
  std::uint64_t next_sequence_ = 0;
  std::uint32_t touched_in_event_ = 0;
  std::uint64_t events_at_instant_ = 0;  // events processed at the clock's current instant
  std::vector<BodyId> bodies_at_instant_;  // bodies of the last of them, for NoProgress
  std::vector<const char*> kinds_at_instant_;  // ... and their kinds
  std::vector<Structure*> structures_;
  std::vector<Observer*> observers_;
  Statistics stats_;
  std::vector<std::pair<const char*, std::size_t>> kind_slots_;  // a kind's address -> its index in events_by_kind
  SolverCounters solver_at_start_;
};

}  // namespace kds
