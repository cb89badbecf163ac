#include "structures/sorted_list/linear_sorted_list.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "kds/double_double_ball.hpp"
#include "kds/dyadic.hpp"
#include "kds/errors.hpp"

namespace kds {

namespace {

constexpr double never = std::numeric_limits<double>::infinity();

/// The sign of (r1.x - l1.x)(l2.v - r2.v) - (r2.x - l2.x)(l1.v - r1.v), exactly. With both
/// velocity differences positive it is the sign of crossing(l1, r1) - crossing(l2, r2),
/// the two pairs' crossing times (x_r - x_l) / (v_l - v_r). A double-double ball decides
/// it unless the two crossings agree to about 100 bits; exact dyadic arithmetic then.
int cross_sign(const LinearPoint& l1, const LinearPoint& r1, const LinearPoint& l2, const LinearPoint& r2,
               LinearSortedListStats& stats) {
  ++stats.comparisons_undecided;
  using B = DoubleDoubleBall;
  const B n1 = B::difference(r1.x, l1.x), d2 = B::difference(l2.v, r2.v);
  const B n2 = B::difference(r2.x, l2.x), d1 = B::difference(l1.v, r1.v);
  // Exact ties (integer scenes: many pairs crossing at one instant) leave the ball undecided,
  // its radius never being 0, and each cost a dyadic evaluation. Where the four differences
  // are doubles (no tails) and both products exact as p + fma error (finite and at least
  // 2^-960, so the error does not underflow; or a factor 0), equal products are a tie.
  if (n1.tail() == 0 && d2.tail() == 0 && n2.tail() == 0 && d1.tail() == 0) {
    const double a = n1.head(), b = d2.head(), c = n2.head(), d = d1.head();
    const double p1 = a * b, p2 = c * d;
    if (p1 == p2 && ((std::isfinite(p1) && std::fabs(p1) >= 0x1p-960 && std::fma(a, b, -p1) == std::fma(c, d, -p2)) ||
                     ((a == 0 || b == 0) && (c == 0 || d == 0))))
      return 0;
  }
  const B ball = n1 * d2 - n2 * d1;
  if (const Sign s = ball.sign(); s != Sign::unknown) return static_cast<int>(s);
  ++stats.comparisons_exact;
  const Dyadic exact = (Dyadic(r1.x) - Dyadic(l1.x)) * (Dyadic(l2.v) - Dyadic(r2.v)) -
                       (Dyadic(r2.x) - Dyadic(l2.x)) * (Dyadic(l1.v) - Dyadic(r1.v));
  return exact.sign();
}

std::string point_name(std::size_t i) { return "LinearSortedList: point " + std::to_string(i); }

}  // namespace

LinearSortedList::LinearSortedList(std::span<const LinearPoint> points, double bin_width) {
  if (points.size() >= none) throw InvalidInput("LinearSortedList: too many points");
  if (!(bin_width >= 0) || !std::isfinite(bin_width))
    throw InvalidInput("LinearSortedList: the bin width " + std::to_string(bin_width) + " is negative or not finite");
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!std::isfinite(points[i].x)) throw InvalidInput(point_name(i) + " has a position that is not finite");
    if (!std::isfinite(points[i].v)) throw InvalidInput(point_name(i) + " has a velocity that is not finite");
  }
  const std::size_t n = points.size();
  // The order just after time 0: by position, then the slower first (it falls behind),
  // then as given (points at one position and velocity stay together forever).
  id_.resize(n);
  std::iota(id_.begin(), id_.end(), PointId{0});
  std::stable_sort(id_.begin(), id_.end(), [&](PointId a, PointId b) {
    return points[a].x < points[b].x || (points[a].x == points[b].x && points[a].v < points[b].v);
  });
  point_.resize(n);
  rank_.resize(n);
  for (std::size_t r = 0; r < n; ++r) {
    point_[r] = points[id_[r]];
    rank_[id_[r]] = static_cast<std::uint32_t>(r);
  }

  // The calendar's bin width: as many bins as slots over twice the median crossing time,
  // so that a bin holds about one crossing when they come at the rate of the first ones.
  // (A median, not a mean: pairs at nearly equal velocities cross very late.)
  const std::size_t slots = n > 0 ? n - 1 : 0;
  slot_.resize(slots);
  std::vector<double> finite;
  for (std::size_t s = 0; s < slots; ++s) {
    slot_[s] = crossing(s);
    slot_[s].where = none;
    if (slot_[s].hi < never) finite.push_back(slot_[s].hi);
  }
  double width = bin_width > 0 ? bin_width : 1;
  if (bin_width == 0 && !finite.empty()) {
    auto mid = finite.begin() + static_cast<std::ptrdiff_t>(finite.size() / 2);
    std::nth_element(finite.begin(), mid, finite.end());
    if (*mid > 0) width = 2 * *mid / static_cast<double>(std::max<std::size_t>(slots, 16));
  }
  calendar_.reset(slots, 0, width, std::max<std::size_t>(slots, 16));
  // About 100 bytes per point: below 2^15 points the records stay in the caches (the
  // requests cost 1.07x the time at 10^3 points, gained nothing at 10^4, and took 0.74x
  // at 10^5 and 0.70x at 10^6; docs/benchmarks/event-cost.md, fourteenth stop).
  request_next_ = n >= (std::size_t{1} << 15);
  heap_.reserve(64);
  for (std::size_t s = 0; s < slots; ++s) {
    const Slot c = slot_[s];
    slot_[s].where = none;
    if (c.lo == never) continue;
    const Calendar::Bin k = calendar_.bin(c.lo);
    if (k <= calendar_.current()) heap_push(static_cast<std::uint32_t>(s));
    else calendar_.add(static_cast<Calendar::Id>(s), k);
  }
}

std::size_t LinearSortedList::rank(PointId p) const {
  if (p >= rank_.size()) throw InvalidInput(point_name(p) + " is not in the list (it has " + std::to_string(size()) + " points)");
  return rank_[p];
}

double LinearSortedList::position(PointId p, double t) const {
  const LinearPoint& q = point(p);
  return q.x + q.v * t;
}

// ---------------------------------------------------------------- crossing times

LinearSortedList::Slot LinearSortedList::crossing(std::size_t s) const {
  const LinearPoint& l = point_[s];
  const LinearPoint& r = point_[s + 1];
  const double d = l.v - r.v;  // its sign is exact: the left point is faster
  if (!(d > 0)) return Slot{never, never, none};
  ++stats_.failure_times;
  const double n = r.x - l.x;
  double q = n / d;
  if (!std::isfinite(n) || !std::isfinite(d)) {
    // A difference beyond the doubles (coordinates near the largest double): the same
    // quotient from the halves of what overflowed, so that the interval stays as tight as
    // elsewhere (a loose one would put now() at +inf after the swap, and hold back every
    // other crossing until the calendar is empty). An overflowed difference is at least
    // 2^1023, its operands at least 2^970, so halving them is exact; halving the quotient
    // (d overflowed) may round once more in the subnormal range, by 2^-1075 at most.
    const double nh = std::isfinite(n) ? n : r.x * 0.5 - l.x * 0.5;
    const double dh = std::isfinite(d) ? d : l.v * 0.5 - r.v * 0.5;
    q = nh / dh;
    if (!std::isfinite(n) && std::isfinite(d)) q *= 2;
    if (std::isfinite(n) && !std::isfinite(d)) q *= 0.5;
  }
  if (!std::isfinite(q)) return Slot{0x1p1023, never, none};  // n / d beyond the doubles
  // Error bound: n and d are within 2^-53 (relative) of the exact differences (exact
  // when subnormal), the quotient within 2^-53 relative or 2^-1075 absolute (subnormal),
  // so |q - exact| <= 3.02 2^-53 |q| + 2^-1074 (with the halves above, 2^-1075 more at
  // most). The margin is 8 2^-53 |q| + 2^-1072, and rounding q -/+ margin to nearest moves
  // it by at most 2^-53 |q| (1 + 2^-50).
  const double e = std::fabs(q) * 0x1p-50 + 0x1p-1072;
  return Slot{q - e, q + e, none};
}

int LinearSortedList::compare_crossings(std::uint32_t a, std::uint32_t b) const {
  return cross_sign(point_[a], point_[a + 1], point_[b], point_[b + 1], stats_);
}

int LinearSortedList::compare_crossing_to(std::uint32_t s, double t) const {
  const Slot& x = slot_[s];
  if (x.hi < t) return -1;
  if (x.lo > t) return 1;
  // t is the crossing of (0, 1) and (t, 0).
  return cross_sign(point_[s], point_[s + 1], LinearPoint{0, 1}, LinearPoint{t, 0}, stats_);
}

bool LinearSortedList::before(std::uint32_t a, std::uint32_t b) const {
  const Slot& x = slot_[a];
  const Slot& y = slot_[b];
  if (x.hi < y.lo) return true;
  if (y.hi < x.lo) return false;
  const int c = compare_crossings(a, b);
  return c < 0 || (c == 0 && a < b);
}

// ---------------------------------------------------------------- the queue

void LinearSortedList::heap_push(std::uint32_t s) {
  slot_[s].where = static_cast<std::uint32_t>(heap_.size());
  heap_.push_back(s);
  sift_up(heap_.size() - 1);
}

void LinearSortedList::heap_erase(std::uint32_t s) {
  const std::size_t pos = slot_[s].where;
  slot_[s].where = none;
  const std::uint32_t last = heap_.back();
  heap_.pop_back();
  if (last == s) return;
  heap_[pos] = last;
  slot_[last].where = static_cast<std::uint32_t>(pos);
  sift_up(pos);
  sift_down(slot_[last].where);
}

void LinearSortedList::sift_up(std::size_t pos) {
  const std::uint32_t s = heap_[pos];
  while (pos > 0) {
    const std::size_t parent = (pos - 1) / 2;
    if (!before(s, heap_[parent])) break;
    heap_[pos] = heap_[parent];
    slot_[heap_[pos]].where = static_cast<std::uint32_t>(pos);
    pos = parent;
  }
  heap_[pos] = s;
  slot_[s].where = static_cast<std::uint32_t>(pos);
}

void LinearSortedList::sift_down(std::size_t pos) {
  const std::uint32_t s = heap_[pos];
  const std::size_t n = heap_.size();
  for (;;) {
    std::size_t child = 2 * pos + 1;
    if (child >= n) break;
    if (child + 1 < n && before(heap_[child + 1], heap_[child])) ++child;
    if (!before(heap_[child], s)) break;
    heap_[pos] = heap_[child];
    slot_[heap_[pos]].where = static_cast<std::uint32_t>(pos);
    pos = child;
  }
  heap_[pos] = s;
  slot_[s].where = static_cast<std::uint32_t>(pos);
}

void LinearSortedList::reschedule(std::size_t s) {
  Slot& x = slot_[s];
  const Slot c = crossing(s);
  x.lo = c.lo;
  x.hi = c.hi;
  if (x.lo == never) return;
  const Calendar::Bin k = calendar_.bin(x.lo);
  if (k <= calendar_.current()) heap_push(static_cast<std::uint32_t>(s));
  else calendar_.add(static_cast<Calendar::Id>(s), k);
}

std::uint32_t LinearSortedList::next_slot() {
  for (;;) {
    // The heap's top is the earliest crossing of all once no slot left in the calendar
    // can cross before it: every slot there has lo in a later bin than the current one,
    // so it suffices that the top's hi lies in the current bin.
    if (!heap_.empty() &&
        (calendar_.size() == 0 || calendar_.bin(slot_[heap_[0]].hi) <= calendar_.current()))
      return heap_[0];
    if (!calendar_.advance(pulled_, [this](Calendar::Id id) { return slot_[id].lo; })) return none;
    ++stats_.bins;
    for (const Calendar::Id id : pulled_) heap_push(id);
    pulled_.clear();
  }
}

// Always inlined: a separate function whose only effects are prefetches counts as pure to
// GCC, and its calls, whose results are unused, were removed (a build that did so lost
// the whole gain).
[[gnu::always_inline]] inline void LinearSortedList::request_next(std::uint32_t s) const {
  // The next swap is most likely the heap's next slot, or, with the heap holding s alone
  // (a bin holds about one crossing), the first of the calendar's next bin. Its records
  // are first touches beyond the caches at large n: asked for now, they arrive while
  // this swap runs. A hint only: a wrong guess costs a few loads.
  // (The heap's two children compared by their intervals' lower ends alone: a guess needs
  // no exact comparison, and leaves the counts of those alone.)
  const std::uint32_t next = heap_.size() > 1 ? heap_[heap_.size() > 2 && slot_[heap_[2]].lo < slot_[heap_[1]].lo ? 2 : 1]
                                              : calendar_.peek_next();
  if (next == none || next == s) return;
  // Its points, ids and slots (ranks next - 1 .. next + 2, slots next - 1 .. next + 1),
  // and the calendar's links of the two neighbouring slots, which it takes out.
  const std::size_t lo = next > 0 ? next - 1 : next, hi = std::min<std::size_t>(next + 2, point_.size() - 1);
  __builtin_prefetch(&point_[lo]);
  __builtin_prefetch(&point_[hi]);
  __builtin_prefetch(&id_[next]);
  __builtin_prefetch(&slot_[lo]);
  __builtin_prefetch(&slot_[std::min<std::size_t>(next + 1, slot_.size() - 1)]);
  calendar_.request(static_cast<Calendar::Id>(lo));
  if (next + 1 < slot_.size()) calendar_.request(static_cast<Calendar::Id>(next + 1));
}

void LinearSortedList::swap_at(std::uint32_t s) {
  const std::size_t n = point_.size();
  if (request_next_) request_next(s);
  // Take the three slots whose points change out of the queue first: the heap compares
  // queued slots by their points where intervals overlap, so none may sit there with
  // points that no longer match its interval.
  const Slot fired = slot_[s];
  heap_erase(s);
  for (const std::size_t t : {static_cast<std::size_t>(s) - 1, static_cast<std::size_t>(s) + 1}) {
    if (t >= n - 1) continue;  // s - 1 below 0 wraps around
    if (slot_[t].where != none) heap_erase(static_cast<std::uint32_t>(t));
    else if (calendar_.holds(static_cast<Calendar::Id>(t))) calendar_.remove(static_cast<Calendar::Id>(t));
  }
  now_pair_ = {point_[s], point_[s + 1]};
  // hi, not a point inside the interval: now() must not lie before the exact time of the
  // swap, or run_until(now()) would be taken without an exact check and the list would
  // claim the order after the swap at a time before it.
  now_ = std::max(now_, fired.hi);
  std::swap(point_[s], point_[s + 1]);
  const PointId left = id_[s], right = id_[s + 1];
  id_[s] = right;
  id_[s + 1] = left;
  rank_[right] = s;
  rank_[left] = s + 1;
  reschedule(s);
  if (s > 0) reschedule(s - 1);
  if (s + 2 < n) reschedule(s + 1);
  ++stats_.swaps;
  in_callback_ = true;
  struct Done {
    bool& flag;
    ~Done() { flag = false; }
  } done{in_callback_};
  swapped_.emit(left, right);
}

// ---------------------------------------------------------------- running

void LinearSortedList::require_not_in_callback(const char* operation) const {
  if (in_callback_)
    throw InvalidInput(std::string("LinearSortedList::") + operation + " from inside its own on_swap callback");
}

bool LinearSortedList::step() {
  require_not_in_callback("step");
  const std::uint32_t s = next_slot();
  if (s == none) return false;
  swap_at(s);
  return true;
}

void LinearSortedList::run_until(double t) {
  require_not_in_callback("run_until");
  if (std::isnan(t)) throw InvalidInput("LinearSortedList::run_until: the time is NaN");
  // An infinite target has no exact comparison (it is no dyadic number): crossings beyond
  // the doubles would be skipped and the clock could never be compared again. step() until
  // it returns false runs every swap.
  if (std::isinf(t)) throw InvalidInput("LinearSortedList::run_until: the time is infinite");
  // now() is at or just after the exact time of the last swap (or is the last target): an
  // earlier t is too early only if it lies before that exact time.
  if (t < now_ && cross_sign(now_pair_[0], now_pair_[1], LinearPoint{0, 1}, LinearPoint{t, 0}, stats_) > 0)
    throw InvalidInput("LinearSortedList::run_until: " + std::to_string(t) + " is before the current time " +
                       std::to_string(now_));
  for (;;) {
    const std::uint32_t s = next_slot();
    if (s == none || compare_crossing_to(s, t) > 0) break;
    swap_at(s);
  }
  now_ = t;
  now_pair_ = {LinearPoint{0, 1}, LinearPoint{t, 0}};
}

// ---------------------------------------------------------------- audit

void LinearSortedList::audit() const {
  const std::size_t n = point_.size();
  auto fail = [](const std::string& what) { throw AuditFailure("LinearSortedList audit: " + what); };
  for (std::size_t r = 0; r < n; ++r)
    if (id_[r] >= n || rank_[id_[r]] != r) fail("rank " + std::to_string(r) + " and its point disagree");
  const LinearPoint& nl = now_pair_[0];
  const LinearPoint& nr = now_pair_[1];
  std::size_t queued = 0;
  for (std::size_t s = 0; s + 1 < n; ++s) {
    const LinearPoint& a = point_[s];
    const LinearPoint& b = point_[s + 1];
    const std::string name = "slot " + std::to_string(s) + " (points " + std::to_string(id_[s]) + ", " +
                             std::to_string(id_[s + 1]) + ")";
    // x_b - x_a at the current time T = (nr.x - nl.x) / (nl.v - nr.v): the sign of
    // (b.x - a.x)(nl.v - nr.v) + (b.v - a.v)(nr.x - nl.x), which is -cross_sign(now, (a, b)).
    const int gap = -cross_sign(nl, nr, a, b, stats_);
    if (gap < 0) fail(name + " is out of order at the current time");
    const Slot c = crossing(s);
    const Slot& x = slot_[s];
    if (c.lo != x.lo || c.hi != x.hi) fail(name + ": its interval is not its recomputation");
    if (gap == 0 && a.v > b.v && x.lo == never) fail(name + " touches now with the left point faster, not queued");
    if (x.lo == never) {
      if (x.where != none || calendar_.holds(static_cast<Calendar::Id>(s))) fail(name + " never crosses but is queued");
      continue;
    }
    ++queued;
    // The exact crossing lies in the interval, and not before now. hi is +inf where the
    // crossing lies beyond the doubles or the differences overflowed: no upper end to check
    // (and no dyadic number for it).
    if (cross_sign(a, b, LinearPoint{0, 1}, LinearPoint{x.lo, 0}, stats_) < 0 ||
        (x.hi < never && cross_sign(a, b, LinearPoint{0, 1}, LinearPoint{x.hi, 0}, stats_) > 0))
      fail(name + ": the exact crossing lies outside its interval");
    if (cross_sign(a, b, nl, nr, stats_) < 0) fail(name + " crosses before the current time");
    const bool in_heap = x.where != none;
    if (in_heap == calendar_.holds(static_cast<Calendar::Id>(s))) fail(name + " is in the heap and the calendar, or in neither");
    if (in_heap && (x.where >= heap_.size() || heap_[x.where] != s)) fail(name + ": wrong heap position");
    if (in_heap != (calendar_.bin(x.lo) <= calendar_.current())) fail(name + " is not where its bin says");
  }
  if (queued != heap_.size() + calendar_.size()) fail("the queue holds slots that do not cross");
  for (std::size_t i = 1; i < heap_.size(); ++i)
    if (before(heap_[i], heap_[(i - 1) / 2])) fail("the heap is out of order at position " + std::to_string(i));
}

}  // namespace kds
