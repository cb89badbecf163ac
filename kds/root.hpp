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

#include <limits>
#include <memory>
#include <ostream>

#include "kds/function.hpp"

namespace kds {

struct ExactRoot;  // an algebraic real; defined where CGAL is included (kds/exact/)

class Root {
 public:
  /// Infinity: never.
  Root() = default;
  static Root infinity() { return Root(); }
  /// Exactly the double t.
  static Root at(double t) { return Root(t, t, nullptr, nullptr); }
  /// The unique root of `source` in [lo, hi]; its exact value is computed only if needed.
  static Root isolated(double lo, double hi, const Function* source) { return Root(lo, hi, source, nullptr); }
  /// A root whose exact value is already known.
  static Root exact(double lo, double hi, std::shared_ptr<const ExactRoot> e) { return Root(lo, hi, nullptr, std::move(e)); }

  double lo() const { return lo_; }
  double hi() const { return hi_; }
  /// A double within the isolating interval (for output, never for decisions).
  double approx() const { return is_point() ? lo_ : lo_ + 0.5 * (hi_ - lo_); }
  bool is_infinite() const { return lo_ == std::numeric_limits<double>::infinity(); }
  bool is_point() const { return lo_ == hi_; }
  const Function* source() const { return source_; }

  /// The exact algebraic number, computed from the source on first use.
  const ExactRoot& exact() const;
  bool has_exact() const { return exact_ != nullptr; }
  /// Narrows the isolating interval by bisection with the source's interval polynomial,
  /// then its double-double balls where intervals cannot tell, as far as they decide;
  /// never the exact path (the value is unchanged; comparisons use it on overlap).
  void tighten() const;
  /// Computes the exact value now, so that the root no longer needs its source: called
  /// before the data its source reads changes (Simulator::pin_clock).
  void pin() const {
    if (!is_point() && !is_infinite()) (void)exact();
    pinned_ = true;
  }
  /// For a copy of `pinned` (the same source, taken before it was pinned): takes its exact
  /// value, so that the copy no longer needs the source either (Simulator::pin_clock).
  void share_exact(const Root& pinned) const {
    if (source_ == nullptr || source_ != pinned.source_ || lo_ > pinned.hi_ || pinned.lo_ > hi_) return;
    if (exact_ == nullptr && pinned.exact_ != nullptr) exact_ = pinned.exact_;
    pinned_ = pinned_ || pinned.pinned_;
  }
  /// Whether pin() (or share_exact() from a pinned root) was called: the source may have
  /// changed since, and only the exact value describes the root. For the simulator's
  /// clock and the copies of it that the simulator notes, while false the source still is
  /// the function whose root this is, even if the exact value is known (a comparison
  /// computed it): first_failure() reads it (Function::same_or_negated). Other roots are
  /// never pinned and promise nothing by it.
  bool pinned() const { return pinned_; }

  friend std::ostream& operator<<(std::ostream& os, const Root& r) {
    if (r.is_infinite()) return os << "never";
    if (r.is_point()) return os << r.lo_;
    return os << '[' << r.lo_ << ", " << r.hi_ << ']';
  }

 private:
  Root(double lo, double hi, const Function* src, std::shared_ptr<const ExactRoot> e)
      : lo_(lo), hi_(hi), source_(src), exact_(std::move(e)) {}

  // Mutable for tighten(): narrowing the interval does not change the number.
  mutable double lo_ = std::numeric_limits<double>::infinity();
  mutable double hi_ = std::numeric_limits<double>::infinity();
  mutable bool tight_ = false;
  mutable bool pinned_ = false;
  const Function* source_ = nullptr;
  mutable std::shared_ptr<const ExactRoot> exact_;
};

/// Three-way comparison of two roots: -1, 0 or 1. Filtered: intervals first, the exact
/// algebraic comparison only when they overlap (counted in solver_counters()).
int compare(const Root& a, const Root& b);
inline bool operator<(const Root& a, const Root& b) { return compare(a, b) < 0; }
inline bool operator==(const Root& a, const Root& b) { return compare(a, b) == 0; }

/// Compares a root with a double, exactly.
int compare(const Root& a, double t);

}  // namespace kds
