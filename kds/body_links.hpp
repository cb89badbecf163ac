#pragma once
/// \file
/// The list each body keeps of the certificates that name it: a motion change reschedules
/// exactly those (kds/bodies.hpp). An array per body, unordered: a certificate knows where
/// its entry lies in each of its bodies' lists (CertificateBase's link indices), and
/// leaving a list moves the list's last entry into the hole (Simulator::unlink).
///
/// An array rather than an intrusive list hooked into each certificate (issue 8): the
/// hooks took 96 of a certificate's 232 bytes, a walk over a body's certificates waited
/// for each link's cache line before it could ask for the next, and leaving a list wrote
/// into the two neighbouring certificates. Here a walk reads consecutive words, and a
/// certificate's own memory holds four 32-bit indices.

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace kds {

class CertificateBase;

/// One entry of a body's list: the certificate, and which of its bodies (0 to 3) the
/// list's body is, in one word (a certificate is aligned to at least 8 bytes, so the low
/// bits of its address are free).
class BodyLink {
 public:
  static constexpr std::size_t max_position = 3;

  BodyLink() = default;
  BodyLink(CertificateBase* owner, std::size_t position)
      : bits_(reinterpret_cast<std::uintptr_t>(owner) | static_cast<std::uintptr_t>(position)) {}
  CertificateBase* owner() const { return reinterpret_cast<CertificateBase*>(bits_ & ~mask); }
  /// The body's position among the owner's bodies (CertificateBase::bodies()).
  std::size_t position() const { return static_cast<std::size_t>(bits_ & mask); }
  friend bool operator==(BodyLink, BodyLink) = default;

 private:
  static constexpr std::uintptr_t mask = max_position;
  std::uintptr_t bits_ = 0;
};

/// A body's certificates, in no particular order. Room for three in place (a sorted
/// list's key has two neighbours, and three while a swap renews them), then an array that
/// doubles and never shrinks: once a body has had its most certificates, linking allocates
/// nothing (the hot path, issue 8). 32 bytes, and nothing in it points into itself, so the
/// bodies keep their lists in one array (Bodies), which may move them as it grows.
class CertificateList {
 public:
  CertificateList() = default;
  CertificateList(CertificateList&& o) noexcept : size_(o.size_), capacity_(o.capacity_), store_(o.store_) {
    o.size_ = 0;
    o.capacity_ = in_place;
    o.store_ = Store();
  }
  CertificateList& operator=(CertificateList&& o) noexcept {
    if (this != &o) {
      release();
      size_ = o.size_;
      capacity_ = o.capacity_;
      store_ = o.store_;
      o.size_ = 0;
      o.capacity_ = in_place;
      o.store_ = Store();
    }
    return *this;
  }
  CertificateList(const CertificateList&) = delete;
  CertificateList& operator=(const CertificateList&) = delete;
  ~CertificateList() { release(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const BodyLink* begin() const { return data(); }
  const BodyLink* end() const { return data() + size_; }
  const BodyLink& operator[](std::size_t i) const { return data()[i]; }
  BodyLink& operator[](std::size_t i) { return data()[i]; }
  const BodyLink& back() const { return data()[size_ - 1]; }

  void push_back(BodyLink l) {
    if (size_ == capacity_) [[unlikely]]
      grow();
    data()[size_++] = l;
  }

  void pop_back() { --size_; }

 private:
  static constexpr std::uint32_t in_place = 3;

  BodyLink* data() { return capacity_ > in_place ? store_.heap : store_.place; }
  const BodyLink* data() const { return capacity_ > in_place ? store_.heap : store_.place; }
  void release() {
    if (capacity_ > in_place) delete[] store_.heap;
  }
  [[gnu::noinline]] void grow() {
    const std::uint32_t capacity = capacity_ * 2;
    BodyLink* grown = new BodyLink[capacity];
    std::copy(begin(), end(), grown);
    release();
    store_.heap = grown;
    capacity_ = capacity;
  }

  std::uint32_t size_ = 0;
  std::uint32_t capacity_ = in_place;
  union Store {
    Store() : place{} {}
    BodyLink place[in_place];  // while capacity_ == in_place
    BodyLink* heap;            // beyond
  } store_;
};
static_assert(sizeof(CertificateList) == 32);

}  // namespace kds
