#include "kds/simulator.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

#include "kds/errors.hpp"

namespace kds {
namespace {

std::string describe(const CertificateBase& c) {
  std::ostringstream os;
  os << "certificate '" << c.kind() << "' on bodies [";
  auto bodies = c.bodies();
  for (std::size_t i = 0; i < bodies.size(); ++i) os << (i ? ", " : "") << bodies[i];
  os << ']';
  return os.str();
}

SolverCounters operator-(const SolverCounters& a, const SolverCounters& b) {
  SolverCounters d;
  d.failure_computations = a.failure_computations - b.failure_computations;
  d.failure_exact = a.failure_exact - b.failure_exact;
  d.sign_queries = a.sign_queries - b.sign_queries;
  d.sign_exact = a.sign_exact - b.sign_exact;
  d.comparisons = a.comparisons - b.comparisons;
  d.comparisons_exact = a.comparisons_exact - b.comparisons_exact;
  d.comparisons_same_line = a.comparisons_same_line - b.comparisons_same_line;
  d.failure_same_roots = a.failure_same_roots - b.failure_same_roots;
  d.exact_roots_built = a.exact_roots_built - b.exact_roots_built;
  d.exact_linear = a.exact_linear - b.exact_linear;
  d.failure_apart = a.failure_apart - b.failure_apart;
  return d;
}

}  // namespace

Simulator::Simulator(SimulatorSettings settings)
    : settings_(settings), queue_(make_event_queue(settings.queue)), bodies_(*this), solver_at_start_(solver_counters()) {}

// (The bodies' lists hold plain entries: certificates and lists go away in any order.)
Simulator::~Simulator() = default;

// ---------------------------------------------------------------- time

void Simulator::set_now(const Root& t) {
  now_ = t;
  clock_copies_.clear();
  // Nothing refers to the certificates destroyed at the previous time any more: every
  // root equal to it has been processed.
  graveyard_.clear();
  bodies_.recycle();
}

double Simulator::round_clock() {
  if (now_.is_point()) return now_.lo();
  // The smallest double >= the exact time: a function of the time alone, not of how its
  // isolating interval was found, so that equal histories round equally.
  const double t = ceil_to_double(now_);
  // The clock's resolution is a double: every queued event at or before the rounded time
  // (the other failures at exactly the old time, the certificates violated at birth there,
  // anything between it and the rounded time) now fails at the rounded time, where tie
  // keys order them. Left at their exact times, they would all come before the events that
  // the motion changes at this rounded time create, whatever their tie keys.
  // (front(): a deferred certificate's time is only a bound; its failure time decides. It
  // is computed from the exact time, before the clock moves: the certificate holds from
  // there to its deferred time, which may be the rounded time itself.)
  rounded_.clear();
  try {
    for (CertificateBase* c = front(); c != nullptr && compare(c->failure_, t) <= 0; c = front()) {
      if (rounded_.size() == rounded_.capacity()) rounded_.reserve(2 * rounded_.size() + 16);
      queue_->pop();  // may throw, and then leaves c queued
      rounded_.push_back(c);  // (within its capacity)
    }
  } catch (...) {
    // (memory exhausted, or a deferred failure time that could not be computed): the
    // events taken out go back as they were, in the order they came out, each ahead of
    // the queue (push_first: no comparison).
    for (std::size_t k = rounded_.size(); k-- > 0;) queue_->push_first(rounded_[k]);
    throw;
  }
  now_ = Root::at(t);
  clock_copies_.clear();  // every copy of the old clock is queued at or before t: moved to t
  // They fire before everything left in the queue (all after t), among themselves in the
  // order of their tie keys, then of their sequence numbers (none is deferred: front()):
  // pushed last first, each ahead of the queue, without a comparison that could throw
  // once the clock has moved.
  std::sort(rounded_.begin(), rounded_.end(), [](const CertificateBase* a, const CertificateBase* b) {
    return a->tie_key_ != b->tie_key_ ? a->tie_key_ < b->tie_key_ : a->sequence_ < b->sequence_;
  });
  for (std::size_t k = rounded_.size(); k-- > 0;) {
    rounded_[k]->failure_ = now_;
    queue_->push_first(rounded_[k]);
  }
  return t;
}

void Simulator::pin_clock() const {
  now_.pin();
  for (CertificateBase* c : clock_copies_) c->failure_.share_exact(now_);
}

void Simulator::note_clock_copy(CertificateBase* c, const Root& f) {
  // A copy of the clock (failure_after returned `now`: violated at birth) taken before the
  // clock was pinned: its exact value, if ever needed, would be computed from the clock's
  // source, which may change at this instant, and its source is read as the clock's
  // function until then (Root::pinned). (A copy of a pinned clock shares its exact value
  // and its pin already.)
  // (Called with c's new failure time f before c takes it: if the list cannot grow, c
  // is as it was.)
  if (f.source() != nullptr && f.source() == now_.source() && !now_.pinned() && f.lo() == now_.lo() &&
      f.hi() == now_.hi())
    clock_copies_.push_back(c);
}

void Simulator::check_motion_start(double t, std::string_view what, std::uint32_t body) const {
  if (compare(now_, t) > 0) {
    std::ostringstream os;
    os.precision(17);
    os << what << ' ' << body << ": motion replaced at t = " << t << ", before the current time " << now_approx();
    throw InvalidInput(os.str());
  }
}

// ---------------------------------------------------------------- certificates

void Simulator::adopt(std::unique_ptr<CertificateBase> owned) {
  CertificateBase* c = owned.get();
  for (std::size_t i = 0; i < c->n_bodies_; ++i)
    if (!bodies_.contains(c->bodies_[i])) bodies_.require(c->bodies_[i], "creating " + describe(*c));  // throws
  // What may fail for want of memory comes before any change: room for one more
  // certificate in every array of the simulator its life may add it to, then the entries
  // in its bodies' lists (a list that cannot grow takes the entries made back out).
  if (room_ == 0) [[unlikely]]
    make_room();
  std::size_t linked = 0;
  try {
    for (; linked < c->n_bodies_; ++linked) link(c, linked);
  } catch (...) {
    while (linked > 0) unlink(c, --linked);
    throw;
  }
  std::uint32_t id;
  if (!free_slots_.empty()) {
    id = free_slots_.back();
    free_slots_.pop_back();
  } else {
    id = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();  // within its capacity
  }
  --room_;
  c->id_ = id;
  c->sequence_ = next_sequence_++;
  if (!c->custom_tie_key_) c->tie_key_ = c->sequence_;
  slots_[id] = std::move(owned);
  ++live_certificates_;
  ++stats_.certificates_created;
  stats_.certificates_live_max = std::max<std::uint64_t>(stats_.certificates_live_max, live_certificates_);
  touch();
  c->state_ = CertificateBase::State::idle;
  mark_pending(c);
}

void Simulator::make_room() {
  // Capacities, each grown geometrically; nothing observable changes, so a failure
  // here leaves the simulator as it was. Each slack below falls by at most one per
  // creation, and never otherwise (so room_, their minimum counted down by adopt, is a
  // lower bound of each; for pending_, the slack that falls by one is its capacity less
  // the live certificates and the dead entries, of which the one computed here is a
  // lower bound):
  // - free ids: those in free_slots_ plus the slots not made yet (slots_.capacity());
  //   every id below it may be free at once (free_slots_) or queued at once (the queue);
  // - pending_ holds each live certificate at most once (mark_pending) plus some
  //   destroyed while pending: room for its size plus the live certificates;
  // - kept_ holds live certificates, each once;
  // - graveyard_ gains one entry per destruction, which takes a live certificate.
  const auto grow = [](auto& v, std::size_t need) {
    if (v.capacity() < need) v.reserve(std::max<std::size_t>({need, 2 * v.capacity(), 64}));
  };
  // Room for `margin` creations at least, so that steady churn at a high-water mark does
  // not come here at every creation.
  const std::size_t live = live_certificates_, margin = std::max<std::size_t>(64, live / 8);
  if (free_slots_.size() + (slots_.capacity() - slots_.size()) < margin) grow(slots_, slots_.size() + margin);
  grow(free_slots_, slots_.capacity());
  queue_->reserve(slots_.capacity());
  grow(pending_, pending_.size() + live + margin);
  grow(graveyard_, graveyard_.size() + live + margin);
  grow(kept_, live + margin);
  room_ = std::min({free_slots_.size() + (slots_.capacity() - slots_.size()), pending_.capacity() - pending_.size() - live,
                    graveyard_.capacity() - graveyard_.size() - live, kept_.capacity() - live});
}

void Simulator::mark_pending(CertificateBase* c) {
  if (c->state_ == CertificateBase::State::pending) return;
  c->state_ = CertificateBase::State::pending;
  pending_.push_back(c);  // within its capacity (make_room)
}

void Simulator::destroy(CertificateBase* c) {
  if (c == nullptr || !c->alive()) throw std::logic_error("kds::Simulator::destroy: certificate already destroyed");
  if (c->in_queue_) queue_->erase(c);
  c->in_queue_ = false;
  c->state_ = CertificateBase::State::destroyed;
  unkeep(c);  // the clock may move on (set_now) before the next flush clears kept_
  for (std::size_t i = 0; i < c->n_bodies_; ++i) unlink(c, i);
  // Keep the memory until the clock moves on: the current time may be a root of c.
  graveyard_.push_back(std::move(slots_[c->id_]));
  free_slots_.push_back(c->id_);
  --live_certificates_;
  ++stats_.certificates_destroyed;
  touch();
}

bool Simulator::keep(CertificateBase* c) {
  if (c == nullptr || !c->alive()) throw std::logic_error("kds::Simulator::keep: certificate destroyed");
  const bool idle = c->state_ == CertificateBase::State::idle;
  const bool deferred = c->state_ == CertificateBase::State::scheduled && c->deferred_;
  if ((!idle && !deferred) || now_.source() == c || c == failing_) return false;
  if (!c->kept_) {
    kept_.push_back(c);
    ++stats_.certificates_kept;
  }
  c->kept_ = true;
  return true;
}

void Simulator::forget_kept(CertificateBase* c) {
  kept_.erase(std::find(kept_.begin(), kept_.end(), c));
  c->kept_ = false;
}

void Simulator::reschedule(CertificateBase* c) {
  if (!c->alive()) throw std::logic_error("kds::Simulator::reschedule: " + describe(*c) + " is destroyed");
  // Kept: its structure proved its schedule holds of the new function (keep), as long as
  // that schedule is still a proof. round_clock, at the start of a motion change, may
  // have computed a deferred failure time since, from the old function: that one goes.
  if (c->kept_ && (c->state_ == CertificateBase::State::idle || c->deferred_)) [[unlikely]]
    return;
  // The current time may be a root of c's old function: fix its exact value first.
  if (now_.source() == c) pin_clock();
  // Its scheduled root belongs to the old function: take it out of the queue now, so
  // that no comparison meets it before flush() computes the new one. (The queue's
  // erase never compares the erased entry: the last entry takes its place.) Both may
  // throw (the exact path allocates): before anything else changes.
  if (c->in_queue_) {
    queue_->erase(c);
    c->in_queue_ = false;
  }
  unkeep(c);
  c->failure_ = Root::infinity();
  ++stats_.certificates_rescheduled;
  touch();
  mark_pending(c);
}

void Simulator::begin_renewal(CertificateBase* c, const BodyList& bodies, bool roots_kept) {
  if (c == nullptr || !c->alive()) throw std::logic_error("kds::Simulator::renew: certificate already destroyed");
  for (BodyId b : bodies)
    if (!bodies_.contains(b)) bodies_.require(b, "renewing " + describe(*c));  // throws, nothing changed
  // The clock's exact value may still be computed from c's old function: fix it first,
  // unless the new function has the same roots (renew_negated).
  if (!roots_kept && now_.source() == c) pin_clock();
  // The entries in the bodies' lists move before anything else changes: the one step that
  // may throw (a list that cannot grow), and then undoes itself.
  if (bodies.size() == 2 && c->n_bodies_ == 2 && bodies[0] == c->bodies_[1] && bodies[1] == c->bodies_[0]) {
    // Two bodies that trade places (a sorted list's swap, renew_negated): each entry stays
    // where it is in its list and says the other position.
    const auto trade = [&] {
      bodies_.list(c->bodies_[0])[c->link_index_[0]] = BodyLink(c, 1);
      bodies_.list(c->bodies_[1])[c->link_index_[1]] = BodyLink(c, 0);
      std::swap(c->link_index_[0], c->link_index_[1]);
      std::swap(c->bodies_[0], c->bodies_[1]);
    };
    trade();
    if (c->in_queue_) {
      try {
        queue_->erase(c);  // may throw (a comparison's exact path allocates)
      } catch (...) {
        trade();
        throw;
      }
    }
  } else {
    // The bodies take the order of `bodies`, as in a new certificate (traces list them in
    // that order); an entry moves only where the body at its position changes (one of the
    // two when a sorted list's certificate slides along).
    const std::size_t old_n = c->n_bodies_, n = bodies.size();
    const std::array<BodyId, CertificateBase::max_bodies> old = c->bodies_;
    for (std::size_t k = n; k < old_n; ++k) unlink(c, k);
    std::size_t k = 0;
    try {
      for (; k < n; ++k) {
        if (k < old_n && c->bodies_[k] == bodies[k]) continue;
        if (k < old_n) unlink(c, k);
        c->bodies_[k] = bodies[k];
        link(c, k);
      }
      if (c->in_queue_) queue_->erase(c);  // may throw (then k == n)
    } catch (...) {
      undo_relink(c, old, old_n, n, k);
      throw;
    }
    c->n_bodies_ = static_cast<std::uint8_t>(n);
  }
  c->in_queue_ = false;
  unkeep(c);
}

void Simulator::undo_relink(CertificateBase* c, const std::array<BodyId, CertificateBase::max_bodies>& old,
                            std::size_t old_n, std::size_t new_n, std::size_t failed) {
  // begin_renewal stopped at position `failed` (<= new_n; new_n when the queue's erase
  // threw): before it, each position whose body changed holds its new entry; at it, the
  // old entry is out (if there was one) and the new one never went in; from new_n to
  // old_n, the old entries are out. The new entries leave,
  // then the old ones come back, to lists that have room where they left (a list never
  // shrinks its storage), so nothing here throws.
  const std::array<BodyId, CertificateBase::max_bodies> now = c->bodies_;
  const auto changed = [&](std::size_t k) { return k >= old_n || now[k] != old[k]; };
  for (std::size_t k = 0; k < failed; ++k)
    if (changed(k)) unlink(c, k);
  c->bodies_ = old;
  for (std::size_t k = 0; k < old_n; ++k)
    if (k == failed || k >= new_n || (k < failed && changed(k))) link(c, k);
}

void Simulator::end_renewal(CertificateBase* c, Birth birth) {
  c->sequence_ = next_sequence_++;
  if (!c->custom_tie_key_) c->tie_key_ = c->sequence_;
  c->failure_ = Root::infinity();
  c->birth_ = birth;
  c->newborn_ = true;
  c->horizon_ = std::numeric_limits<double>::infinity();
  ++stats_.certificates_renewed;
  // In the KDS's terms a renewal removes one certificate and adds another: two changes of
  // the certificate set, as destroy and create would count (responsiveness).
  touch();
  touch();
  mark_pending(c);
}

void Simulator::end_keeping() {
  for (CertificateBase* c : kept_) c->kept_ = false;
  kept_.clear();
}

void Simulator::flush() {
  // Called twice a step, often with nothing to do: that case first, before the registers
  // the loop needs are saved.
  if (pending_.empty() && kept_.empty()) return;
  flush_pending();
}

void Simulator::flush_pending() {
  if (!kept_.empty()) end_keeping();
  std::size_t i = 0;
  try {
    for (; i < pending_.size(); ++i) {
      CertificateBase* c = pending_[i];
      if (!c->alive()) continue;
      // For a certificate with a horizon, what its kind proves cheaply first
      // (CertificateBase::holds_before): no failure up to the horizon, or none before a
      // time at which the failure time is computed. (Not asked of the others: a virtual
      // call per failure time, on the sorted list's hot path.)
      bool deferred = false;
      Root f = [&] {
        if (c->horizon_ < std::numeric_limits<double>::infinity() && c->horizon_ > now_.hi()) {
          const double holds = c->holds_before(now_, c->horizon_);
          if (holds > c->horizon_ || holds == std::numeric_limits<double>::infinity()) return Root::infinity();
          if (settings_.defer_failure_times && holds > now_.hi()) {
            deferred = true;
            ++stats_.failures_deferred;
            return Root::at(holds);
          }
        }
        return c->failure_after(now_, c->birth_, settings_.exactness, c->horizon_);
      }();
      c->deferred_ = deferred;
      if (c->newborn_ && !c->may_fail_at_birth() && !f.is_infinite() && compare(f, now_) == 0) {
        // The error first (its message allocates): until it is made, c stays pending.
        std::ostringstream os;
        os.precision(17);
        os << describe(*c) << " is violated when created at t = " << now_approx();
        CertificateViolated violated(os.str());
        c->state_ = CertificateBase::State::idle;
        ++i;  // it leaves the list too
        throw violated;
      }
      if (!f.is_infinite() && f.lo() > c->horizon_) {
        f = Root::infinity();
        ++stats_.beyond_horizon;
      }
      note_clock_copy(c, f);
      c->failure_ = std::move(f);
      // (A pending certificate is not in the queue: created, renewed or rescheduled, it
      // left it.) The push may throw (a comparison's exact path allocates): c then
      // stays pending, as it was, but for its failure time, computed again next time.
      if (c->failure_.is_infinite()) {
        if (c->in_queue_) [[unlikely]] queue_->erase(c);
        c->in_queue_ = false;
        c->state_ = CertificateBase::State::idle;
      } else {
        if (c->in_queue_) [[unlikely]] queue_->update(c);
        else queue_->push(c);
        c->in_queue_ = true;
        c->state_ = CertificateBase::State::scheduled;
      }
      c->birth_ = Birth::generic;
      c->newborn_ = false;
    }
  } catch (...) {
    // A failure time that could not be computed (or a certificate violated at its
    // creation): the certificates scheduled before it leave the list, it and those after
    // it stay pending, so that the list holds only pending certificates (the room
    // mark_pending counts on) and the next flush takes up where this one stopped.
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(i));
    throw;
  }
  pending_.clear();
}

// ---------------------------------------------------------------- the event loop

CertificateBase* Simulator::front() {
  for (;;) {
    CertificateBase* c = queue_->top();
    if (c == nullptr || !c->deferred_) [[likely]]
      return c;
    // It holds from when it was deferred to its queued time, which is ahead of the clock
    // (no event at or after that time has been processed: it comes first at ties): its
    // function has not changed since (a change takes it out of the queue), or changed
    // only where its structure proved the new one positive wherever the old one was
    // (keep). So its first failure after the clock is the one it would have had.
    Root f = c->failure_after(now_, Birth::generic, settings_.exactness, c->horizon_);
    if (!f.is_infinite() && f.lo() > c->horizon_) {
      f = Root::infinity();
      ++stats_.beyond_horizon;
    }
    note_clock_copy(c, f);
    // If the computation, the note or the queue throws, the certificate stays deferred.
    Root deferred_time = std::move(c->failure_);
    c->failure_ = std::move(f);
    c->deferred_ = false;
    try {
      if (c->failure_.is_infinite()) queue_->erase(c);
      else queue_->update(c);
    } catch (...) {
      c->failure_ = std::move(deferred_time);
      c->deferred_ = true;
      throw;
    }
    if (c->failure_.is_infinite()) {
      c->in_queue_ = false;
      c->state_ = CertificateBase::State::idle;
    }
    unkeep(c);  // its schedule now reads its function: a motion change must reschedule it
    ++stats_.deferred_computed;
  }
}

CertificateBase* Simulator::pop() {
  CertificateBase* c = queue_->top();
  queue_->pop();
  c->in_queue_ = false;
  c->state_ = CertificateBase::State::idle;
  return c;
}

void Simulator::check_progress(const CertificateBase& next) {
  // advance() counts the events at the current instant. Near the bound, the bodies of the
  // last 64 events at this instant are kept for the message: a stalled instant repeats
  // the same few events.
  constexpr std::uint64_t kept = 64;
  const std::uint64_t bound =
      settings_.max_events_at_one_instant + settings_.max_events_at_one_instant_per_body * bodies_.size();
  if (bound == 0 || events_at_instant_ + kept < bound) return;
  if (compare(next.failure_, now_) > 0) return;  // the clock moves on: advance() starts a new count
  for (BodyId b : next.bodies()) bodies_at_instant_.push_back(b);
  if (std::find(kinds_at_instant_.begin(), kinds_at_instant_.end(), next.kind()) == kinds_at_instant_.end())
    kinds_at_instant_.push_back(next.kind());
  if (events_at_instant_ < bound) return;
  std::sort(bodies_at_instant_.begin(), bodies_at_instant_.end());
  bodies_at_instant_.erase(std::unique(bodies_at_instant_.begin(), bodies_at_instant_.end()), bodies_at_instant_.end());
  std::ostringstream os;
  os.precision(17);
  os << "no progress in time: " << events_at_instant_ << " events at t = " << now_approx()
     << " (the bound of SimulatorSettings::max_events_at_one_instant and _per_body); the last of them, of kind";
  for (std::size_t i = 0; i < kinds_at_instant_.size(); ++i) os << (i ? ", '" : " '") << kinds_at_instant_[i] << "'";
  os << ", on bodies ";
  for (std::size_t i = 0; i < bodies_at_instant_.size(); ++i) os << (i ? ", " : "") << bodies_at_instant_[i];
  throw NoProgress(os.str(), bodies_at_instant_);
}

void Simulator::advance(const Root& t) {
  ++events_at_instant_;
  int order = compare(t, now_);
  if (order > 0) {
    set_now(t);
    events_at_instant_ = 1;
    bodies_at_instant_.clear();
    kinds_at_instant_.clear();
  } else {
    // t == now (simultaneous events), or t < now after round_clock(): the clock never goes back.
    ++stats_.events_at_equal_times;
  }
}

void Simulator::validate(const CertificateBase& c) const {
  // The mutable queue removes or updates an event whenever its certificate changes, so
  // no stale event can surface; check the bookkeeping that guarantees it.
  if (!c.alive()) throw std::logic_error("kds: popped a destroyed " + describe(c));
}

void Simulator::process(CertificateBase& c) {
  const std::uint64_t sequence = c.sequence_;
  failing_ = &c;
  struct Done {
    const CertificateBase*& failing;
    ~Done() { failing = nullptr; }
  } done{failing_};
  c.on_failure(*this);
  // Renewed (a new sequence: it may be scheduled already if a callback flushed), destroyed
  // or waiting to be rescheduled: anything else would fail again at once.
  if (c.alive() && c.state_ != CertificateBase::State::pending && c.sequence_ == sequence)
    throw std::logic_error("kds: the failure handler of " + describe(c) +
                           " neither destroyed nor rescheduled it (it would fail again at once)");
}

void Simulator::reschedule_changed() { flush(); }

void Simulator::observe(const char* kind, const BodyList& bodies, bool exact) {
  ++stats_.events;
  stats_.touched_total += touched_in_event_;
  stats_.touched_max = std::max<std::uint64_t>(stats_.touched_max, touched_in_event_);
  // Kinds are string literals: found by address (one literal per kind and translation
  // unit); a new address is matched by its text once.
  auto known = std::find_if(kind_slots_.begin(), kind_slots_.end(), [&](const auto& k) { return k.first == kind; });
  if (known == kind_slots_.end()) {
    auto it = std::find_if(stats_.events_by_kind.begin(), stats_.events_by_kind.end(),
                           [&](const Statistics::KindCount& k) { return k.kind == kind; });
    if (it == stats_.events_by_kind.end()) it = stats_.events_by_kind.insert(it, {kind, 0});
    kind_slots_.emplace_back(kind, static_cast<std::size_t>(it - stats_.events_by_kind.begin()));
    known = kind_slots_.end() - 1;
  }
  ++stats_.events_by_kind[known->second].count;
  if (!observers_.empty()) {
    EventRecord record{stats_.events - 1, now_, exact, kind, bodies.view(), touched_in_event_};
    for (Observer* o : observers_) o->on_event(record);
  }
  if (settings_.audit) audit();
}

bool Simulator::step() {
  flush();
  const CertificateBase* next = front();
  if (next == nullptr) return false;
  check_progress(*next);
  CertificateBase* c = pop();
  advance(c->failure_);
  validate(*c);
  // Its time needed the exact path: computed exactly, or compared exactly with another.
  const bool exact = c->failure_.has_exact();
  touched_in_event_ = 0;
  // The handler may destroy or renew the certificate: keep what observers need.
  const char* kind = c->kind();
  BodyList bodies;
  bodies.add(c->bodies());
  process(*c);
  reschedule_changed();
  observe(kind, bodies, exact);
  return true;
}

void Simulator::run_until(double t) {
  if (compare(now_, t) > 0) {
    std::ostringstream os;
    os.precision(17);
    os << "run_until: target time " << t << " is before the current time " << now_approx();
    throw InvalidInput(os.str());
  }
  flush();
  for (CertificateBase* c = front(); c != nullptr && compare(c->failure_, t) <= 0; c = front()) step();
  if (compare(now_, t) < 0) set_now(Root::at(t));
  if (settings_.audit) audit();
}

Root Simulator::next_event_time() {
  flush();
  const CertificateBase* c = front();
  return c == nullptr ? Root::infinity() : c->failure_;
}

// ---------------------------------------------------------------- structures, observers, audit

void Simulator::attach(Structure& s) { structures_.push_back(&s); }
void Simulator::detach(Structure& s) { std::erase(structures_, &s); }
void Simulator::add_observer(Observer& o) { observers_.push_back(&o); }
void Simulator::remove_observer(Observer& o) { std::erase(observers_, &o); }

std::optional<double> Simulator::time_between_events(double limit) {
  flush();
  const CertificateBase* c = front();
  const Root next = c == nullptr ? Root::infinity() : c->failure_;
  const double a = now_.hi();
  const double b = std::min(next.is_infinite() ? std::numeric_limits<double>::infinity() : next.lo(), limit);
  if (b == std::numeric_limits<double>::infinity()) return a + std::max(1.0, std::abs(a));
  const double t = a + 0.5 * (b - a);
  if (t > a && t < b) return t;
  return std::nullopt;
}

bool Simulator::audit() {
  const std::optional<double> between = time_between_events();
  if (!between) {
    ++stats_.audits_skipped;
    return false;
  }
  const double t = *between;
  const Rational exact_t(t);
  audit_links();
  if (!queue_->consistent()) throw AuditFailure("the event queue's bookkeeping is inconsistent");
  for (const auto& c : slots_) {
    if (!c || !c->alive()) continue;
    if (sgn(c->exact_polynomial()(exact_t)) < 0) {
      std::ostringstream os;
      os.precision(17);
      os << "audit at t = " << t << ": " << describe(*c) << " is violated (scheduled to fail at "
         << c->failure_ << "): an event was missed";
      throw AuditFailure(os.str());
    }
  }
  AuditContext ctx{t};
  for (const Structure* s : structures_) s->audit(ctx);
  ++stats_.audits;
  return true;
}

void Simulator::audit_links() const {
  // Each live certificate's entries lie where it says, and the lists hold nothing else
  // (as many entries in all as there are certificate-body pairs).
  std::size_t named = 0, listed = 0;
  for (const auto& c : slots_) {
    if (!c || !c->alive()) continue;
    for (std::size_t k = 0; k < c->n_bodies_; ++k, ++named) {
      const CertificateList& list = bodies_.lists_[c->bodies_[k].index];
      if (c->link_index_[k] >= list.size() || list[c->link_index_[k]] != BodyLink(c.get(), k))
        throw AuditFailure(describe(*c) + " is not in the certificate list of its body " +
                           std::to_string(c->bodies_[k].index) + " where it says it is");
    }
  }
  bodies_.for_each([&](BodyId b) { listed += bodies_.lists_[b.index].size(); });
  if (listed != named)
    throw AuditFailure("the bodies' certificate lists hold " + std::to_string(listed) + " entries for " +
                       std::to_string(named) + " links of live certificates");
}

const Statistics& Simulator::statistics() {
  stats_.certificates_live = live_certificates_;
  stats_.solver = solver_counters() - solver_at_start_;
  return stats_;
}

}  // namespace kds
