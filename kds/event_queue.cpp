#include "kds/event_queue.hpp"

#include <algorithm>
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
    if (c->id() >= where_.size()) {
      where_.resize(std::size_t{c->id()} + 1, absent);
      certificates_.resize(where_.size(), nullptr);
    }
    certificates_[c->id()] = c;
    heap_.push_back(entry_of(c));
    std::uint64_t quick = 0;
    sift_up(heap_.size() - 1, quick);
    solver_counters().comparisons += quick;
  }
  void update(CertificateBase* c) override {
    const std::size_t i = where_[c->id()];
    heap_[i] = entry_of(c);
    restore(i);
  }
  void erase(CertificateBase* c) override {
    const std::size_t i = where_[c->id()];
    where_[c->id()] = absent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    place(i, last);
    restore(i);
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
  // (push's resize stays within the capacity reserved here.)
  void reserve(std::size_t ids) override {
    heap_.reserve(ids);
    where_.reserve(ids);
    certificates_.reserve(ids);
  }

 private:
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
  void sift_up(std::size_t i, std::uint64_t& quick) {
    const Entry e = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / arity;
      if (!fires_first(e, heap_[parent], quick)) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, e);
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
    const Entry e = heap_[i];
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
    place(i, e);
  }

  // On huge pages once large (kds/huge_pages.hpp): a sift reads them at random.
  LargeVector<Entry> heap_;
  LargeVector<std::uint32_t> where_;               // by certificate id; `absent` when not queued
  LargeVector<CertificateBase*> certificates_;     // by certificate id (ids are dense)
};

class ReferenceEventQueue final : public EventQueue {
 public:
  void push(CertificateBase* c) override { items_.push_back(c); }
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

 private:
  std::vector<CertificateBase*> items_;
};

}  // namespace

std::unique_ptr<EventQueue> make_event_queue(QueueKind kind) {
  if (kind == QueueKind::reference) return std::make_unique<ReferenceEventQueue>();
  return std::make_unique<HeapEventQueue>();
}

}  // namespace kds
