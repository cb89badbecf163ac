#include "kds/huge_pages.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>

// AddressSanitizer does not watch memory mapped here: under it, large arrays take
// operator new like small ones, so that reads past their ends are still reported.
#if defined(__SANITIZE_ADDRESS__)
#define KDS_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KDS_UNDER_ASAN 1
#endif
#endif

#if defined(__linux__) && !defined(KDS_UNDER_ASAN)
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
    if (v == nullptr) return true;
    std::string value(v);
    for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return value != "0" && value != "off" && value != "false" && value != "no";
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
    // Checked before rounding up, which could wrap around (found by review).
    if (bytes > std::numeric_limits<std::size_t>::max() - huge - small_page()) throw std::bad_alloc();
    const std::size_t length = round_up(bytes, small_page());
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
  // The unsized form: the sized one is declared only with -fsized-deallocation, which
  // Clang before 19 leaves off (found by review).
  static_cast<void>(bytes);  // read only where arrays are mapped here
  ::operator delete(p, std::align_val_t{alignment});
}

}  // namespace kds::huge_pages
