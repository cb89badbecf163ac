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
/// time in a later one (the bin is the floor of a rounded, monotonic product), so the
/// heap's first event is the queue's.
///
/// A ring of `bins` lists covers the bins after the current one; an id further ahead
/// waits in an overflow list, which is walked again when the current bin reaches the
/// earliest bin it may hold (a lower bound, kept as ids join it).
///
/// Times sparser or more spread than the width was chosen for must not make it walk:
/// - a bitmap of the ring's non-empty bins (and one of its non-zero words) takes the
///   current bin to the next one holding ids without visiting the empty ones between (a
///   bin emptied by remove() keeps its bit until advance() finds it empty);
/// - when the ring is empty and ids wait in the overflow, the bins are chosen again from
///   their times (origin at the earliest, width so that about half of them, or half a
///   ring of them, fall in the ring). Each such walk of the overflow moves at least half
///   of it, or half a ring, into the ring, where it must be taken out before the next:
///   O(1) amortized per id, where walking the overflow at every pass of the ring was
///   quadratic for times spread over many orders of magnitude.
/// Bin numbers change then (current() and bin() with them); a time in an earlier bin is
/// still earlier than every time in a later one.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kds/huge_pages.hpp"

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
    set_width(width);
    std::size_t b = 16;
    while (b < bins) b *= 2;
    mask_ = b - 1;
    head_.assign(b, none);
    occupied_.assign((b + 63) / 64, 0);
    occupied_words_.assign((occupied_.size() + 63) / 64, 0);
    links_.assign(n, Link{});
    overflow_head_ = none;
    overflow_min_ = far;
    current_ = 0;
    ring_count_ = overflow_count_ = 0;
    visits_ = 0;
  }

  /// The bin of time t (`far` beyond the numbered range, and for +infinity).
  Bin bin(double t) const {
    // A product by the width's reciprocal, not a quotient: a division was on the path of
    // every reschedule. Rounded, it is still monotonic in t, which is all the order needs.
    const double x = std::floor((t - origin_) * per_width_);
    if (!(x < 0x1p60)) return far;
    return x < -0x1p60 ? -far : static_cast<Bin>(x);
  }
  Bin current() const { return current_; }
  double width() const { return width_; }
  bool holds(Id id) const { return links_[id].slot != none; }
  std::size_t size() const { return ring_count_ + overflow_count_; }
  /// Bins looked at by advance() since reset() (for tests of its work: the empty bins it
  /// skips are not looked at).
  std::uint64_t visits() const { return visits_; }

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
    Link& l = links_[id];
    const Id s = l.slot;
    Id& head = s == overflow_slot ? overflow_head_ : head_[s];
    if (l.prev == none) head = l.next;
    else links_[l.prev].next = l.next;
    if (l.next != none) links_[l.next].prev = l.prev;
    l.slot = none;
    if (s == overflow_slot) {
      --overflow_count_;
    } else {
      --ring_count_;  // its bit stays (cleared when advance finds the bin empty): no work here
    }
  }

  /// Moves the current bin on to the next one that holds ids and appends them to `out`
  /// (they leave the calendar); false when it holds none. `time_of(id)` is an id's
  /// queued time (for the overflow's ids, binned again as the ring reaches them).
  template <class TimeOf>
  bool advance(std::vector<Id>& out, TimeOf&& time_of) {
    while (size() > 0) {
      ++visits_;
      // Nothing in the ring: bins chosen again from the overflow's times (or, if none of
      // them is finite, a jump to its earliest possible bin).
      if (ring_count_ == 0 && !rewidth(time_of)) current_ = std::max(current_, overflow_min_ - 1);
      // The next bin holding ids in the ring, but not past the earliest the overflow may hold.
      current_ = std::min(next_ring_bin(), overflow_min_);
      if (current_ >= overflow_min_) rebin_overflow(time_of);
      const std::size_t slot = static_cast<std::size_t>(current_ & static_cast<Bin>(mask_));
      Id& head = head_[slot];
      if (head == none) {  // emptied by remove() since its bit was set
        unmark(slot);
        continue;
      }
      for (Id id = head; id != none; id = links_[id].next) {
        out.push_back(id);
        links_[id].slot = none;
        --ring_count_;
      }
      head = none;
      unmark(slot);
      return true;
    }
    return false;
  }

  /// An id of the next bin advance() would take, if that is a bin of the ring that still
  /// holds ids, else none: a hint for its user to request the next event's records early
  /// (the bin's other ids, and any id added before then, may come first).
  Id peek_next() const {
    const Bin k = next_ring_bin();
    if (k >= overflow_min_ || k == far) return none;
    return head_[static_cast<std::size_t>(k & static_cast<Bin>(mask_))];
  }

  /// Asks the memory for what add() and remove() of `id` read first (its links).
  void request(Id id) const { __builtin_prefetch(&links_[id]); }

  /// For audits: calls f(id) for every id held.
  template <class F>
  void for_each(F&& f) const {
    for (Id id = 0; id < links_.size(); ++id)
      if (links_[id].slot != none) f(id);
  }

 private:
  static constexpr Id overflow_slot = none - 1;

  static constexpr std::uint64_t bit(std::size_t i) { return std::uint64_t{1} << i; }
  void mark(std::size_t slot) {
    std::uint64_t& w = occupied_[slot >> 6];
    if (w == 0) occupied_words_[slot >> 12] |= bit((slot >> 6) & 63);
    w |= bit(slot & 63);
  }
  void unmark(std::size_t slot) {
    std::uint64_t& w = occupied_[slot >> 6];
    w &= ~bit(slot & 63);
    if (w == 0) occupied_words_[slot >> 12] &= ~bit((slot >> 6) & 63);
  }
  /// The first non-empty ring slot at or after `from`, or the ring's size.
  std::size_t next_occupied(std::size_t from) const {
    const std::size_t ring = mask_ + 1;
    if (from >= ring) return ring;
    const std::size_t word = from >> 6;
    if (const std::uint64_t w = occupied_[word] & (~std::uint64_t{0} << (from & 63))) return (word << 6) + std::countr_zero(w);
    const std::size_t after = word + 1;
    for (std::size_t g = after >> 6; g < occupied_words_.size(); ++g) {
      std::uint64_t m = occupied_words_[g];
      if (g == after >> 6) m &= ~std::uint64_t{0} << (after & 63);
      if (m != 0) {
        const std::size_t w = (g << 6) + static_cast<std::size_t>(std::countr_zero(m));
        return (w << 6) + static_cast<std::size_t>(std::countr_zero(occupied_[w]));
      }
    }
    return ring;
  }
  /// The first bin after the current one that holds ids in the ring (`far` if none).
  Bin next_ring_bin() const {
    if (ring_count_ == 0) return far;
    const std::size_t ring = mask_ + 1, start = static_cast<std::size_t>((current_ + 1) & static_cast<Bin>(mask_));
    std::size_t q = next_occupied(start);
    if (q == ring) q = next_occupied(0);  // wrapped round the ring
    if (q == ring) return far;            // (not reached: ring_count_ > 0 marks a slot)
    return current_ + 1 + static_cast<Bin>((q - start) & mask_);
  }
  /// With the ring empty: origin and width chosen again from the overflow's finite times
  /// (origin at the earliest, width so that min(k, half a ring) of them fall in the first
  /// bins of the ring), every id binned again, current() just before bin 0. False (and
  /// nothing changed) when no time is finite.
  template <class TimeOf>
  bool rewidth(TimeOf&& time_of) {
    times_.clear();
    for (Id id = overflow_head_; id != none; id = links_[id].next)
      if (const double t = time_of(id); std::isfinite(t)) times_.push_back(t);
    if (times_.empty()) return false;
    const double earliest = *std::min_element(times_.begin(), times_.end());
    const std::size_t m = std::min(times_.size(), (mask_ + 1) / 2);
    std::nth_element(times_.begin(), times_.begin() + static_cast<std::ptrdiff_t>(m - 1), times_.end());
    const double w = (times_[m - 1] - earliest) / static_cast<double>(m);
    origin_ = earliest;
    if (w > 0 && std::isfinite(w)) set_width(w);
    current_ = -1;  // every time is at or after the origin: in bin 0 or later
    rebin_overflow(time_of);
    return true;
  }

  void link(Id id, Id slot, Id& head) {
    if (head == none && slot != overflow_slot) mark(slot);
    links_[id] = Link{head, none, slot};
    if (head != none) links_[head].prev = id;
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
      const Id next = links_[id].next;
      add(id, std::max(bin(time_of(id)), current_));
      id = next;
    }
  }

  void set_width(double w) {
    width_ = w;
    // A subnormal width's reciprocal overflows; the largest double keeps bin(origin) = 0
    // where infinity would make it NaN (and bins only coarser, still monotonic).
    per_width_ = std::min(1 / w, std::numeric_limits<double>::max());
  }

  double origin_ = 0, width_ = 1, per_width_ = 1;
  Bin current_ = 0;
  Bin overflow_min_ = far;
  std::size_t mask_ = 15;
  // The arrays an event reads at random places are LargeVectors (kds/huge_pages.hpp).
  LargeVector<Id> head_;               // by ring slot: the first id of its bin
  LargeVector<std::uint64_t> occupied_;        // by ring slot, a bit: its bin holds ids
  std::vector<std::uint64_t> occupied_words_;  // by word of occupied_, a bit: it is not zero
  std::vector<double> times_;                  // rewidth's scratch
  // By id: its list links and its slot (none: not held), side by side, so that adding or
  // removing an id touches one line of its own (two for 2 ids in 16, whose 12 bytes
  // straddle a line) where three arrays took three.
  struct Link {
    Id next = none, prev = none, slot = none;
  };
  LargeVector<Link> links_;
  Id overflow_head_ = none;
  std::size_t ring_count_ = 0, overflow_count_ = 0;
  std::uint64_t visits_ = 0;
};

}  // namespace kds
