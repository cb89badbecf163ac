#include "kds/event_queue.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kds {
namespace {

/// A copy of the failure time's isolating interval rides along with the pointer, so that
/// most comparisons are decided without touching the certificate (a cache miss each at
/// large n). The copy may be wider than the certificate's own interval after
/// Root::tighten(), never wrong.
struct Entry {
  double lo, hi;
  CertificateBase* cert;
};
/// `a` fires before `b`: decided by the copied intervals when they are apart, exactly otherwise.
bool fires_first(const Entry& a, const Entry& b) {
  if (a.hi < b.lo || b.hi < a.lo) {
    ++solver_counters().comparisons;  // decided here, but a comparison all the same
    return a.hi < b.lo;
  }
  return fires_before(*a.cert, *b.cert);
}
Entry entry_of(CertificateBase* c) { return Entry{c->failure_time().lo(), c->failure_time().hi(), c}; }

/// An indexed 4-ary heap in one array: entries of three words, the position of each
/// certificate kept in a vector indexed by its id. No allocation once the arrays have
/// grown, and a sift step touches one cache line of children. (Boost.Heap's mutable
/// d_ary_heap, used before, allocates a std::list node per element: measured in
/// bench/event_queue, this layout costs 5-8x less on hard-sphere churn.)
class HeapEventQueue final : public EventQueue {
  static constexpr std::size_t arity = 4;
  static constexpr std::uint32_t absent = ~std::uint32_t{0};

 public:
  void push(CertificateBase* c) override {
    if (c->id() >= where_.size()) where_.resize(std::size_t{c->id()} + 1, absent);
    heap_.push_back(entry_of(c));
    sift_up(heap_.size() - 1);
  }
  void update(CertificateBase* c) override {
    const std::size_t i = where_[c->id()];
    heap_[i] = entry_of(c);
    if (i > 0 && fires_first(heap_[i], heap_[(i - 1) / arity]))
      sift_up(i);
    else
      sift_down(i);
  }
  void erase(CertificateBase* c) override {
    const std::size_t i = where_[c->id()];
    where_[c->id()] = absent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    place(i, last);
    if (i > 0 && fires_first(heap_[i], heap_[(i - 1) / arity]))
      sift_up(i);
    else
      sift_down(i);
  }
  CertificateBase* top() const override { return heap_.empty() ? nullptr : heap_.front().cert; }
  void pop() override { erase(heap_.front().cert); }
  std::size_t size() const override { return heap_.size(); }

 private:
  void place(std::size_t i, const Entry& e) {
    heap_[i] = e;
    where_[e.cert->id()] = static_cast<std::uint32_t>(i);
  }
  void sift_up(std::size_t i) {
    const Entry e = heap_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / arity;
      if (!fires_first(e, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, e);
  }
  void sift_down(std::size_t i) {
    const Entry e = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first = arity * i + 1;
      if (first >= n) break;
      const std::size_t end = std::min(first + arity, n);
      std::size_t best = first;
      for (std::size_t k = first + 1; k < end; ++k)
        if (fires_first(heap_[k], heap_[best])) best = k;
      if (!fires_first(heap_[best], e)) break;
      place(i, heap_[best]);
      i = best;
    }
    place(i, e);
  }

  std::vector<Entry> heap_;
  std::vector<std::uint32_t> where_;  // indexed by certificate id; `absent` when not queued
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

 private:
  std::vector<CertificateBase*> items_;
};

}  // namespace

std::unique_ptr<EventQueue> make_event_queue(QueueKind kind) {
  if (kind == QueueKind::reference) return std::make_unique<ReferenceEventQueue>();
  return std::make_unique<HeapEventQueue>();
}

}  // namespace kds
