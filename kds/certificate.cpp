// Storage of certificates: per-size free lists over slabs, so that the create/destroy
// traffic of a running simulation reuses memory instead of calling malloc at every event,
// and a structure's certificates lie side by side, on huge pages once there are many.
#include "kds/certificate.hpp"

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <new>
#include <vector>

#include "kds/huge_pages.hpp"

// Under AddressSanitizer every certificate takes operator new of its own (as before the
// slabs), so that a read past its end still lands in a red zone.
#if defined(__SANITIZE_ADDRESS__)
#define KDS_CERTIFICATES_UNPOOLED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KDS_CERTIFICATES_UNPOOLED 1
#endif
#endif

namespace kds {
namespace {

#if !defined(KDS_CERTIFICATES_UNPOOLED)

constexpr std::size_t kGranule = 16;
constexpr std::size_t kClasses = 64;  // sizes up to 1 KiB are pooled; larger go to ::operator new

std::size_t size_class(std::size_t size) { return (size + kGranule - 1) / kGranule; }

/// New certificates are cut from slabs: 64 KiB first, doubling up to one huge page
/// (huge_pages::threshold), then huge pages. Before the slabs each certificate was a malloc
/// block of its own, scattered over small pages: at 10^5 and more certificates, nearly every
/// certificate an event reads then also missed the TLB (glibc's malloc on huge pages took
/// the generic sorted list at 10^6 to 0.78x of its time, the arrays alone to 0.945x).
constexpr std::size_t kFirstSlab = std::size_t{64} << 10;
constexpr std::size_t kSlabAlignment = 64;

/// What outlives every thread: the slabs (never returned: the free lists of every thread
/// may point into any of them, as a certificate may be destroyed on another thread than
/// the one that made it), and the blocks an exiting thread leaves, for the next ones.
struct Shared {
  std::mutex mutex;
  std::vector<void*> slabs;  // kept reachable, for leak checkers
  std::vector<void*> orphans[kClasses];
};

Shared& shared() {
  static Shared* s = new Shared;  // never destroyed: thread exits may come after static destruction
  return *s;
}

struct Store {
  std::vector<void*> lists[kClasses];
  char* cursor = nullptr;
  char* end = nullptr;
  std::size_t next_slab = kFirstSlab;

  ~Store() {
    Shared& s = shared();
    std::lock_guard lock(s.mutex);
    for (std::size_t c = 0; c < kClasses; ++c) s.orphans[c].insert(s.orphans[c].end(), lists[c].begin(), lists[c].end());
    // The rest of the current slab is dropped: at most one slab's tail per thread.
  }

  void* cut(std::size_t c) {
    const std::size_t bytes = c * kGranule;
    if (static_cast<std::size_t>(end - cursor) < bytes) {
      Shared& s = shared();
      std::lock_guard lock(s.mutex);
      if (!s.orphans[c].empty()) {
        void* p = s.orphans[c].back();
        s.orphans[c].pop_back();
        return p;
      }
      const std::size_t size = std::max(next_slab, bytes);
      cursor = static_cast<char*>(huge_pages::allocate(size, kSlabAlignment));
      end = cursor + size;
      s.slabs.push_back(cursor);
      next_slab = std::min(2 * next_slab, huge_pages::threshold);
    }
    void* p = cursor;
    cursor += bytes;
    return p;
  }
};

Store& store() {
  thread_local Store s;
  return s;
}

#endif

}  // namespace

#if !defined(KDS_CERTIFICATES_UNPOOLED)

void* CertificateBase::operator new(std::size_t size) {
  const std::size_t c = size_class(size);
  if (c >= kClasses) return ::operator new(size);
  Store& s = store();
  auto& list = s.lists[c];
  if (list.empty()) return s.cut(c);
  void* p = list.back();
  list.pop_back();
  return p;
}

void CertificateBase::operator delete(void* p, std::size_t size) noexcept {
  if (p == nullptr) return;
  const std::size_t c = size_class(size);
  if (c >= kClasses) {
    ::operator delete(p);
    return;
  }
  try {
    store().lists[c].push_back(p);
  } catch (...) {
    // Out of memory for the list itself: the block stays in its slab, unused.
  }
}

#else

void* CertificateBase::operator new(std::size_t size) { return ::operator new(size); }
void CertificateBase::operator delete(void* p, std::size_t) noexcept { ::operator delete(p); }

#endif

}  // namespace kds
