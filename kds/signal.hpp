#pragma once
/// \file
/// Callbacks with unsubscription: what structures use to tell others of their changes
/// (a sorted list's swaps, a tournament's new winner, bodies inserted and erased).
///
/// The contract, the same for every signal in kds:
/// - `subscribe` returns an id; `unsubscribe(id)` removes the callback, also from inside a
///   callback of the same signal (it then does not run again, not even later in the same
///   emission). An unknown id is an InvalidInput.
/// - A callback subscribed during an emission first runs at the next emission.
/// - Callbacks run in the order they were subscribed.
/// - What a callback may do while it runs is said by the structure that emits it (for
///   the kinetic structures: anything but changing the structure that is calling it).

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kds/errors.hpp"

namespace kds {

using SubscriptionId = std::uint64_t;

template <class... Args>
class Signal {
 public:
  using Callback = std::function<void(Args...)>;

  SubscriptionId subscribe(Callback f) {
    slots_.push_back({next_id_, std::move(f), true});
    return next_id_++;
  }
  void unsubscribe(SubscriptionId id) {
    for (auto& s : slots_)
      if (s.id == id && s.active) {
        // Destroyed after the emission in progress, if any: it may be the caller.
        s.active = false;
        ++inactive_;
        if (depth_ == 0) compact();
        return;
      }
    throw InvalidInput("unsubscribe: subscription " + std::to_string(id) + " is unknown (already unsubscribed?)");
  }
  /// Calls every callback subscribed before this call, in order.
  void emit(Args... args) {
    if (slots_.empty()) return;  // the common case on hot paths: nobody listens
    ++depth_;
    struct Done {
      Signal* s;
      ~Done() {
        if (--s->depth_ == 0 && s->inactive_ > 0) s->compact();
      }
    } done{this};
    const std::size_t n = slots_.size();  // later subscribers wait for the next emission
    for (std::size_t i = 0; i < n; ++i)
      if (slots_[i].active) slots_[i].callback(args...);  // a deque: subscribing meanwhile moves nothing
  }
  bool empty() const {
    for (const auto& s : slots_)
      if (s.active) return false;
    return true;
  }
  /// Whether a callback of this signal is running now.
  bool emitting() const { return depth_ > 0; }

 private:
  struct Slot {
    SubscriptionId id;
    Callback callback;
    bool active;
  };
  void compact() {
    std::erase_if(slots_, [](const Slot& s) { return !s.active; });
    inactive_ = 0;
  }

  std::deque<Slot> slots_;
  SubscriptionId next_id_ = 1;
  int depth_ = 0;
  int inactive_ = 0;  // unsubscribed, erased at the next compaction
};

}  // namespace kds
