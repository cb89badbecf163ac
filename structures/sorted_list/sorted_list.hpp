#pragma once
/// \file
/// The kinetic sorted list: points moving on a line, kept in increasing order.
///
/// One order certificate per adjacent pair (n - 1 in all). When the certificate between
/// positions i and i + 1 fails, the two points swap, and the three certificates around
/// them are replaced: O(1) work per event, and each swap is an external event (the order
/// changed). Observers hear of every swap; the box-overlap and rolling-ball structures
/// build on that. See structures/sorted_list/README.md.

#include <functional>
#include <vector>

#include "certificates/order.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "kds/structure.hpp"

namespace kds {

class SortedList final : public Structure {
 public:
  using Certificate = Order<SortedList>;
  /// Told of every swap: `left` was just before `right` and is now just after it.
  using SwapCallback = std::function<void(ObjectId left, ObjectId right)>;

  explicit SortedList(Simulator& sim);
  ~SortedList() override;
  SortedList(const SortedList&) = delete;
  SortedList& operator=(const SortedList&) = delete;

  /// Adds a point at the current time, where it belongs in the order (after any point
  /// with the same position and the same future). Returns its id.
  ObjectId insert(const Motion<1>& motion);
  /// Removes a point; InvalidInput if it is not in this list.
  void erase(ObjectId id);
  /// Replaces the motion of a point at the current time (rounded to a double; the new
  /// motion must not start before it).
  void set_motion(ObjectId id, const Motion<1>& motion);

  bool contains(ObjectId id) const { return id < items_.size() && items_[id].present; }
  const Motion<1>& motion(ObjectId id) const;
  /// The points in increasing order of position (just after the current time).
  const std::vector<ObjectId>& order() const { return order_; }
  std::size_t size() const { return order_.size(); }
  /// Index of a point in order().
  std::size_t rank(ObjectId id) const;
  std::uint64_t swaps() const { return swaps_; }

  void on_swap(SwapCallback callback) { swap_callbacks_.push_back(std::move(callback)); }

  // Structure
  const char* name() const override { return "sorted list"; }
  void audit(const AuditContext& ctx) const override;

  // For the order certificate.
  template <class NT>
  Polynomial<NT> coordinate(ObjectId id, double origin) const {
    return items_[id].motion.coordinate<NT>(0, origin);
  }
  void order_failed(Certificate& c, Simulator& sim);

 private:
  struct Item {
    Motion<1> motion;
    std::size_t rank = 0;
    bool present = false;
  };
  void require(ObjectId id, const char* operation) const;
  /// (Re)creates the certificate between ranks i and i + 1, destroying the old one.
  void link(std::size_t i, Birth birth = Birth::generic);
  void unlink(std::size_t i);

  Simulator& sim_;
  std::vector<Item> items_;            // indexed by object id
  std::vector<ObjectId> order_;
  std::vector<Certificate*> certificates_;  // certificates_[i] sits between order_[i] and order_[i + 1]
  std::vector<SwapCallback> swap_callbacks_;
  std::uint64_t swaps_ = 0;
};

}  // namespace kds
