#pragma once
/// \file
/// Which threshold boxes contain which tangency points: the pairs (small ball j, large
/// ball i) such that t_j lies in the threshold box of B_i at the node that separates them.
/// A pair belongs to one node only, so the set is kept per ball, symmetric: j lists i and
/// i lists j. These pairs are the broad phase's candidates. A small ball lies in O(1)
/// boxes per node (Lemma 4), O(log n) in all; a large ball's box may hold many points
/// (the structure is not local, as 004 remarks).

#include <algorithm>
#include <vector>

#include "structures/collision/sphere.hpp"

namespace kds {

class BoxMemberships {
 public:
  void resize(std::size_t balls) { of_.assign(balls, {}); }
  bool contains(SphereId small, SphereId large) const {
    const auto& l = of_[small];
    return std::find(l.begin(), l.end(), large) != l.end();
  }
  void add(SphereId small, SphereId large) {
    of_[small].push_back(large);
    of_[large].push_back(small);
    ++size_;
  }
  void remove(SphereId small, SphereId large) {
    erase_one(of_[small], large);
    erase_one(of_[large], small);
    --size_;
  }
  /// The partners of a ball, in no particular order.
  const std::vector<SphereId>& of(SphereId id) const { return of_[id]; }
  /// Number of pairs.
  std::size_t size() const { return size_; }

 private:
  static void erase_one(std::vector<SphereId>& l, SphereId x) {
    auto it = std::find(l.begin(), l.end(), x);
    *it = l.back();
    l.pop_back();
  }
  std::vector<std::vector<SphereId>> of_;
  std::size_t size_ = 0;
};

}  // namespace kds
