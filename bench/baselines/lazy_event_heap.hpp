#pragma once
/// \file
/// The event queue of both plain sphere codes: one binary heap of every predicted event,
/// stale ones recognised lazily by per-sphere counters (an event records its spheres'
/// counters when it is predicted, and is valid while they still match), and purged when the
/// heap has doubled since the last purge: amortised O(1) per push, and memory bounded by
/// about twice the live events.

#include <algorithm>
#include <cstdint>

#include "kds/huge_pages.hpp"

namespace kds::baseline {

/// A predicted event of sphere `a`: with sphere `other`, or (other >= own_event) one of
/// `a`'s own (a wall, a cell face, ...: the codes number them from own_event on).
struct PredictedEvent {
  static constexpr std::uint32_t own_event = 0xFFFFFF00u;
  double time;
  std::uint32_t a, other;
  std::uint32_t count_a, count_other;
};

class LazyEventHeap {
 public:
  /// `spheres`: how many the code has (the heap is not purged below 8 per sphere).
  explicit LazyEventHeap(std::size_t spheres = 0) : floor_(8 * spheres + 64) {}

  /// Pushes e; purges the stale events first when the heap has doubled. `counter(i)` is
  /// sphere i's counter now.
  template <class Counter>
  void push(const PredictedEvent& e, Counter counter) {
    heap_.push_back(e);
    std::push_heap(heap_.begin(), heap_.end(), later);
    if (heap_.size() >= clean_at_) {
      std::erase_if(heap_, [&](const PredictedEvent& x) { return !valid(x, counter); });
      std::make_heap(heap_.begin(), heap_.end(), later);
      clean_at_ = std::max(2 * heap_.size(), floor_);
    }
  }
  /// Pops the earliest valid event into `out` (skipping and counting stale ones in
  /// `stale`); false when none is left.
  template <class Counter>
  bool pop(PredictedEvent& out, Counter counter, std::uint64_t& stale) {
    while (!heap_.empty()) {
      out = heap_.front();
      std::pop_heap(heap_.begin(), heap_.end(), later);
      heap_.pop_back();
      if (valid(out, counter)) return true;
      ++stale;
    }
    return false;
  }
  /// Events queued now, stale ones included.
  std::size_t size() const { return heap_.size(); }

 private:
  template <class Counter>
  static bool valid(const PredictedEvent& e, Counter counter) {
    return e.count_a == counter(e.a) && (e.other >= PredictedEvent::own_event || e.count_other == counter(e.other));
  }
  /// The heap's order: the earliest first, simultaneous events by sphere, then by partner.
  static bool later(const PredictedEvent& x, const PredictedEvent& y) {
    if (x.time != y.time) return x.time > y.time;
    if (x.a != y.a) return x.a > y.a;
    return x.other > y.other;
  }

  kds::LargeVector<PredictedEvent> heap_;  // on huge pages once large, as kds's queues
  std::size_t floor_;
  std::size_t clean_at_ = 0;
};

}  // namespace kds::baseline
