#pragma once
/// \file
/// Kinetic box overlap (Abam, de Berg, Poon, Speckmann, section 3.1) as a broad phase of
/// the collision world: the axis-aligned bounding box of every sphere, its extremes kept
/// in one kinetic sorted list per axis (box_extreme.hpp), and the set of overlapping box
/// pairs (overlap_set.hpp) kept exactly from the lists' swaps. Two spheres are
/// candidates when their boxes overlap: the world then certifies the pair with its exact
/// collision certificate and runs the contact pipeline.
///
/// Two boxes overlap iff their intervals overlap on every axis. An interval pair starts
/// to overlap on an axis exactly when a high extreme of one passes the low extreme of the
/// other, and stops when a low extreme passes a high one; swaps of two low (or two high)
/// extremes change nothing. So after each swap of a high and a low extreme, the other
/// axes are read from the lists' ranks in O(1), and the pair enters or leaves the set.
///
/// Certificates of its own: the order certificates of the three lists, 3 (2n - 1) in all
/// (two lists and 2 (2n - 1) for the planar variant, "box-overlap-2d"), each on two bodies; the world adds one pair certificate per overlapping pair and six
/// wall certificates per sphere (every wall is reachable, as with all-pairs).
///
/// Ballistic spheres only: the box of an unknown trajectory's bound would jump (shrink
/// to the sphere) at every reset of the bound, which sorted lists of continuously moving
/// keys do not model; the world refuses such a sphere with an error naming it (use
/// tvb-grid). Flight-plan updates are fine: the lists follow their bodies' motions, and
/// a key that jumps is moved by swaps at the same time, before the clock advances.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "structures/box_overlap/box_extreme.hpp"
#include "structures/box_overlap/overlap_set.hpp"
#include "kds/signal.hpp"
#include "structures/collision/broad_phase.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds {

class BoxOverlap final : public BroadPhase {
 public:
  /// At most one sorted list per axis of the three-dimensional world.
  static constexpr int max_axes = 3;

  /// `dimensions` 3: boxes in space, three lists ("box-overlap"). 2: rectangles in the
  /// x-y plane, two lists ("box-overlap-2d"), the structure for planar scenes (disks,
  /// prisms, balls on a table), where z never separates two objects and a third list
  /// would only hold swaps that change nothing. Correct for any scene (two rectangles
  /// overlap whenever the boxes do, so no candidate is lost), but in a scene that moves in
  /// z it certifies more pairs than the three lists would. InvalidInput unless 2 or 3.
  explicit BoxOverlap(int dimensions = 3);
  ~BoxOverlap() override;
  BoxOverlap(const BoxOverlap&) = delete;
  BoxOverlap& operator=(const BoxOverlap&) = delete;

  const char* name() const override { return axes_ == 2 ? "box-overlap-2d" : "box-overlap"; }
  /// The number of sorted lists (2 or 3): axes 0 .. axes() - 1.
  int axes() const { return axes_; }
  /// Builds the lists and the overlap set; InvalidInput naming the first sphere with an
  /// unknown trajectory, if any.
  void start(CollisionWorld& world) override;
  /// A ballistic sphere's bound is the sphere: a reset changes its motion only, which the
  /// sorted lists hear of through its body.
  void bound_will_reset(SphereId) override {}
  void bound_was_reset(SphereId) override {}
  void candidates(SphereId id, std::vector<SphereId>& out) override;
  bool may_reach_wall(SphereId, Wall) const override { return true; }
  /// The overlap set is symmetric and equals the pairs whose boxes overlap at the audit's
  /// time, computed exactly from the motions (ties broken by the lists' order).
  void audit(const AuditContext& ctx) const override;
  /// The sphere's box (role "box"), carried by the sphere.
  void draw(SphereId id, Drawing& out) const override;

  /// For tests, benchmarks and teaching.
  const SortedList& list(int axis) const { return *lists_[axis]; }
  const OverlapSet& overlaps() const { return overlaps_; }
  /// The half width of a sphere's box (its radius plus the contact tolerance).
  double half_width(SphereId id) const { return half_width_[id]; }
  /// What an entry of list(axis) stands for.
  BoxExtreme extreme(int axis, EntryId e) const { return extreme_[axis][e]; }
  /// Swaps of the lists so far.
  std::uint64_t swaps() const;
  /// Pairs that entered or left the overlap set since the start.
  std::uint64_t overlap_changes() const { return overlap_changes_; }
  /// Every change of the overlap set, after the world has updated its candidates: the
  /// pair, and whether its boxes now overlap (for viewers, examples and teaching).
  /// Subscribing observes and changes nothing, so it works through the world's const
  /// view of its broad phase (CollisionWorld::broad_phase()).
  Signal<SphereId, SphereId, bool>& on_overlap_change() const { return overlap_changed_; }
  /// Whether the intervals of a and b overlap on `axis` in the lists' order.
  bool overlap_on(int axis, SphereId a, SphereId b) const;
  /// Whether they overlap on every axis of the structure but `axis`.
  bool overlap_elsewhere(int axis, SphereId a, SphereId b) const;

 private:
  void build_list(int axis);
  /// Sweeps list(0) in order: every pair whose x intervals overlap is tested on the other axes.
  void find_overlaps();
  /// A swap in list(axis): `left` was just before `right` and is now just after it.
  void swapped(int axis, EntryId left, EntryId right);

  int axes_;
  CollisionWorld* world_ = nullptr;
  std::array<std::unique_ptr<SortedList>, max_axes> lists_;
  std::array<std::vector<EntryId>, max_axes> low_, high_;   // by sphere: its extremes' entries
  std::array<std::vector<BoxExtreme>, max_axes> extreme_;   // by entry
  std::vector<double> half_width_;                      // by sphere
  OverlapSet overlaps_;
  std::uint64_t overlap_changes_ = 0;
  mutable Signal<SphereId, SphereId, bool> overlap_changed_;
};

}  // namespace kds
