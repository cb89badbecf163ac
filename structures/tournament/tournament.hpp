#pragma once
/// \file
/// The kinetic tournament: the maximum of points moving on a line.
///
/// A balanced binary tree over the points, each internal node holding the winner (the
/// larger) of its two children's winners, the root holding the overall maximum. Each
/// internal node with two contenders has one certificate, winner >= loser: an
/// `Order<Tournament>` with the loser first. When it fails, the loser becomes the winner
/// at that node and the change climbs towards the root as long as winners change, the
/// certificates whose objects changed being replaced: O(log n) work per event, and an
/// external event when the root's winner changes. See structures/tournament/README.md.

#include <cstddef>
#include <functional>
#include <vector>

#include "certificates/order.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "kds/structure.hpp"

namespace kds {

class Tournament final : public Structure {
 public:
  /// Loser first: Order(loser, winner) holds while x_winner - x_loser >= 0.
  using Certificate = Order<Tournament>;
  /// Told of every change of the overall maximum, whatever caused it (an event, an insert,
  /// an erase, a motion change); `previous` or `current` is `no_object` when the tournament
  /// was or became empty.
  using MaximumCallback = std::function<void(ObjectId previous, ObjectId current)>;

  explicit Tournament(Simulator& sim);
  ~Tournament() override;
  Tournament(const Tournament&) = delete;
  Tournament& operator=(const Tournament&) = delete;

  /// Adds a point at the current time. Returns its id.
  ObjectId insert(const Motion<1>& motion);
  /// Removes a point; InvalidInput if it is not in this tournament.
  void erase(ObjectId id);
  /// Replaces the motion of a point at the current time (rounded to a double; the new
  /// motion must not start before it). Certificates it breaks fail at once.
  void set_motion(ObjectId id, const Motion<1>& motion);

  /// The point with the largest position just after the current time (among points with
  /// identical futures, the one nearest the left of the tree); `no_object` when empty.
  ObjectId max() const { return size_ == 0 ? no_object : winner_[1]; }
  bool contains(ObjectId id) const { return id < items_.size() && items_[id].present; }
  const Motion<1>& motion(ObjectId id) const;
  std::size_t size() const { return size_; }
  /// Height of the tree (0 for at most one point): the number of certificates an event
  /// may replace is at most twice this.
  int height() const;
  /// Changes of the overall maximum caused by events (the structure's external events).
  std::uint64_t leader_changes() const { return leader_changes_; }

  void on_maximum_change(MaximumCallback callback) { callbacks_.push_back(std::move(callback)); }

  // Structure
  const char* name() const override { return "tournament"; }
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
    std::size_t slot = 0;  // leaf position in slots_
    bool present = false;
  };
  void require(ObjectId id, const char* operation) const;
  /// Node index of the leaf holding slot s (nodes in heap layout: root 1, children 2k, 2k + 1).
  std::size_t leaf(std::size_t s) const { return capacity_ + s; }
  /// Sign of x_a - x_b just after now: +1, -1, or 0 for identical futures.
  int compare_just_after(ObjectId a, ObjectId b) const;
  /// Recomputes node k from its children's winners, replacing its certificate only if its
  /// pair of contenders changed. Returns whether the winner of k changed.
  bool refresh(std::size_t k);
  /// Refreshes k and its ancestors as long as winners change.
  void climb(std::size_t k);
  void drop_certificate(std::size_t k);
  /// Rebuilds the whole tree over `capacity` leaves (a power of two), e.g. after growing.
  void rebuild(std::size_t capacity);
  /// Tells the callbacks (and, after an event, the simulator) that the maximum changed.
  void announce(ObjectId previous, bool external);

  Simulator& sim_;
  std::vector<Item> items_;               // indexed by object id
  std::vector<ObjectId> slots_;           // leaf slot -> point, the first size_ in use
  std::size_t size_ = 0;
  std::size_t capacity_ = 1;              // number of leaves, a power of two
  std::vector<ObjectId> winner_;          // per node (2 * capacity_), no_object if its subtree is empty
  std::vector<Certificate*> certificates_;  // per internal node (capacity_), nullptr without two contenders
  std::vector<MaximumCallback> callbacks_;
  std::uint64_t leader_changes_ = 0;
};

}  // namespace kds
