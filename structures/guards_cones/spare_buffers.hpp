#pragma once
/// \file
/// Buffers of emptied vectors, kept for the next vector that starts to fill. A guard's
/// members and its closest objects per cone are vectors by guard, thousands of them, most
/// empty at any time; without this each allocated when it gained its first entry after
/// emptying (about one allocation per 100 events of the asteroid scenes). With it, such
/// lists allocate only when more of them hold entries at once than ever before, or when
/// one outgrows the buffer it got (room for four at least).

#include <vector>

namespace kds {

template <class T>
class SpareBuffers {
 public:
  /// Before the first entry goes into `v`: gives it a spare buffer, or a new one with room
  /// for four entries (most lists stay that short), if it has none.
  void supply(std::vector<T>& v) {
    if (v.capacity() != 0) return;
    if (spare_.empty()) {
      v.reserve(4);
      return;
    }
    v.swap(spare_.back());
    spare_.pop_back();
  }
  /// After `v` may have lost its last entry: takes its buffer back if it is empty.
  void reclaim(std::vector<T>& v) {
    if (!v.empty() || v.capacity() == 0) return;
    spare_.emplace_back();
    spare_.back().swap(v);
  }

 private:
  std::vector<std::vector<T>> spare_;
};

}  // namespace kds
