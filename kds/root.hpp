#pragma once
/// \file
/// A failure time: a real root of a certificate function, or infinity.
///
/// A root is held as an isolating interval [lo, hi] of doubles that contains it and no
/// other root of its polynomial. Most comparisons are decided by the intervals alone.
/// When two intervals overlap, the exact algebraic number (CGAL's Algebraic_kernel_d_1)
/// is computed on demand, from the function that produced the root (its *source*).
/// The simulator keeps a root's source alive while the root is in use (see
/// docs/architecture.md, "Exactness").

#include <cstdint>
#include <limits>
#include <ostream>
#include <utility>

#include "kds/function.hpp"

namespace kds {

struct ExactRoot;  // an algebraic real; defined where CGAL is included (kds/exact/)

/// A counted reference to an exact root, shared by the copies of a Root: one word, where
/// std::shared_ptr takes two (a failure time sits in every certificate, and an exact
/// root is built for few of them; issue 8). Counted in the root itself
/// (kds/exact/algebraic.cpp).
class ExactRootRef {
 public:
  ExactRootRef() = default;
  /// Takes over a root just made, whose count is 1.
  static ExactRootRef adopt(const ExactRoot* fresh) {
    ExactRootRef r;
    r.p_ = fresh;
    return r;
  }
  ExactRootRef(const ExactRootRef& o) noexcept : p_(o.p_) {
    if (p_ != nullptr) retain(p_);
  }
  ExactRootRef(ExactRootRef&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  ExactRootRef& operator=(ExactRootRef o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~ExactRootRef() {
    if (p_ != nullptr) release(p_);
  }
  const ExactRoot* get() const { return p_; }
  const ExactRoot& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  static void retain(const ExactRoot* p) noexcept;
  static void release(const ExactRoot* p) noexcept;
  const ExactRoot* p_ = nullptr;
};

class Root {
 public:
  /// Infinity: never.
  Root() = default;
  static Root infinity() { return Root(); }
  /// Exactly the double t.
  static Root at(double t) { return Root(t, t, nullptr, ExactRootRef()); }
  /// The unique root of `source` in [lo, hi]; its exact value is computed only if needed.
  static Root isolated(double lo, double hi, const Function* source) { return Root(lo, hi, source, ExactRootRef()); }
  /// A root whose exact value is already known.
  static Root exact(double lo, double hi, ExactRootRef e) { return Root(lo, hi, nullptr, std::move(e)); }

  double lo() const { return lo_; }
  double hi() const { return hi_; }
  /// A double within the isolating interval (for output, never for decisions).
  double approx() const { return is_point() ? lo_ : lo_ + 0.5 * (hi_ - lo_); }
  bool is_infinite() const { return lo_ == std::numeric_limits<double>::infinity(); }
  bool is_point() const { return lo_ == hi_; }
  const Function* source() const { return reinterpret_cast<const Function*>(source_ & ~flags); }

  /// The exact algebraic number, computed from the source on first use.
  const ExactRoot& exact() const;
  bool has_exact() const { return static_cast<bool>(exact_); }
  /// Narrows the isolating interval by bisection with the source's interval polynomial,
  /// then its double-double balls where intervals cannot tell, as far as they decide;
  /// never the exact path (the value is unchanged; comparisons use it on overlap).
  void tighten() const;
  /// Computes the exact value now, so that the root no longer needs its source: called
  /// before the data its source reads changes (Simulator::pin_clock).
  void pin() const {
    if (!is_point() && !is_infinite()) (void)exact();
    source_ |= pinned_flag;
  }
  /// For a copy of `pinned` (the same source, taken before it was pinned): takes its exact
  /// value, so that the copy no longer needs the source either (Simulator::pin_clock).
  void share_exact(const Root& pinned) const {
    if (source() == nullptr || source() != pinned.source() || lo_ > pinned.hi_ || pinned.lo_ > hi_) return;
    if (!exact_ && pinned.exact_) exact_ = pinned.exact_;
    source_ |= pinned.source_ & pinned_flag;
  }
  /// Whether pin() (or share_exact() from a pinned root) was called: the source may have
  /// changed since, and only the exact value describes the root. For the simulator's
  /// clock and the copies of it that the simulator notes, while false the source still is
  /// the function whose root this is, even if the exact value is known (a comparison
  /// computed it): first_failure() reads it (Function::same_or_negated). Other roots are
  /// never pinned and promise nothing by it.
  bool pinned() const { return (source_ & pinned_flag) != 0; }

  friend std::ostream& operator<<(std::ostream& os, const Root& r) {
    if (r.is_infinite()) return os << "never";
    if (r.is_point()) return os << r.lo_;
    return os << '[' << r.lo_ << ", " << r.hi_ << ']';
  }

 private:
  Root(double lo, double hi, const Function* src, ExactRootRef e)
      : lo_(lo), hi_(hi), source_(reinterpret_cast<std::uintptr_t>(src)), exact_(std::move(e)) {}

  // Two flags in the source's low bits (a Function is aligned to 8 at least): 32 bytes in
  // all, the last part of every certificate (issue 8).
  static constexpr std::uintptr_t tight_flag = 1;   // tighten() has run (or need not)
  static constexpr std::uintptr_t pinned_flag = 2;  // pinned()
  static constexpr std::uintptr_t flags = tight_flag | pinned_flag;
  static_assert(alignof(Function) > flags, "kds: Root keeps two flags in the low bits of its source's address");

  // Mutable for tighten(): narrowing the interval does not change the number.
  mutable double lo_ = std::numeric_limits<double>::infinity();
  mutable double hi_ = std::numeric_limits<double>::infinity();
  mutable std::uintptr_t source_ = 0;  // the source's address | flags
  mutable ExactRootRef exact_;
};

/// Three-way comparison of two roots: -1, 0 or 1. Filtered: intervals first, the exact
/// algebraic comparison only when they overlap (counted in solver_counters()).
int compare(const Root& a, const Root& b);
inline bool operator<(const Root& a, const Root& b) { return compare(a, b) < 0; }
inline bool operator==(const Root& a, const Root& b) { return compare(a, b) == 0; }

/// Compares a root with a double, exactly.
int compare(const Root& a, double t);

}  // namespace kds
