// The allocator of large arrays (kds/huge_pages.hpp): alignment and contents across the
// threshold where it maps its own memory, vectors growing through it, and that a large
// array's mapping is advised to transparent huge pages (the kernel's flag on it).
#include "kds/huge_pages.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <sstream>
#include <string>
#include <vector>

namespace {

using kds::LargeVector;
namespace huge_pages = kds::huge_pages;

constexpr std::size_t huge_page = std::size_t{2} << 20;

bool aligned(const void* p, std::size_t to) { return reinterpret_cast<std::uintptr_t>(p) % to == 0; }

TEST(HugePages, AlignedWritableAndFreedOnEitherSideOfTheThreshold) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4096}, huge_pages::threshold - 8, huge_pages::threshold,
                                  huge_pages::threshold + 1, 3 * huge_page + 12345, 5 * huge_page}) {
    for (const std::size_t alignment : {std::size_t{8}, std::size_t{64}, std::size_t{4096}}) {
      void* p = huge_pages::allocate(bytes, alignment);
      ASSERT_NE(p, nullptr);
      EXPECT_TRUE(aligned(p, alignment)) << bytes << " bytes aligned to " << alignment;
      if (huge_pages::enabled() && bytes >= huge_pages::threshold)
        EXPECT_TRUE(aligned(p, huge_page)) << bytes << " bytes: a mapping of its own starts on a huge page";
      // Every byte is ours: write a pattern over all of it and read it back at both ends.
      std::memset(p, 0xA5, bytes);
      const auto* c = static_cast<const unsigned char*>(p);
      EXPECT_EQ(c[0], 0xA5);
      EXPECT_EQ(c[bytes - 1], 0xA5);
      huge_pages::deallocate(p, bytes, alignment);
    }
  }
}

TEST(HugePages, SizesNearTheLargestThrowBadAlloc) {
  // Rounding such a size up to whole pages wrapped around, and a pointer to memory given
  // back came out (found by review).
  constexpr std::size_t largest = std::numeric_limits<std::size_t>::max();
  for (const std::size_t bytes : {largest, largest - 10, largest - huge_page, largest / 2 + 1})
    EXPECT_THROW(huge_pages::allocate(bytes, 8), std::bad_alloc) << bytes << " bytes";
  EXPECT_THROW(kds::HugePageAllocator<char>().allocate(largest), std::bad_alloc);
  EXPECT_THROW(kds::HugePageAllocator<double>().allocate(largest / 4), std::bad_alloc);  // n * 8 overflows
}

TEST(HugePages, VectorKeepsItsContentsGrowingPastTheThreshold) {
  LargeVector<std::uint64_t> v;
  const std::size_t n = 3 * huge_pages::threshold / sizeof(std::uint64_t);
  for (std::uint64_t i = 0; i < n; ++i) v.push_back(i * 2654435761u);  // reallocates across the threshold
  for (std::uint64_t i = 0; i < n; i += 997) ASSERT_EQ(v[i], i * 2654435761u) << "element " << i;
  EXPECT_EQ(v.back(), (n - 1) * 2654435761u);
  v.resize(10);  // shrinking keeps the mapping; shrink_to_fit moves back below the threshold
  v.shrink_to_fit();
  ASSERT_EQ(v.size(), 10u);
  EXPECT_EQ(v[9], 9 * std::uint64_t{2654435761u});
}

struct alignas(64) Line {
  double x[8];
};

TEST(HugePages, OveralignedElementsStayAligned) {
  for (const std::size_t n : {std::size_t{3}, 2 * huge_pages::threshold / sizeof(Line)}) {
    LargeVector<Line> v(n);
    EXPECT_TRUE(aligned(v.data(), 64)) << n << " lines";
    EXPECT_TRUE(aligned(&v.back(), 64)) << n << " lines";
  }
}

/// The first word of a file, "" if it cannot be read; for the kernel's settings, the word in
/// brackets ("always [madvise] never" gives "madvise").
std::string setting(const char* path) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return "";
  const std::size_t open = line.find('['), close = line.find(']');
  return open != std::string::npos && close > open ? line.substr(open + 1, close - open - 1) : "";
}

/// A field of the mapping of /proc/self/smaps that holds `p` ("VmFlags", "AnonHugePages"):
/// the rest of its line, "" if there is none.
std::string smaps_field_at(const void* p, const std::string& field) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(':') > line.find(' ')) {
      inside = lo <= at && at < hi;
      continue;
    }
    if (inside && line.rfind(field + ":", 0) == 0) return line.substr(field.size() + 1);
  }
  return "";
}

TEST(HugePages, LargeArraysAreAdvisedToHugePages) {
  // What this code decides is the advice, which the kernel records on the mapping as the
  // flag "hg" whatever it can grant; whether a huge page is granted on a fault also
  // depends on free, unfragmented memory, so that is printed, not asserted.
  if (!huge_pages::enabled()) GTEST_SKIP() << "large arrays are not mapped here: KDS_HUGE_PAGES is off, not Linux, or AddressSanitizer";
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"))
    GTEST_SKIP() << "this kernel has no transparent huge pages";
  LargeVector<double> v(4 * huge_page / sizeof(double), 1.0);  // touched: the pages exist
  const std::string flags = smaps_field_at(v.data(), "VmFlags");
  ASSERT_FALSE(flags.empty()) << "no mapping in /proc/self/smaps holds the array";
  EXPECT_NE((flags + " ").find(" hg "), std::string::npos) << "VmFlags:" << flags;
  std::printf("transparent huge pages: enabled [%s], defrag [%s]; AnonHugePages of the array's mapping:%s\n",
              setting("/sys/kernel/mm/transparent_hugepage/enabled").c_str(),
              setting("/sys/kernel/mm/transparent_hugepage/defrag").c_str(), smaps_field_at(v.data(), "AnonHugePages").c_str());
}

}  // namespace
