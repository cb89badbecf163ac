#pragma once
/// \file
/// The later part of an event queue keyed by small integer ids (one queued time per id):
/// ids whose queued times lie beyond the current bin, in bins of equal width by time (a
/// calendar queue, as event-driven molecular dynamics codes keep their events: Paul, "A
/// complexity O(1) priority queue for event driven molecular dynamics simulations",
/// J. Comput. Phys. 221, 2007). Its users (the hard-sphere world, one id per sphere; the
/// linear sorted list, one id per adjacent pair) keep the ids of the current bin (and of
/// earlier ones) in a heap, which orders them exactly; this keeps the rest unordered:
/// adding and removing an id is O(1), and when the heap has no event left its user takes
/// the next non-empty bin's ids into it. A time in an earlier bin is earlier than every
/// time in a later one (the bin is the floor of a rounded, monotonic quotient), so the
/// heap's first event is the queue's.
///
/// A ring of `bins` lists covers the bins after the current one; an id further ahead
/// waits in an overflow list, which is walked again when the current bin reaches the
/// earliest bin it may hold (a lower bound, kept as ids join it).

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace kds {

class Calendar {
 public:
  using Id = std::uint32_t;
  using Bin = std::int64_t;
  static constexpr Id none = ~Id{0};
  /// Beyond every bin the ring can reach (and for times too far to number).
  static constexpr Bin far = std::numeric_limits<Bin>::max() / 4;

  /// Empty, for ids 0 .. n - 1: bin b covers [origin + b width, origin + (b + 1) width),
  /// the current bin is the one of `origin`. `bins` is rounded up to a power of two.
  void reset(std::size_t n, double origin, double width, std::size_t bins) {
    origin_ = origin;
    width_ = width;
    std::size_t b = 16;
    while (b < bins) b *= 2;
    mask_ = b - 1;
    head_.assign(b, none);
    next_.assign(n, none);
    prev_.assign(n, none);
    slot_.assign(n, none);
    overflow_head_ = none;
    overflow_min_ = far;
    current_ = 0;
    ring_count_ = overflow_count_ = 0;
  }

  /// The bin of time t (`far` beyond the numbered range, and for +infinity).
  Bin bin(double t) const {
    const double x = std::floor((t - origin_) / width_);
    if (!(x < 0x1p60)) return far;
    return x < -0x1p60 ? -far : static_cast<Bin>(x);
  }
  Bin current() const { return current_; }
  double width() const { return width_; }
  bool holds(Id id) const { return slot_[id] != none; }
  std::size_t size() const { return ring_count_ + overflow_count_; }

  /// Adds an id whose time lies in bin k, after the current one (holds(id) is false).
  void add(Id id, Bin k) {
    if (k < current_ + static_cast<Bin>(mask_ + 1)) {
      link(id, static_cast<Id>(k & static_cast<Bin>(mask_)), head_[k & static_cast<Bin>(mask_)]);
      ++ring_count_;
    } else {
      link(id, overflow_slot, overflow_head_);
      overflow_min_ = std::min(overflow_min_, k);
      ++overflow_count_;
    }
  }
  void remove(Id id) {
    const Id s = slot_[id];
    Id& head = s == overflow_slot ? overflow_head_ : head_[s];
    if (prev_[id] == none) head = next_[id];
    else next_[prev_[id]] = next_[id];
    if (next_[id] != none) prev_[next_[id]] = prev_[id];
    slot_[id] = none;
    if (s == overflow_slot) --overflow_count_;
    else --ring_count_;
  }

  /// Moves the current bin on to the next one that holds ids and appends them to `out`
  /// (they leave the calendar); false when it holds none. `time_of(id)` is an id's
  /// queued time (for the overflow's ids, binned again as the ring reaches them).
  template <class TimeOf>
  bool advance(std::vector<Id>& out, TimeOf&& time_of) {
    while (size() > 0) {
      // Nothing in the ring: jump to the overflow's earliest possible bin.
      if (ring_count_ == 0) current_ = std::max(current_, overflow_min_ - 1);
      ++current_;
      if (current_ >= overflow_min_) rebin_overflow(time_of);
      Id& head = head_[current_ & static_cast<Bin>(mask_)];
      if (head == none) continue;
      for (Id id = head; id != none; id = next_[id]) {
        out.push_back(id);
        slot_[id] = none;
        --ring_count_;
      }
      head = none;
      return true;
    }
    return false;
  }

  /// For audits: calls f(id) for every id held.
  template <class F>
  void for_each(F&& f) const {
    for (Id id = 0; id < slot_.size(); ++id)
      if (slot_[id] != none) f(id);
  }

 private:
  static constexpr Id overflow_slot = none - 1;

  void link(Id id, Id slot, Id& head) {
    slot_[id] = slot;
    prev_[id] = none;
    next_[id] = head;
    if (head != none) prev_[head] = id;
    head = id;
  }
  /// The overflow's ids whose bins the ring now reaches move into it; the bound on the
  /// bins left in the overflow becomes exact.
  template <class TimeOf>
  void rebin_overflow(TimeOf&& time_of) {
    Id id = overflow_head_;
    overflow_head_ = none;
    overflow_count_ = 0;
    overflow_min_ = far;
    while (id != none) {
      const Id next = next_[id];
      add(id, std::max(bin(time_of(id)), current_));
      id = next;
    }
  }

  double origin_ = 0, width_ = 1;
  Bin current_ = 0;
  Bin overflow_min_ = far;
  std::size_t mask_ = 15;
  std::vector<Id> head_;               // by ring slot: the first id of its bin
  std::vector<Id> next_, prev_, slot_;  // by id: its list links and its slot (none: not held)
  Id overflow_head_ = none;
  std::size_t ring_count_ = 0, overflow_count_ = 0;
};

}  // namespace kds
