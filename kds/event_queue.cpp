#include "kds/event_queue.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "kds/huge_pages.hpp"

namespace kds {
namespace {

/// An indexed 4-ary heap in one array. An entry is a copy of the failure time's isolating
/// interval and the certificate's id (24 bytes): most comparisons are decided by the
/// intervals without touching the certificate, and moving an entry updates its position
/// by id without touching it either (each would be a cache miss at large n). The copy may
/// be wider than the certificate's own interval after Root::tighten(), never wrong.
/// No allocation once the arrays have grown. (Boost.Heap's mutable d_ary_heap, used
/// before, allocates a std::list node per element: measured in bench/event_queue, this
/// layout costs 5-8x less on hard-sphere churn.)
class HeapEventQueue final : public EventQueue {
  static constexpr std::size_t arity = 4;
  static constexpr std::uint32_t absent = ~std::uint32_t{0};
  struct Entry {
    double lo, hi;
    std::uint32_t id;
  };

 public:
  void push(CertificateBase* c) override {
    append(c);
    std::uint64_t quick = 0;
    try {
      sift_up(heap_.size() - 1, quick);
    } catch (...) {  // (sift_up put the entry back where it started)
      heap_.pop_back();
      where_[c->id()] = absent;
      throw;
    }
    solver_counters().comparisons += quick;
  }
  void push_first(CertificateBase* c) override {
    append(c);
    // Up to the root without a comparison: each ancestor moves down one level, under its
    // old parent's place, above children that fire after it.
    std::size_t i = heap_.size() - 1;
    const Entry e = heap_[i];
    for (; i > 0; i = (i - 1) / arity) place(i, heap_[(i - 1) / arity]);
    place(0, e);
  }
  void update(CertificateBase* c) override {
    const std::size_t i = where_[c->id()];
    const Entry old = heap_[i];
    heap_[i] = entry_of(c);
    try {
      restore(i);
    } catch (...) {
      heap_[i] = old;
      throw;
    }
  }
  void erase(CertificateBase* c) override {
    const std::size_t i = where_[c->id()];
    const Entry gone = heap_[i];
    where_[c->id()] = absent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    place(i, last);
    try {
      restore(i);
    } catch (...) {  // (restore left `last` at i): everything back where it was
      heap_.push_back(last);  // within the capacity it just had
      where_[last.id] = static_cast<std::uint32_t>(heap_.size() - 1);
      place(i, gone);
      throw;
    }
  }
  CertificateBase* top() const override { return heap_.empty() ? nullptr : certificates_[heap_.front().id]; }
  void pop() override {
    erase(certificates_[heap_.front().id]);
    // The next event's certificate is read soon (its time by run_until, then its handler):
    // at large n it is a cache miss, requested now while the current event is processed
    // (its first 256 bytes: an order certificate's size).
    // (Addresses as integers: a smaller certificate ends before the last line, and a
    // pointer formed past an object's end would be undefined; a prefetch never faults.)
    if (!heap_.empty()) {
      const auto next = reinterpret_cast<std::uintptr_t>(certificates_[heap_.front().id]);
      for (std::uintptr_t line = 0; line < 4; ++line) __builtin_prefetch(reinterpret_cast<const void*>(next + 64 * line));
      // The event after it is most likely one of the new root's children: their slots
      // (certificates_ by id, read by that pop) are requested too.
      for (std::size_t c = 1; c <= arity && c < heap_.size(); ++c) __builtin_prefetch(certificates_.data() + heap_[c].id);
    }
  }
  std::size_t size() const override { return heap_.size(); }
  bool consistent() const override {
    std::size_t indexed = 0;
    for (std::uint32_t w : where_) indexed += w != absent;
    if (indexed != heap_.size()) return false;
    for (std::size_t i = 0; i < heap_.size(); ++i) {
      const Entry& e = heap_[i];
      if (e.id >= where_.size() || where_[e.id] != i || certificates_[e.id] == nullptr) return false;
      const CertificateBase& c = *certificates_[e.id];
      if (c.id() != e.id || !(e.lo <= c.failure_time().lo() && c.failure_time().hi() <= e.hi)) return false;
      if (i > 0 && fires_before(c, *certificates_[heap_[(i - 1) / arity].id])) return false;
    }
    return true;
  }
  // (push's resize stays within the capacity reserved here.)
  void reserve(std::size_t ids) override {
    heap_.reserve(ids);
    where_.reserve(ids);
    certificates_.reserve(ids);
  }

 private:
  /// c's entry at the end of the heap, where push and push_first start it.
  void append(CertificateBase* c) {
    if (c->id() >= where_.size()) {
      where_.resize(std::size_t{c->id()} + 1, absent);
      certificates_.resize(where_.size(), nullptr);
    }
    certificates_[c->id()] = c;
    heap_.push_back(entry_of(c));
  }
  static Entry entry_of(const CertificateBase* c) { return Entry{c->failure_time().lo(), c->failure_time().hi(), c->id()}; }
  /// `a` fires before `b`: decided by the copied intervals when they are apart (counted in
  /// `quick`, which is added to the solver's comparisons once per queue operation),
  /// exactly otherwise.
  bool fires_first(const Entry& a, const Entry& b, std::uint64_t& quick) const {
    if (a.hi < b.lo || b.hi < a.lo) {
      ++quick;
      return a.hi < b.lo;
    }
    return fires_before(*certificates_[a.id], *certificates_[b.id]);
  }
  /// Moves the entry at i up or down to where it belongs.
  void restore(std::size_t i) {
    std::uint64_t quick = 0;
    if (i > 0 && fires_first(heap_[i], heap_[(i - 1) / arity], quick))
      sift_up(i, quick);
    else
      sift_down(i, quick);
    solver_counters().comparisons += quick;
  }
  void place(std::size_t i, const Entry& e) {
    heap_[i] = e;
    where_[e.id] = static_cast<std::uint32_t>(i);
  }
  // A comparison may throw (the exact path allocates, and memory may be exhausted): then
  // the sifts move back what they moved, so that every operation of the queue leaves it
  // as it was (Simulator::make_room).
  void sift_up(std::size_t i, std::uint64_t& quick) {
    const std::size_t start = i;
    const Entry e = heap_[i];
    try {
      while (i > 0) {
        const std::size_t parent = (i - 1) / arity;
        if (!fires_first(e, heap_[parent], quick)) break;
        place(i, heap_[parent]);
        i = parent;
      }
    } catch (...) {
      undo_sift_up(start, i, e);
      throw;
    }
    place(i, e);
  }
  /// sift_up moved the ancestors of `start` below `hole` one level down: back up they go,
  /// from the top (each position's entry came from its parent).
  [[gnu::cold]] void undo_sift_up(std::size_t start, std::size_t hole, const Entry& e) {
    std::array<std::size_t, 64> path;  // positions from start up to hole's child
    std::size_t n = 0;
    for (std::size_t p = start; p != hole; p = (p - 1) / arity) path[n++] = p;
    for (std::size_t k = n; k-- > 0;) {
      place(hole, heap_[path[k]]);
      hole = path[k];
    }
    place(start, e);
  }
  /// The entry of [first, end) that fires first. With four children, the one with the
  /// smallest lower end is found without branches (which child is earliest is a coin toss,
  /// and a branch per child mispredicted about half the time: the pop's largest cost); it
  /// is the earliest when its interval lies below the other three, as it almost always
  /// does. Otherwise, and for fewer children, the children are compared one by one.
  std::size_t earliest_child(std::size_t first, std::size_t end, std::uint64_t& quick) const {
    static_assert(arity == 4);
    if (end - first == arity) {
      const Entry* c = &heap_[first];
      const std::size_t a = c[1].lo < c[0].lo ? 1 : 0;
      const std::size_t b = c[3].lo < c[2].lo ? 3 : 2;
      const std::size_t m = c[b].lo < c[a].lo ? b : a;
      const double hi = c[m].hi;
      // c[m] itself never counts (hi >= lo); the other three must all lie above hi.
      const int above = int{hi < c[0].lo} + int{hi < c[1].lo} + int{hi < c[2].lo} + int{hi < c[3].lo};
      if (above == arity - 1) {
        quick += arity - 1;
        return first + m;
      }
    }
    std::size_t best = first;
    for (std::size_t k = first + 1; k < end; ++k)
      if (fires_first(heap_[k], heap_[best], quick)) best = k;
    return best;
  }
  void sift_down(std::size_t i, std::uint64_t& quick) {
    const std::size_t start = i;
    const Entry e = heap_[i];
    try {
      sift_down_from(i, e, quick);
    } catch (...) {
      // Each position from start down to the hole took its child's entry: down again they
      // go, from the bottom.
      for (std::size_t p = i; p != start; p = (p - 1) / arity) place(p, heap_[(p - 1) / arity]);
      place(start, e);
      throw;
    }
    place(i, e);
  }
  /// sift_down's walk: i becomes the hole where e belongs.
  void sift_down_from(std::size_t& i, const Entry& e, std::uint64_t& quick) {
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first = arity * i + 1;
      if (first >= n) break;
      // The branch-free choice below makes the next level's address wait for this level's
      // loads; at large n each level is a cache miss, so the grandchildren (16 entries in a
      // row, 6 or 7 cache lines) are requested now, while the children are compared.
      // (Only for a whole group inside the array: the addresses stay within it or one past.)
      if (const std::size_t grand = arity * first + 1; grand + arity * arity <= n) {
        static_assert(arity * arity * sizeof(Entry) == 6 * 64);
        const char* p = reinterpret_cast<const char*>(heap_.data() + grand);
        for (int line = 0; line <= 6; ++line) __builtin_prefetch(p + 64 * line);
      }
      const std::size_t best = earliest_child(first, std::min(first + arity, n), quick);
      if (!fires_first(heap_[best], e, quick)) break;
      place(i, heap_[best]);
      i = best;
    }
  }

  // On huge pages once large (kds/huge_pages.hpp): a sift reads them at random.
  LargeVector<Entry> heap_;
  LargeVector<std::uint32_t> where_;               // by certificate id; `absent` when not queued
  LargeVector<CertificateBase*> certificates_;     // by certificate id (ids are dense)
};

class ReferenceEventQueue final : public EventQueue {
 public:
  void push(CertificateBase* c) override { items_.push_back(c); }
  void push_first(CertificateBase* c) override { items_.push_back(c); }
  void update(CertificateBase*) override {}
  void erase(CertificateBase* c) override { items_.erase(std::find(items_.begin(), items_.end(), c)); }
  CertificateBase* top() const override {
    CertificateBase* best = nullptr;
    for (CertificateBase* c : items_)
      if (best == nullptr || fires_before(*c, *best)) best = c;
    return best;
  }
  void pop() override { erase(top()); }
  std::size_t size() const override { return items_.size(); }
  void reserve(std::size_t ids) override { items_.reserve(ids); }
  bool consistent() const override {
    std::vector<CertificateBase*> sorted = items_;
    std::sort(sorted.begin(), sorted.end());
    return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();  // each once
  }

 private:
  std::vector<CertificateBase*> items_;
};

}  // namespace

std::unique_ptr<EventQueue> make_event_queue(QueueKind kind) {
  if (kind == QueueKind::reference) return std::make_unique<ReferenceEventQueue>();
  return std::make_unique<HeapEventQueue>();
}

}  // namespace kds
