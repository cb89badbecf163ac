#pragma once
/// \file
/// The rolling-ball collision tree (Abam, de Berg, Poon, Speckmann; seed 003 section 2,
/// seed 004) as a broad phase of the collision world, for balls rolling on the floor of
/// the world's box (rolling_plane.hpp).
///
/// At every node of the collision tree (collision_tree.hpp) the balls of the larger half
/// B_L get threshold boxes (threshold_box.hpp) around their tangency points; two kinetic
/// sorted lists (plane_lists.hpp) order the x and y coordinates of the smaller half's
/// tangency points and of the boxes' sides. A swap of a point with a side may move the
/// point into or out of the box: the broad phase then updates the pairs (small ball, large
/// ball whose box holds its point), box_memberships.hpp, and tells the world, which keeps
/// one exact separation certificate per such pair (its pair certificate, "collision").
/// A ball can touch a ball of the other half only while its point is in the box, so no
/// collision is missed.
///
/// Two layouts of the sorted lists, chosen by name:
///   - "rolling-tree": two lists per node (the paper's structure; an event may occur at
///     O(log n) nodes at once);
///   - "rolling-tree-global": two lists for the whole tree holding every tangency point
///     once and every box of every node (the remark closing section 2.1: fewer
///     certificates touched per event, more events, since a point also swaps with boxes of
///     nodes where it is not small).
///
/// Walls: the balls reach the x and y walls of the box (a wall certificate each, as in
/// all-pairs); never the floor they roll on, nor the ceiling.
///
/// Bad input (InvalidInput naming the ball): an unknown trajectory, a ball not tangent to
/// the floor, a motion with a vertical part (at the start, or later: a response or a
/// flight-plan update that lifts a ball off the plane; use planar_response.hpp), a radius
/// that is not positive. Overlapping balls are the world's check (io/validate_spheres.hpp),
/// made before the broad phase starts.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "structures/collision/broad_phase.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/rolling_balls/box_memberships.hpp"
#include "structures/rolling_balls/collision_tree.hpp"
#include "structures/rolling_balls/plane_lists.hpp"

namespace kds {

/// Where the rolling tree keeps its sorted lists.
enum class RollingLists : std::uint8_t { per_node, global };

class RollingTree final : public BroadPhase {
 public:
  using NodeId = CollisionTree::NodeId;

  explicit RollingTree(RollingLists layout = RollingLists::per_node) : layout_(layout) {}
  ~RollingTree() override;
  RollingTree(const RollingTree&) = delete;
  RollingTree& operator=(const RollingTree&) = delete;

  const char* name() const override {
    return layout_ == RollingLists::per_node ? "rolling-tree" : "rolling-tree-global";
  }
  void start(CollisionWorld& world) override;
  /// Nothing to destroy: the sorted lists' certificates read the bodies' motions and are
  /// rescheduled by the motion change itself (Bodies::set_motion).
  void bound_will_reset(SphereId) override {}
  /// Checks that the ball still rolls on the plane (InvalidInput otherwise).
  void bound_was_reset(SphereId id) override;
  void candidates(SphereId id, std::vector<SphereId>& out) override;
  bool may_reach_wall(SphereId, Wall w) const override { return wall_axis(w) < 2; }
  /// Every ball on the plane; the memberships agree with the ranks in the sorted lists and
  /// with the exact positions (a point strictly inside a box is a member, one strictly
  /// outside is not); every pair that can touch now is a member.
  void audit(const AuditContext& ctx) const override;
  /// The threshold boxes of the ball at every node where it is in the larger half B_L
  /// (role "threshold box"), flat squares on the floor carried by the ball.
  void draw(SphereId id, Drawing& out) const override;

  // Inspection, for tests, benchmarks and teaching.
  RollingLists layout() const { return layout_; }
  const CollisionTree& tree() const { return tree_; }
  /// Half-width of the threshold box of the large ball `id` at node v.
  double half_width(NodeId v, SphereId id) const { return nodes_[v].boxes[tree_.rank(id) - tree_.node(v).mid].h; }
  /// Whether the tangency point of `small` lies in the threshold box of `large` (at the
  /// node that separates them).
  bool contains(SphereId small, SphereId large) const { return memberships_.contains(small, large); }
  std::size_t memberships() const { return memberships_.size(); }
  std::size_t sorted_lists() const { return 2 * lists_.size(); }
  /// Entries of all sorted lists, and their order certificates (one per adjacent pair).
  std::size_t list_entries() const;
  std::size_t order_certificates() const;
  /// Swaps processed by all lists, and how many of them changed a membership.
  std::uint64_t swaps() const;
  std::uint64_t membership_changes() const { return membership_changes_; }

 private:
  struct PointEntries {
    std::array<EntryId, 2> axis{};  // x, y
  };
  struct BoxEntries {
    std::array<EntryId, 4> side{};  // x low, x high, y low, y high
    double h = 0;
  };
  struct NodeRecord {
    PlaneLists* lists = nullptr;
    std::vector<PointEntries> points;  // by rank - lo (B_S)
    std::vector<BoxEntries> boxes;     // by rank - mid (B_L)
  };

  /// Throws InvalidInput naming the ball (and the clock, `at_now`: after a collision) unless
  /// it is ballistic and rolls on the floor (rolling_problem).
  void check_ball(SphereId id, bool at_now) const;
  void build_lists();
  /// Sets the memberships from the lists' initial order: one sweep along x per PlaneLists.
  void sweep(const PlaneLists& lists);
  void swapped(const PlaneLists& lists, int axis, EntryId left, EntryId right);
  /// Whether the point of `small` is ranked between the sides of the box of `large` at v.
  bool ranked_inside(NodeId v, SphereId small, SphereId large) const;
  const PointEntries& point(NodeId v, SphereId small) const {
    return nodes_[v].points[tree_.rank(small) - tree_.node(v).lo];
  }
  const BoxEntries& box(NodeId v, SphereId large) const {
    return nodes_[v].boxes[tree_.rank(large) - tree_.node(v).mid];
  }

  RollingLists layout_;
  CollisionWorld* world_ = nullptr;
  CollisionTree tree_;
  std::vector<std::unique_ptr<PlaneLists>> lists_;  // one per node, or one
  std::vector<NodeRecord> nodes_;
  BoxMemberships memberships_;
  std::uint64_t membership_changes_ = 0;
};

}  // namespace kds
