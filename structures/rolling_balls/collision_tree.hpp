#pragma once
/// \file
/// The collision tree of Abam, de Berg, Poon and Speckmann (seed 003, section 2): balls
/// sorted by radius, split recursively into the smaller half B_S and the larger half B_L.
/// Every collision is between a ball of B_S and a ball of B_L at exactly one node (the
/// node where the two are first separated), so each node needs only a structure that
/// detects collisions across its two halves.
///
/// Sorting by (radius, id) makes every node a range of ranks [lo, hi): B_S is
/// [lo, mid), B_L is [mid, hi), with mid - lo = floor(n / 2) as in the paper. So "is ball
/// j small at node v" is one comparison, which the variant with two global sorted lists
/// needs at every swap. This file holds only the static tree: no motion, no certificate.

#include <cstdint>
#include <vector>

#include "structures/collision/sphere.hpp"

namespace kds {

class CollisionTree {
 public:
  using NodeId = std::uint32_t;
  struct Node {
    std::uint32_t lo = 0, mid = 0, hi = 0;  ///< ranks: B_S = [lo, mid), B_L = [mid, hi)
    double r_min = 0;                       ///< radius of the smallest ball of B_L
  };

  CollisionTree() = default;
  /// The tree over balls with these radii (ball i has radius radii[i]); every node has at
  /// least two balls (a single ball is a leaf, which needs nothing).
  explicit CollisionTree(const std::vector<double>& radii);

  const std::vector<Node>& nodes() const { return nodes_; }
  const Node& node(NodeId v) const { return nodes_[v]; }
  std::size_t size() const { return ball_.size(); }
  /// The ball of a rank, and the rank of a ball (rank 0 is the smallest ball).
  SphereId ball(std::uint32_t rank) const { return ball_[rank]; }
  std::uint32_t rank(SphereId id) const { return rank_[id]; }
  bool small_at(NodeId v, SphereId id) const { return rank_[id] >= nodes_[v].lo && rank_[id] < nodes_[v].mid; }
  bool large_at(NodeId v, SphereId id) const { return rank_[id] >= nodes_[v].mid && rank_[id] < nodes_[v].hi; }
  /// The node at which two different balls are on opposite sides.
  NodeId separating_node(SphereId a, SphereId b) const;
  /// Height of the tree (the longest root-to-leaf path, counted in nodes).
  int height() const { return height_; }

 private:
  int build(std::uint32_t lo, std::uint32_t hi);

  std::vector<Node> nodes_;  // preorder: node 0 is the root, the B_S child of v is v + 1
  std::vector<NodeId> child_large_;
  std::vector<SphereId> ball_;
  std::vector<std::uint32_t> rank_;
  int height_ = 0;
};

}  // namespace kds
