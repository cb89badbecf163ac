#pragma once
/// \file
/// Event queues: scheduled certificates ordered by failure time.
///
/// Order: earlier failure time first (compared exactly, see kds/root.hpp); among exactly
/// equal times, a deferred certificate first (CertificateBase::holds_before: its time is a
/// lower bound, to be replaced by its failure time before the clock reaches it), then the
/// smaller `tie_key()` first (by default the creation order: the older
/// certificate first), then the smaller `sequence()`. This order is total and
/// deterministic: the same input gives the same event sequence.
///
/// `HeapEventQueue` is the default (an indexed 4-ary heap in one array: update and
/// erase in O(log n) through the position of each certificate, kept by id). `ReferenceEventQueue` scans a
/// vector for its minimum: slow and obviously right, the heap's test twin.

#include <cstddef>
#include <memory>

#include "kds/certificate.hpp"

namespace kds {

/// Strict order of two scheduled certificates (earlier first, then by tie key, then older first).
inline bool fires_before(const CertificateBase& a, const CertificateBase& b) {
  int c = compare(a.failure_time(), b.failure_time());
  if (c != 0) return c < 0;
  if (a.deferred() != b.deferred()) return a.deferred();
  if (a.tie_key() != b.tie_key()) return a.tie_key() < b.tie_key();
  return a.sequence() < b.sequence();
}

class EventQueue {
 public:
  virtual ~EventQueue() = default;
  virtual void push(CertificateBase* c) = 0;
  /// push() for a certificate that fires before every queued one (the caller knows it):
  /// no comparison, so nothing can throw (Simulator::round_clock).
  virtual void push_first(CertificateBase* c) = 0;
  /// The failure time of c changed.
  virtual void update(CertificateBase* c) = 0;
  virtual void erase(CertificateBase* c) = 0;
  /// The first certificate to fail, or nullptr if the queue is empty.
  virtual CertificateBase* top() const = 0;
  virtual void pop() = 0;
  virtual std::size_t size() const = 0;
  bool empty() const { return size() == 0; }
  /// For audits and tests: whether the queue's own bookkeeping holds (for the heap: each
  /// entry where its index says, a copy of its certificate's failure time, no entry firing
  /// before its parent). Linear in the size; may compare exactly.
  virtual bool consistent() const = 0;
  /// Room for every certificate of id below `ids` to be queued at once: the queue's own
  /// arrays then never grow (the simulator makes room when it hands out a new id).
  /// A comparison may still allocate (the exact path) and throw: every operation then
  /// leaves the queue as it was.
  virtual void reserve(std::size_t ids) = 0;
};

enum class QueueKind { heap, reference };

std::unique_ptr<EventQueue> make_event_queue(QueueKind kind);

}  // namespace kds
