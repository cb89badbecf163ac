#pragma once
/// \file
/// The two kinetic sorted lists of the rolling-ball tree over one plane: x and y keys of
/// tangency points (the balls' centres' x and y) and of threshold-box sides (x_i +- h,
/// y_i +- h: coordinate keys with offsets, kds/key.hpp), with what each entry stands
/// for. A tangency point lies in a box exactly when, in both lists, it is ranked between
/// the box's low and high side; so a box membership can only change when a point swaps
/// with a side. One PlaneLists per node of the tree, or one for the whole tree (the
/// variant of the remark closing section 2.1 of seed 003).

#include <array>
#include <memory>
#include <vector>

#include "structures/collision/sphere.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds {

/// What an entry of a PlaneLists is: the tangency point of a ball, or the low or high side
/// of the threshold box of a ball at a node.
struct PlaneEntry {
  enum class Kind : std::uint8_t { point, low, high };
  SphereId ball = no_sphere;
  std::uint32_t node = 0;  ///< the node of a box side (unused for a point)
  Kind kind = Kind::point;
};

class PlaneLists {
 public:
  explicit PlaneLists(Simulator& sim) : lists_{std::make_unique<SortedList>(sim), std::make_unique<SortedList>(sim)} {}

  /// Inserts a key into the list of `axis` (0: x, 1: y) at the current time.
  EntryId insert(int axis, const Key& key, const PlaneEntry& what) {
    const EntryId e = lists_[axis]->insert(key);
    if (items_[axis].size() <= e) items_[axis].resize(e + 1);
    items_[axis][e] = what;
    return e;
  }
  const PlaneEntry& item(int axis, EntryId e) const { return items_[axis][e]; }
  SortedList& list(int axis) { return *lists_[axis]; }
  const SortedList& list(int axis) const { return *lists_[axis]; }
  /// Rank in the list of `axis` (no check that the entry is there).
  std::size_t rank(int axis, EntryId e) const { return lists_[axis]->rank(e); }

 private:
  std::array<std::unique_ptr<SortedList>, 2> lists_;
  std::array<std::vector<PlaneEntry>, 2> items_;
};

}  // namespace kds
