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
    // Past the doubling chunks (256 + 512 + ... + 32768 = 65280 elements of 32 bytes)
    // and four full ones (65536 elements: one huge page).
    const std::size_t n = 65280 + 4 * 65536 + 17;
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
    // Contiguous within a chunk: a break only where a chunk ends (8 doubling chunks, then
    // full ones), wherever the chunks were placed.
    EXPECT_LE(breaks, 8u + 4u);
    const kds::StableArray<Counted>& c = a;
    EXPECT_EQ(&c[256], where[256]);  // the first element of the second chunk
  }
  EXPECT_EQ(alive, 0) << "every element destroyed once";
}

TEST(StableArray, FullChunksFillAHugePageWhateverTheElementSize) {
  // A chunk smaller than a huge page would take plain operator new, not huge pages (found
  // by review: a power-of-two count of 24-byte elements made 1.5 MiB chunks).
  struct B24 {
    char c[24];
  };
  struct B40 {
    char c[40];
  };
  struct Big {
    char c[3 << 20];
  };
  EXPECT_GE(kds::StableArray<B24>::full_chunk_bytes(), kds::huge_pages::threshold);
  EXPECT_GE(kds::StableArray<B40>::full_chunk_bytes(), kds::huge_pages::threshold);
  EXPECT_GE(kds::StableArray<Counted>::full_chunk_bytes(), kds::huge_pages::threshold);
  EXPECT_EQ(kds::StableArray<Big>::full_chunk_bytes(), sizeof(Big));  // one element per chunk
  kds::StableArray<B24> a;
  std::vector<const B24*> where;
  for (std::size_t i = 0; i < 200000; ++i) {
    B24& b = a.emplace_back();
    b.c[0] = static_cast<char>(i);
    where.push_back(&b);
  }
  for (std::size_t i = 0; i < 200000; ++i) {
    ASSERT_EQ(&a[i], where[i]) << "element " << i;
    ASSERT_EQ(a[i].c[0], static_cast<char>(i)) << "element " << i;
  }
}

}  // namespace
