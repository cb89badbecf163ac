// Storage of certificates: per-size free lists over slabs, so that the create/destroy
// traffic of a running simulation reuses memory instead of calling malloc at every event,
// and a structure's certificates lie side by side, on huge pages once there are many.
#include "kds/certificate.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
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
constexpr std::size_t kClasses = 64;  // blocks up to 1008 bytes are pooled; larger go to ::operator new

std::size_t size_class(std::size_t size) { return (size + kGranule - 1) / kGranule; }

/// New certificates are cut from slabs: 64 KiB first, doubling up to one huge page
/// (huge_pages::threshold), then huge pages. Before the slabs each certificate was a malloc
/// block of its own, scattered over small pages: at 10^5 and more certificates, nearly every
/// certificate an event reads then also missed the TLB.
constexpr std::size_t kFirstSlab = std::size_t{64} << 10;
constexpr std::size_t kSlabAlignment = 64;

/// A free block holds the next free block of its list: freeing and handing blocks on
/// allocate nothing (operator delete is noexcept, and runs in destructors at thread exit).
struct FreeBlock {
  FreeBlock* next;
};

void push(FreeBlock*& head, void* p) {
  auto* b = static_cast<FreeBlock*>(p);
  b->next = head;
  head = b;
}
void* pop(FreeBlock*& head) {
  FreeBlock* b = head;
  head = b->next;
  return b;
}

/// What outlives every thread: the slabs (never returned: the free lists of every thread
/// may point into any of them, as a certificate may be destroyed on another thread than
/// the one that made it), and the blocks of threads that exited, for the next ones.
struct Shared {
  std::mutex mutex;
  std::vector<void*> slabs;  // kept reachable, for leak checkers
  FreeBlock* orphans[kClasses] = {};
  /// Bit c set while orphans[c] may hold blocks (written under the mutex): read without
  /// it, so that a thread cutting new blocks takes the lock only when there may be
  /// orphans to reuse. A stale read costs a new block or a lock taken for nothing.
  std::atomic<std::uint64_t> orphaned{0};
  static_assert(kClasses <= 64, "one bit per class");

  void orphan(std::size_t c, void* p) {
    push(orphans[c], p);
    orphaned.fetch_or(std::uint64_t{1} << c, std::memory_order_relaxed);
  }
};

Shared& shared() {
  static Shared* s = new Shared;  // never destroyed: thread exits may come after static destruction
  return *s;
}

/// A thread's lists and slab. Trivially destructible, so that it stays usable while the
/// thread's other thread_local objects are destroyed (a certificate freed by one of them,
/// or by a static object after main's thread_locals are gone): once `gone` (its lists
/// handed on by Handoff), blocks freed on this thread go straight to the orphans.
struct Store {
  FreeBlock* lists[kClasses];
  char* cursor;
  char* end;
  std::size_t next_slab;
  bool gone;
};
constinit thread_local Store store{};

/// Hands the thread's free blocks to the orphans when the thread exits.
struct Handoff {
  Handoff() = default;
  Handoff(const Handoff&) = delete;
  Handoff& operator=(const Handoff&) = delete;
  ~Handoff() {
    Shared& s = shared();
    std::lock_guard lock(s.mutex);
    for (std::size_t c = 0; c < kClasses; ++c)
      while (store.lists[c] != nullptr) s.orphan(c, pop(store.lists[c]));
    store.gone = true;  // the rest of the current slab is dropped: at most one tail per thread
  }
};
thread_local Handoff handoff;

/// Registers the thread's Handoff (a thread_local with a destructor is constructed on its
/// first use): called on the slow paths only.
void arm_handoff() { static_cast<void>(&handoff); }

/// A block of class c when the thread's list is empty: an orphan, else cut from the slab
/// (a new slab when the current one has no room).
void* cut(std::size_t c) {
  const std::size_t bytes = c * kGranule;
  Shared& s = shared();
  const std::uint64_t bit = std::uint64_t{1} << c;
  if (s.orphaned.load(std::memory_order_relaxed) & bit) {
    std::lock_guard lock(s.mutex);
    if (s.orphans[c] != nullptr) {
      void* p = pop(s.orphans[c]);
      if (s.orphans[c] == nullptr) s.orphaned.fetch_and(~bit, std::memory_order_relaxed);
      return p;
    }
  }
  if (static_cast<std::size_t>(store.end - store.cursor) < bytes) {
    std::lock_guard lock(s.mutex);  // the list of slabs is shared
    const std::size_t size = std::max({store.next_slab, kFirstSlab, bytes});
    s.slabs.reserve(s.slabs.size() + 1);  // before allocating: nothing to lose if it throws
    char* slab = static_cast<char*>(huge_pages::allocate(size, kSlabAlignment));
    s.slabs.push_back(slab);
    store.cursor = slab;
    store.end = slab + size;
    store.next_slab = std::min(2 * size, huge_pages::threshold);
  }
  void* p = store.cursor;
  store.cursor += bytes;
  return p;
}

#endif

}  // namespace

#if !defined(KDS_CERTIFICATES_UNPOOLED)

void* CertificateBase::operator new(std::size_t size) {
  const std::size_t c = size_class(size);
  if (c >= kClasses) return ::operator new(size);
  if (store.lists[c] != nullptr) return pop(store.lists[c]);
  if (!store.gone) arm_handoff();
  return cut(c);
}

void CertificateBase::operator delete(void* p, std::size_t size) noexcept {
  if (p == nullptr) return;
  const std::size_t c = size_class(size);
  if (c >= kClasses) {
    ::operator delete(p);
    return;
  }
  if (!store.gone) {
    if (store.lists[c] == nullptr) arm_handoff();  // a thread that only frees hands on too
    push(store.lists[c], p);
    return;
  }
  Shared& s = shared();
  std::lock_guard lock(s.mutex);
  s.orphan(c, p);
}

#else

void* CertificateBase::operator new(std::size_t size) { return ::operator new(size); }
void CertificateBase::operator delete(void* p, std::size_t) noexcept { ::operator delete(p); }

#endif

}  // namespace kds
