#pragma once
/// \file
/// Event queues to choose from (issue 8, item 2), all over the lean entries the issue
/// asks for: a double key (a failure time's lower bound) and a 32-bit id, with a handle
/// per id for update and erase. Ties go to the smaller id, so every queue pops the same
/// sequence and the benchmark can check that they agree.
///
///   BoostDaryQueue   the configuration of kds's HeapEventQueue today (kds/event_queue.cpp):
///                    Boost.Heap's mutable 4-ary d_ary_heap of {lo, hi, pointer}-sized
///                    entries, each handle a std::list node
///   IndexedHeap<2>   binary heap in one array, positions by id (no allocation)
///   IndexedHeap<4>   the same, 4-ary
///   PairingQueue     Boost.Heap's mutable pairing heap (a node per entry)

#include <boost/heap/d_ary_heap.hpp>
#include <boost/heap/pairing_heap.hpp>
#include <cstdint>
#include <vector>

namespace kds::bench {

using QueueId = std::uint32_t;

/// `a` fires before `b`: the smaller key, then the smaller id.
inline bool earlier(double ka, QueueId a, double kb, QueueId b) { return ka < kb || (ka == kb && a < b); }

template <int Arity>
class IndexedHeap {
 public:
  void push(QueueId id, double key) {
    if (id >= where_.size()) where_.resize(id + 1, none);
    heap_.push_back({key, id});
    where_[id] = static_cast<std::uint32_t>(heap_.size() - 1);
    up(heap_.size() - 1);
  }
  void update(QueueId id, double key) {
    const std::size_t i = where_[id];
    const double old = heap_[i].key;
    heap_[i].key = key;
    if (key < old)
      up(i);
    else
      down(i);
  }
  void erase(QueueId id) {
    const std::size_t i = where_[id];
    where_[id] = none;
    const Item last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    heap_[i] = last;
    where_[last.id] = static_cast<std::uint32_t>(i);
    up(i);
    down(where_[last.id]);
  }
  QueueId top() const { return heap_.front().id; }
  double top_key() const { return heap_.front().key; }
  void pop() { erase(heap_.front().id); }
  std::size_t size() const { return heap_.size(); }

 private:
  struct Item {
    double key;
    QueueId id;
  };
  static constexpr std::uint32_t none = ~0u;
  static bool before(const Item& a, const Item& b) { return earlier(a.key, a.id, b.key, b.id); }
  void put(std::size_t i, const Item& x) {
    heap_[i] = x;
    where_[x.id] = static_cast<std::uint32_t>(i);
  }
  void up(std::size_t i) {
    const Item x = heap_[i];
    while (i > 0 && before(x, heap_[(i - 1) / Arity])) {
      put(i, heap_[(i - 1) / Arity]);
      i = (i - 1) / Arity;
    }
    put(i, x);
  }
  void down(std::size_t i) {
    const Item x = heap_[i];
    for (;;) {
      const std::size_t first = Arity * i + 1;
      if (first >= heap_.size()) break;
      std::size_t best = first;
      const std::size_t end = std::min(first + Arity, heap_.size());
      for (std::size_t c = first + 1; c < end; ++c)
        if (before(heap_[c], heap_[best])) best = c;
      if (!before(heap_[best], x)) break;
      put(i, heap_[best]);
      i = best;
    }
    put(i, x);
  }
  std::vector<Item> heap_;
  std::vector<std::uint32_t> where_;
};

/// Boost.Heap queues keep a max-heap: "less" means "fires later".
struct BoostEntry {
  double lo, hi;  // kds's heap entries carry the failure time's interval and a pointer
  QueueId id;
};
struct FiresLater {
  bool operator()(const BoostEntry& a, const BoostEntry& b) const { return earlier(b.lo, b.id, a.lo, a.id); }
};

template <class Heap>
class BoostQueue {
 public:
  void push(QueueId id, double key) {
    if (id >= handles_.size()) handles_.resize(id + 1);
    handles_[id] = heap_.push(BoostEntry{key, key, id});
  }
  void update(QueueId id, double key) { heap_.update(handles_[id], BoostEntry{key, key, id}); }
  void erase(QueueId id) { heap_.erase(handles_[id]); }
  QueueId top() const { return heap_.top().id; }
  double top_key() const { return heap_.top().lo; }
  void pop() { heap_.pop(); }
  std::size_t size() const { return heap_.size(); }

 private:
  Heap heap_;
  std::vector<typename Heap::handle_type> handles_;
};

using BoostDaryQueue =
    BoostQueue<boost::heap::d_ary_heap<BoostEntry, boost::heap::arity<4>, boost::heap::mutable_<true>,
                                       boost::heap::compare<FiresLater>>>;
using PairingQueue = BoostQueue<boost::heap::pairing_heap<BoostEntry, boost::heap::compare<FiresLater>>>;

}  // namespace kds::bench
