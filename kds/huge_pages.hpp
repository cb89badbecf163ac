#pragma once
/// \file
/// Large arrays on huge pages: an allocator for the arrays that an event reads at random
/// places (a structure's records by body or by rank, a calendar's bins and links, the
/// event queue's heap, the simulator's certificate slots, a key table).
///
/// Why: at a million bodies these arrays span tens of megabytes. With 4 KiB pages nearly
/// every random read then also misses the TLB and walks the page tables; with 2 MiB pages
/// the TLB covers gigabytes. On Linux, where transparent huge pages are commonly enabled
/// for regions that ask for them (`madvise` in /sys/kernel/mm/transparent_hugepage/enabled),
/// an array of at least `huge_pages::threshold` bytes gets a mapping of its own, aligned to
/// 2 MiB, and its whole 2 MiB blocks are advised MADV_HUGEPAGE. The tail past the last
/// whole block keeps small pages. An array sized exactly (assign, resize) is then as
/// resident as before; one with spare capacity (grown by push_back) may hold up to one
/// huge page more, the block its end lies in, which becomes resident whole once touched.
/// Smaller arrays, other systems, builds under AddressSanitizer (which does not watch such
/// mappings), and the environment variable KDS_HUGE_PAGES=0 (or off, false, no; read once,
/// for measuring the difference with the same binary) take plain operator new.
///
/// The kernel may still decline (no free huge page, the setting `never`, or huge pages of
/// another size than 2 MiB, as on kernels with 64 KiB pages): the memory is then ordinary
/// memory and nothing else changes.

#include <cstddef>
#include <limits>
#include <new>
#include <vector>

namespace kds {

namespace huge_pages {

/// Arrays from this size on (one huge page) get a mapping of their own. A million 4-byte
/// ids (4 MB) must pass it: they are read at random as much as the larger records.
inline constexpr std::size_t threshold = std::size_t{2} << 20;

/// False if KDS_HUGE_PAGES is "0", "off", "false" or "no" (any case), on systems without
/// madvise, and under AddressSanitizer; read once.
bool enabled();
/// `bytes` aligned to `alignment` (a power of two); std::bad_alloc if the system refuses.
void* allocate(std::size_t bytes, std::size_t alignment);
/// Frees what allocate(bytes, alignment) returned, given the same arguments.
void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept;

}  // namespace huge_pages

/// A standard allocator over huge_pages::allocate: stateless, all instances equal.
template <class T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(huge_pages::allocate(n * sizeof(T), alignof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { huge_pages::deallocate(p, n * sizeof(T), alignof(T)); }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

/// A std::vector whose storage, once large, lies on huge pages.
template <class T>
using LargeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace kds
