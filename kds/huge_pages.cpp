#include "kds/huge_pages.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#define KDS_HAVE_MADVISE 1
#endif

namespace kds::huge_pages {

namespace {

#if defined(KDS_HAVE_MADVISE)
constexpr std::size_t huge = std::size_t{2} << 20;

std::size_t small_page() {
  static const std::size_t size = [] {
    const long s = sysconf(_SC_PAGESIZE);
    return s > 0 ? static_cast<std::size_t>(s) : std::size_t{4096};
  }();
  return size;
}

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

/// Whether allocate() mapped these bytes itself (the same answer in deallocate()).
bool mapped(std::size_t bytes, std::size_t alignment) {
  return bytes >= threshold && alignment <= huge && enabled();
}
#endif

}  // namespace

bool enabled() {
#if defined(KDS_HAVE_MADVISE)
  static const bool on = [] {
    const char* v = std::getenv("KDS_HUGE_PAGES");
    return v == nullptr || (std::strcmp(v, "0") != 0 && std::strcmp(v, "off") != 0);
  }();
  return on;
#else
  return false;
#endif
}

void* allocate(std::size_t bytes, std::size_t alignment) {
#if defined(KDS_HAVE_MADVISE)
  if (mapped(bytes, alignment)) {
    // Map a huge page more than needed, keep the part that starts on a 2 MiB boundary and
    // give the rest back, so that the kept part's whole blocks can be huge pages.
    const std::size_t length = round_up(bytes, small_page());
    if (length > std::numeric_limits<std::size_t>::max() - huge) throw std::bad_alloc();
    void* raw = mmap(nullptr, length + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto begin = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t start = round_up(begin, huge);
    if (start > begin) munmap(raw, start - begin);
    const std::uintptr_t end = begin + length + huge, used = start + length;
    if (end > used) munmap(reinterpret_cast<void*>(used), end - used);
    // Advice only, over the whole blocks: if the kernel declines, the pages are small.
    madvise(reinterpret_cast<void*>(start), bytes / huge * huge, MADV_HUGEPAGE);
    return reinterpret_cast<void*>(start);
  }
#endif
  return ::operator new(bytes, std::align_val_t{alignment});
}

void deallocate(void* p, std::size_t bytes, std::size_t alignment) noexcept {
#if defined(KDS_HAVE_MADVISE)
  if (mapped(bytes, alignment)) {
    munmap(p, round_up(bytes, small_page()));
    return;
  }
#endif
  ::operator delete(p, bytes, std::align_val_t{alignment});
}

}  // namespace kds::huge_pages
