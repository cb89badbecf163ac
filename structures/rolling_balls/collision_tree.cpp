#include "structures/rolling_balls/collision_tree.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace kds {

CollisionTree::CollisionTree(const std::vector<double>& radii) : ball_(radii.size()), rank_(radii.size()) {
  std::iota(ball_.begin(), ball_.end(), SphereId{0});
  // Ties broken by id, so the tree is a function of the input alone.
  std::sort(ball_.begin(), ball_.end(),
            [&](SphereId a, SphereId b) { return radii[a] < radii[b] || (radii[a] == radii[b] && a < b); });
  for (std::uint32_t r = 0; r < ball_.size(); ++r) rank_[ball_[r]] = r;
  if (ball_.size() >= 2) {
    nodes_.reserve(ball_.size() - 1);
    child_large_.reserve(ball_.size() - 1);
    height_ = build(0, static_cast<std::uint32_t>(ball_.size()));
  }
  for (Node& v : nodes_) v.r_min = radii[ball_[v.mid]];
}

int CollisionTree::build(std::uint32_t lo, std::uint32_t hi) {
  if (hi - lo < 2) return 0;
  const auto v = static_cast<NodeId>(nodes_.size());
  const std::uint32_t mid = lo + (hi - lo) / 2;  // floor(n/2) smallest balls in B_S
  nodes_.push_back(Node{lo, mid, hi, 0});
  child_large_.push_back(0);
  const int small = build(lo, mid);
  child_large_[v] = static_cast<NodeId>(nodes_.size());
  const int large = build(mid, hi);
  return 1 + std::max(small, large);
}

CollisionTree::NodeId CollisionTree::separating_node(SphereId a, SphereId b) const {
  const std::uint32_t ra = rank_[a], rb = rank_[b];
  if (ra == rb) throw std::logic_error("CollisionTree::separating_node: the same ball twice");
  NodeId v = 0;
  for (;;) {
    const Node& n = nodes_[v];
    const bool a_small = ra < n.mid, b_small = rb < n.mid;
    if (a_small != b_small) return v;
    v = a_small ? v + 1 : child_large_[v];
  }
}

}  // namespace kds
