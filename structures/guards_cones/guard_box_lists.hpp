#pragma once
/// \file
/// The box events of guards and cones (section 3.2.1): three kinetic sorted lists
/// (structures/sorted_list), one per axis, of the guards' coordinates and every box's two
/// extremes. A swap of a guard and an extreme changes containment on that axis; the other
/// two axes are read from the lists' ranks in O(1).
///
/// The guards of an object lie on a grid, so on each axis they share a few coordinates
/// (6 for balls): a list holds one entry per such *guard plane* (owner, axis, offset)
/// instead of one per guard. The order and the box events are the same; the guards of one
/// plane never swap among themselves anyway, and two objects passing each other swap
/// 6 x 6 planes per axis instead of 128 x 128 guards.
///
/// Containment is closed, with ties (a guard exactly on a box side) decided by the lists'
/// order, which says what holds just after now. Shared by GuardsCones (member lists) and
/// GuardsConesLists (centre lists per facet orientation).

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "structures/collision/collision_world.hpp"
#include "structures/guards_cones/fat_object.hpp"
#include "structures/guards_cones/guards.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds {

class GuardBoxLists {
 public:
  static constexpr int axes = 3;
  /// The guards of one plane of `axis` entered (or left) the interval of k's box on that
  /// axis. Called after the swap; the other axes' containment is read with inside_on.
  using Crossing = std::function<void(int axis, std::span<const GuardId> guards, SphereId k, bool entered)>;

  /// Builds the three lists at the current time: guard g belongs to the object o with
  /// first_guard[o] <= g < first_guard[o + 1], at its centre plus offset[g].
  void build(CollisionWorld& world, const std::vector<FatObject>& objects, const std::vector<GuardId>& first_guard,
             const std::vector<Vec<3>>& offset);
  /// Subscribes to the box events (after build; once).
  void on_crossing(Crossing f);

  /// Whether guard g lies in k's box on `axis` (ranks; closed, ties by the order).
  bool inside_on(int axis, GuardId g, SphereId k) const;
  bool contains(GuardId g, SphereId k) const {
    return inside_on(0, g, k) && inside_on(1, g, k) && inside_on(2, g, k);
  }
  /// Calls f(g, k) for every guard g and every other object k whose box contains it (a
  /// sweep of the x list).
  void for_each_containment(const std::function<void(GuardId, SphereId)>& f) const;
  /// Calls f(g) for every guard of another object that k's box contains (the guard planes
  /// between k's extremes on x, tested on y and z).
  void for_each_guard_in_box(SphereId k, const std::function<void(GuardId)>& f) const;

  const SortedList& list(int axis) const { return *lists_[axis]; }
  /// The entries of k in the list of `axis`: its box's two extremes and its guard planes.
  std::vector<EntryId> entries_of(int axis, SphereId k) const;
  /// The object an entry of the list of `axis` belongs to (the box's, or the plane's owner).
  SphereId owner_of(int axis, EntryId e) const;
  /// How many entries k's entries must pass to be in order now (list_reinsertion.hpp),
  /// over the three lists; counting stops above `budget`.
  std::size_t passes_to_order(SphereId k, std::size_t budget) const;
  /// After a jump of k's motion: erases k's entries from the three lists and inserts them
  /// where they belong now. No box event is reported (the caller recomputes what the jump
  /// changed). Returns the entries reinserted.
  std::size_t reinsert(SphereId k);
  /// Guard planes (entries of each list that stand for guards), over the three axes.
  std::size_t guard_planes() const { return planes_[0].size() + planes_[1].size() + planes_[2].size(); }
  std::uint64_t swaps() const;

 private:
  enum class EntryKind : std::uint8_t { plane, low, high };
  struct Entry {
    std::uint32_t index = 0;  // plane id (of its axis) or sphere id
    EntryKind kind = EntryKind::plane;
  };
  /// A guard plane of one axis: the guards of one object sharing a coordinate offset.
  struct Plane {
    SphereId owner = no_sphere;
    double offset = 0;
    EntryId entry = no_entry;
    std::vector<GuardId> guards;
  };
  void swapped(int axis, EntryId left, EntryId right);

  std::array<std::unique_ptr<SortedList>, axes> lists_;
  std::array<std::vector<Entry>, axes> entry_;             // by entry
  std::array<std::vector<Plane>, axes> planes_;            // by plane id
  std::array<std::vector<std::uint32_t>, axes> plane_of_;  // by guard: its plane id
  std::array<std::vector<std::uint32_t>, axes> first_plane_;  // by sphere, n + 1: its planes' ids
  Simulator* sim_ = nullptr;
  std::array<std::vector<EntryId>, axes> low_, high_;      // by sphere
  Crossing crossing_;
};

}  // namespace kds
