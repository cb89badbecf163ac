#include "kds/event_queue.hpp"

#include <algorithm>
#include <boost/heap/d_ary_heap.hpp>
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
struct FiresLater {  // Boost.Heap is a max-heap: "less" means "fires later"
  bool operator()(const Entry& a, const Entry& b) const {
    if (b.hi < a.lo || a.hi < b.lo) {
      ++solver_counters().comparisons;  // decided here, but a comparison all the same
      return b.hi < a.lo;               // true: b fires first
    }
    return fires_before(*b.cert, *a.cert);
  }
};
Entry entry_of(CertificateBase* c) { return Entry{c->failure_time().lo(), c->failure_time().hi(), c}; }

class HeapEventQueue final : public EventQueue {
  using Heap = boost::heap::d_ary_heap<Entry, boost::heap::arity<4>, boost::heap::mutable_<true>,
                                       boost::heap::compare<FiresLater>>;

 public:
  void push(CertificateBase* c) override {
    if (c->id() >= handles_.size()) handles_.resize(c->id() + 1);
    handles_[c->id()] = heap_.push(entry_of(c));
  }
  void update(CertificateBase* c) override { heap_.update(handles_[c->id()], entry_of(c)); }
  void erase(CertificateBase* c) override { heap_.erase(handles_[c->id()]); }
  CertificateBase* top() const override { return heap_.empty() ? nullptr : heap_.top().cert; }
  void pop() override { heap_.pop(); }
  std::size_t size() const override { return heap_.size(); }

 private:
  Heap heap_;
  std::vector<Heap::handle_type> handles_;  // indexed by certificate id
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
