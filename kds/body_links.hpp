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
#include <memory>

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

/// A body's certificates, in no particular order. Room for two in place (a sorted list's
/// key has two neighbours), then an array that doubles and never shrinks: once a body has
/// had its most certificates, linking allocates nothing (the hot path, issue 8). It points
/// into itself, so it never moves (the bodies' records live in a StableArray).
class CertificateList {
 public:
  CertificateList() = default;
  CertificateList(const CertificateList&) = delete;
  CertificateList& operator=(const CertificateList&) = delete;
  ~CertificateList() {
    if (data_ != in_place_) delete[] data_;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const BodyLink* begin() const { return data_; }
  const BodyLink* end() const { return data_ + size_; }
  const BodyLink& operator[](std::size_t i) const { return data_[i]; }
  BodyLink& operator[](std::size_t i) { return data_[i]; }
  const BodyLink& back() const { return data_[size_ - 1]; }

  void push_back(BodyLink l) {
    if (size_ == capacity_) grow();
    data_[size_++] = l;
  }
  void pop_back() { --size_; }

 private:
  static constexpr std::uint32_t in_place = 2;

  void grow() {
    const std::uint32_t capacity = capacity_ * 2;
    auto grown = std::make_unique<BodyLink[]>(capacity);
    std::copy(data_, data_ + size_, grown.get());
    if (data_ != in_place_) delete[] data_;
    data_ = grown.release();
    capacity_ = capacity;
  }

  BodyLink* data_ = in_place_;
  std::uint32_t size_ = 0;
  std::uint32_t capacity_ = in_place;
  BodyLink in_place_[in_place];
};

}  // namespace kds
