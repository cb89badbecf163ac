#pragma once
/// \file
/// An array that only grows, whose elements never move: chunks of doubling size (256
/// elements first) below one huge page, then chunks of one huge page or a little more
/// (kds/huge_pages.hpp). For records that point into themselves (a body's record holds
/// its certificate list, whose first entries lie in place: kds/body_links.hpp), where
/// std::deque cut them into 512-byte blocks scattered over small pages: at a million
/// bodies nearly every record read also missed the TLB.

#include <bit>
#include <cstddef>
#include <new>
#include <utility>
#include <vector>

#include "kds/huge_pages.hpp"

namespace kds {

template <class T>
class StableArray {
  /// Elements in a full chunk: enough to fill a huge page (a chunk of at least
  /// huge_pages::threshold bytes gets a mapping of its own, advised to huge pages).
  static constexpr std::size_t full = (huge_pages::threshold + sizeof(T) - 1) / sizeof(T);
  static constexpr std::size_t first = full < 256 ? full : 256;  // elements in chunk 0
  /// Chunks of doubling size before the full ones: first, 2 first, ... while below `full`.
  static constexpr std::size_t growing = [] {
    std::size_t k = 0;
    while ((first << k) < full) ++k;
    return k;
  }();
  static constexpr std::size_t before_full = first * ((std::size_t{1} << growing) - 1);  // their elements

 public:
  /// Bytes of a full chunk (for tests: at least huge_pages::threshold).
  static constexpr std::size_t full_chunk_bytes() { return full * sizeof(T); }

  StableArray() = default;
  StableArray(const StableArray&) = delete;
  StableArray& operator=(const StableArray&) = delete;
  ~StableArray() {
    for (std::size_t i = 0; i < size_; ++i) (*this)[i].~T();
    for (std::size_t k = 0; k < chunks_.size(); ++k)
      huge_pages::deallocate(chunks_[k], capacity(k) * sizeof(T), alignof(T));
  }

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) {
    const auto [k, offset] = locate(i);
    return chunks_[k][offset];
  }
  const T& operator[](std::size_t i) const { return const_cast<StableArray&>(*this)[i]; }

  template <class... Args>
  T& emplace_back(Args&&... args) {
    const auto [k, offset] = locate(size_);
    if (k == chunks_.size()) {
      chunks_.reserve(k + 1);  // before allocating: nothing to free if it throws
      chunks_.push_back(static_cast<T*>(huge_pages::allocate(capacity(k) * sizeof(T), alignof(T))));
    }
    T* p = new (chunks_[k] + offset) T(std::forward<Args>(args)...);
    ++size_;
    return *p;
  }

 private:
  static constexpr std::size_t capacity(std::size_t k) { return k < growing ? first << k : full; }
  static_assert(full * sizeof(T) >= huge_pages::threshold, "a full chunk fills a huge page");
  /// The chunk and the place in it of element i.
  static std::pair<std::size_t, std::size_t> locate(std::size_t i) {
    if (i < before_full) {
      const std::size_t k = static_cast<std::size_t>(std::bit_width(i / first + 1)) - 1;
      return {k, i - first * ((std::size_t{1} << k) - 1)};
    }
    const std::size_t j = i - before_full;
    return {growing + j / full, j % full};
  }

  std::vector<T*> chunks_;
  std::size_t size_ = 0;
};

}  // namespace kds
