#pragma once
// The kinetic closest pair of points on a line, from two shipped structures: a sorted
// list of the points, and a tournament (smallest key wins) over the gaps between
// neighbours in that list. The closest pair is always two neighbours, so the smallest
// gap names it. When two points swap, only the three gaps around them change
// neighbours: the list's swap callback gives those gaps their new keys.
#include <utility>
#include <vector>

#include "structures/sorted_list/sorted_list.hpp"
#include "structures/tournament/tournament.hpp"

namespace closest_pair {

class ClosestPair {
 public:
  /// Watches the given 1D bodies (at least two) of `sim`.
  ClosestPair(kds::Simulator& sim, const std::vector<kds::BodyId>& points)
      : list_(sim), gaps_(sim, kds::Extremum::smallest) {
    for (kds::BodyId p : points) list_.insert(kds::Key::coordinate(p));
    for (std::size_t i = 0; i + 1 < list_.size(); ++i) {
      gap_at_.push_back(gaps_.insert(gap_key(i)));
      rank_of_gap_.resize(gap_at_.back() + 1);
      rank_of_gap_[gap_at_.back()] = i;
    }
    list_.on_swap().subscribe([this](kds::EntryId, kds::EntryId right) {
      const std::size_t i = list_.rank(right);  // `right` moved down to rank i
      for (std::size_t g = i == 0 ? 0 : i - 1; g <= i + 1 && g < gap_at_.size(); ++g)
        gaps_.set_key(gap_at_[g], gap_key(g));
    });
  }

  /// The two closest points now, left one first.
  std::pair<kds::BodyId, kds::BodyId> pair() const {
    const std::size_t g = rank_of_gap_[gaps_.winner()];
    return {body(list_.order()[g]), body(list_.order()[g + 1])};
  }
  const kds::SortedList& list() const { return list_; }
  const kds::Tournament& gaps() const { return gaps_; }
  /// Told whenever the closest pair changes.
  kds::Signal<kds::EntryId, kds::EntryId>& on_change() { return gaps_.on_winner_change(); }

 private:
  /// The gap between ranks i and i + 1: x_{i+1}(t) - x_i(t).
  kds::Key gap_key(std::size_t i) const {
    return kds::Key::difference(list_.key(list_.order()[i + 1]), list_.key(list_.order()[i]));
  }
  kds::BodyId body(kds::EntryId e) const { return list_.key(e).bodies()[0]; }

  kds::SortedList list_;
  kds::Tournament gaps_;
  std::vector<kds::EntryId> gap_at_;       // the tournament entry of the gap after rank i
  std::vector<std::size_t> rank_of_gap_;  // and back: the rank before a gap entry
};

}  // namespace closest_pair
