// Storage of certificates: per-size free lists, so that the create/destroy traffic of a
// running simulation reuses memory instead of calling malloc at every event.
#include "kds/certificate.hpp"

#include <new>
#include <vector>

namespace kds {
namespace {

constexpr std::size_t kGranule = 16;
constexpr std::size_t kClasses = 64;  // sizes up to 1 KiB are pooled; larger go to ::operator new

struct FreeLists {
  std::vector<void*> lists[kClasses];
  ~FreeLists() {
    for (auto& l : lists)
      for (void* p : l) ::operator delete(p);
  }
};

FreeLists& free_lists() {
  thread_local FreeLists f;
  return f;
}

std::size_t size_class(std::size_t size) { return (size + kGranule - 1) / kGranule; }

}  // namespace

void* CertificateBase::operator new(std::size_t size) {
  const std::size_t c = size_class(size);
  if (c >= kClasses) return ::operator new(size);
  auto& list = free_lists().lists[c];
  if (list.empty()) return ::operator new(c * kGranule);
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
    free_lists().lists[c].push_back(p);
  } catch (...) {
    ::operator delete(p);
  }
}

}  // namespace kds
