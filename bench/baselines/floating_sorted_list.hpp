#pragma once
/// \file
/// A plain floating-point kinetic sorted list, written for comparison with kds (issue 8):
/// points moving linearly on a line, x_i(t) = x_i + v_i t, kept in order. Adjacent pair
/// slot s (the points at ranks s and s + 1) fails when the left point catches up with the
/// right one; the failure times sit in an indexed binary min-heap whose keys are updated
/// in place, so a swap costs three key updates (the swapped pair and its two neighbours)
/// and no allocation. No exactness: a failure time is one rounded division.

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "kds/huge_pages.hpp"

namespace kds::baseline {

class FloatingSortedList {
 public:
  /// Points given in increasing order of x at time 0 (ties allowed).
  FloatingSortedList(const std::vector<double>& x, const std::vector<double>& v)
      : x_(x.begin(), x.end()), v_(v.begin(), v.end()) {
    const std::size_t n = x_.size();
    order_.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) order_[i] = i;
    const std::size_t slots = n > 0 ? n - 1 : 0;
    key_.resize(slots);
    heap_.resize(slots);
    where_.resize(slots);
    for (std::uint32_t s = 0; s < slots; ++s) {
      key_[s] = failure(s);
      heap_[s] = where_[s] = s;
    }
    for (std::size_t i = slots / 2; i-- > 0;) sift_down(i);
  }

  /// Processes every swap up to time `t`; returns how many.
  std::uint64_t run_until(double t) {
    std::uint64_t swaps = 0;
    while (!heap_.empty() && key_[heap_[0]] <= t) {
      const std::uint32_t s = heap_[0];
      now_ = key_[s];
      std::swap(order_[s], order_[s + 1]);
      update(s);
      if (s > 0) update(s - 1);
      if (s + 2 < order_.size()) update(s + 1);
      ++swaps;
    }
    now_ = t;
    return swaps;
  }

  /// The points by rank.
  std::span<const std::uint32_t> order() const { return order_; }
  double position(std::uint32_t point, double t) const { return x_[point] + v_[point] * t; }

 private:
  static constexpr double never = std::numeric_limits<double>::infinity();

  /// When the point at rank s overtakes the one at rank s + 1 (never if it is not faster).
  double failure(std::uint32_t s) const {
    const std::uint32_t l = order_[s], r = order_[s + 1];
    if (!(v_[l] > v_[r])) return never;
    return std::max(now_, (x_[r] - x_[l]) / (v_[l] - v_[r]));
  }

  void update(std::uint32_t s) {
    const double old = key_[s];
    key_[s] = failure(s);
    if (key_[s] < old)
      sift_up(where_[s]);
    else
      sift_down(where_[s]);
  }

  void place(std::size_t i, std::uint32_t s) {
    heap_[i] = s;
    where_[s] = static_cast<std::uint32_t>(i);
  }

  void sift_up(std::size_t i) {
    const std::uint32_t s = heap_[i];
    while (i > 0 && key_[heap_[(i - 1) / 2]] > key_[s]) {
      place(i, heap_[(i - 1) / 2]);
      i = (i - 1) / 2;
    }
    place(i, s);
  }

  void sift_down(std::size_t i) {
    const std::uint32_t s = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
      std::size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && key_[heap_[child + 1]] < key_[heap_[child]]) ++child;
      if (!(key_[heap_[child]] < key_[s])) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, s);
  }

  // On huge pages once large, as kds's arrays are (kds/huge_pages.hpp): the comparison
  // is then not one of page sizes.
  kds::LargeVector<double> x_, v_;         // by point
  kds::LargeVector<std::uint32_t> order_;  // point at each rank
  kds::LargeVector<double> key_;           // failure time of each slot
  kds::LargeVector<std::uint32_t> heap_;   // slots in heap order
  kds::LargeVector<std::uint32_t> where_;  // heap position of each slot
  double now_ = 0;
};

}  // namespace kds::baseline
