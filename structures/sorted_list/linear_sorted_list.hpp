#pragma once
/// \file
/// The kinetic sorted list of points moving linearly, x_i(t) = x_i + v_i t, on its own
/// event queue: the specialised path of the sorted list (issue 8), as HardSphereWorld is
/// the collision world's. Exact, like SortedList: every swap happens in the order of the
/// exact crossing times, simultaneous crossings included.
///
/// SortedList (sorted_list.hpp) orders any keys of the simulator's shared bodies, whose
/// motions may change at any time, through generic certificates in the simulator's queue.
/// Here the motions are fixed and linear, and the list keeps everything itself, in arrays
/// by rank and by adjacent pair (slot):
/// - the points by rank (position at time 0, velocity), swapped in place: a swap at
///   slot s touches ranks s - 1 .. s + 2, which lie side by side in memory;
/// - each slot's failure time, the crossing of its two points: t = (x_r - x_l) /
///   (v_l - v_r) when the left one is faster, as one rounded division with a proven error
///   bound (the interval [lo, hi] holds the exact quotient);
/// - the queue: a heap of the slots whose lo falls in the current bin of a calendar
///   (kds/calendar.hpp), the others in the calendar's bins. The heap orders the slots by
///   their intervals, and where two intervals overlap by the exact quotients (exact ties
///   of exact double products seen directly, a double-double filter, then exact dyadic
///   arithmetic); equal crossings by slot.
///
/// A swap reschedules three slots; the swapped pair (now moving apart) needs no division.
/// From 2^15 points up, each swap first asks the memory for the records of the swap likely
/// to come next (the heap's next slot, or the first of the calendar's next bin), which at
/// large n are cache misses: they arrive while the swap runs.
/// Only the order of the crossings needs exactness; the clock (now()) is a double at or
/// a few ulps after the exact time of the last swap, or the last run_until target.
///
/// Points at one position at time 0 are ordered as just after 0 (the slower first; at
/// equal velocities, as given), so no swap happens at time 0; several points meeting at
/// one instant swap pair by pair at that instant, as SortedList does, until the order is
/// the one just after it. See structures/sorted_list/README.md.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "kds/calendar.hpp"
#include "kds/huge_pages.hpp"
#include "kds/signal.hpp"

namespace kds {

/// A point of a LinearSortedList: its position at time 0 and its velocity.
struct LinearPoint {
  double x = 0;
  double v = 0;
};

/// What a LinearSortedList counted since it was built.
struct LinearSortedListStats {
  std::uint64_t swaps = 0;
  std::uint64_t failure_times = 0;         ///< slot failure times computed (divisions; moving-apart pairs not counted)
  std::uint64_t comparisons_undecided = 0;  ///< crossings whose intervals overlapped: decided beyond doubles
  std::uint64_t comparisons_exact = 0;      ///< ... of which by exact dyadic arithmetic (not the exact ties the tie test sees)
  std::uint64_t bins = 0;                   ///< calendar bins taken into the heap
};

class LinearSortedList {
 public:
  using PointId = std::uint32_t;

  /// The points, by id (their index in `points`), at time 0. InvalidInput naming the point
  /// if a position or velocity is NaN or infinite. `bin_width`: the calendar's bins (0:
  /// chosen from the first crossings, about one crossing per bin); any positive width
  /// gives the same swaps, and tests use tiny and huge ones. It is only the first choice:
  /// the calendar chooses its bins again whenever its ring runs empty (kds/calendar.hpp).
  /// InvalidInput if negative or not finite.
  explicit LinearSortedList(std::span<const LinearPoint> points, double bin_width = 0);

  std::size_t size() const { return id_.size(); }
  /// The time of the last swap (a double at or a few ulps after its exact time, never
  /// before it, so that run_until(now()) is valid), or the last run_until target.
  double now() const { return now_; }
  /// Processes the next swap; false if no pair will ever cross.
  bool step();
  /// Processes every swap at or before t (compared exactly), then sets the clock to t.
  /// InvalidInput if t is NaN, infinite or before the exact time of the last swap (or
  /// the last target).
  void run_until(double t);

  /// The point ids in increasing order of position just after now.
  std::span<const PointId> order() const { return id_; }
  /// Index of a point in order(). InvalidInput for an unknown id.
  std::size_t rank(PointId p) const;
  const LinearPoint& point(PointId p) const { return rank_point(rank(p)); }
  /// x + v t, rounded.
  double position(PointId p, double t) const;

  /// Every swap: `left` was just before `right` and is now just after it. The list is
  /// repaired when it runs (order, ranks, queue); a callback may read the list but must
  /// not step or run it (InvalidInput).
  Signal<PointId, PointId>& on_swap() { return swapped_; }
  const LinearSortedListStats& stats() const { return stats_; }

  /// Checks, exactly: ranks and order agree; every adjacent pair is in order at the
  /// current time (the exact time of the last swap, or the last target); a pair that
  /// touches there with the left point faster is queued to cross then; every slot's
  /// interval is its recomputation and holds the exact crossing; the queue holds exactly
  /// the slots that cross, in the heap or the calendar as their bins say, in heap order;
  /// no queued crossing lies before the current time. O(n). Throws AuditFailure.
  void audit() const;

 private:
  struct Slot {
    double lo = 0, hi = 0;  // the crossing lies in [lo, hi]; lo = +inf: never
    std::uint32_t where = 0;  // heap position, or none
  };
  static constexpr std::uint32_t none = ~std::uint32_t{0};

  const LinearPoint& rank_point(std::size_t r) const { return point_[r]; }
  /// The crossing interval of slot s from its points (lo = hi = +inf if they never cross).
  Slot crossing(std::size_t s) const;
  /// Recomputes slot s and queues it where its bin says.
  void reschedule(std::size_t s);
  /// The slot whose crossing is exactly the earliest of all (the heap's top once no bin of
  /// the calendar can hold an earlier one); none if nothing crosses.
  std::uint32_t next_slot();
  void swap_at(std::uint32_t s);
  /// Asks the memory for the records of the swap likely to come after s's.
  void request_next(std::uint32_t s) const;
  /// Whether slot a crosses before slot b (exactly; equal crossings by slot).
  bool before(std::uint32_t a, std::uint32_t b) const;
  /// The sign of crossing(a) - crossing(b), exactly.
  int compare_crossings(std::uint32_t a, std::uint32_t b) const;
  /// The sign of crossing(s) - t, exactly.
  int compare_crossing_to(std::uint32_t s, double t) const;
  void heap_push(std::uint32_t s);
  void heap_erase(std::uint32_t s);
  void sift_up(std::size_t pos);
  void sift_down(std::size_t pos);
  void require_not_in_callback(const char* operation) const;

  // What a swap reads and writes at random places is in LargeVectors (kds/huge_pages.hpp).
  LargeVector<LinearPoint> point_;  // by rank
  LargeVector<PointId> id_;         // by rank
  LargeVector<std::uint32_t> rank_;  // by id
  LargeVector<Slot> slot_;           // slot s: ranks s and s + 1
  std::vector<std::uint32_t> heap_;  // slots of the current bin (or earlier), heap-ordered by before()
  Calendar calendar_;                // the other crossing slots, by the bin of lo
  std::vector<Calendar::Id> pulled_;
  bool request_next_ = false;  // request_next() at each swap: only where the records outgrow the caches
  double now_ = 0;
  // The exact current time, as the crossing of two points l, r: (x_r - x_l) / (v_l - v_r);
  // a run_until target t is the crossing of (0, 1) and (t, 0).
  std::array<LinearPoint, 2> now_pair_{LinearPoint{0, 1}, LinearPoint{0, 0}};
  Signal<PointId, PointId> swapped_;
  mutable LinearSortedListStats stats_;  // comparisons count from the const ones too
  bool in_callback_ = false;
};

}  // namespace kds
