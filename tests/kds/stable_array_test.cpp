// The array whose elements never move (kds/stable_array.hpp): every element keeps its
// address and value as it grows through chunks of doubling size to full huge-page chunks,
// and each element is destroyed once.
#include "kds/stable_array.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

struct Counted {
  explicit Counted(std::uint64_t v, int* alive) : value(v), alive(alive) { ++*alive; }
  ~Counted() { --*alive; }
  Counted(const Counted&) = delete;
  Counted& operator=(const Counted&) = delete;
  std::uint64_t value;
  int* alive;
  char pad[16];  // 32 bytes: the bodies' record size
};

TEST(StableArray, ElementsKeepTheirAddressAndValueAcrossChunks) {
  int alive = 0;
  {
    kds::StableArray<Counted> a;
    // Past the doubling chunks (256 + 512 + ... + 65536 = 130816 elements of 32 bytes)
    // and two full ones.
    const std::size_t n = 130816 + 2 * 65536 + 17;
    std::vector<const Counted*> where;
    where.reserve(n);
    for (std::size_t i = 0; i < n; ++i) where.push_back(&a.emplace_back(i * 2654435761u, &alive));
    ASSERT_EQ(a.size(), n);
    EXPECT_EQ(alive, static_cast<int>(n));
    std::size_t breaks = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(&a[i], where[i]) << "element " << i << " moved";
      ASSERT_EQ(a[i].value, i * 2654435761u) << "element " << i;
      if (i > 0 && where[i] != where[i - 1] + 1) ++breaks;
    }
    // Contiguous within a chunk: a break only where a chunk ends (9 doubling chunks, then
    // full ones), wherever the chunks were placed.
    EXPECT_LE(breaks, 9u + 2u);
    const kds::StableArray<Counted>& c = a;
    EXPECT_EQ(&c[256], where[256]);  // the first element of the second chunk
  }
  EXPECT_EQ(alive, 0) << "every element destroyed once";
}

}  // namespace
