// The exact path: CGAL's Algebraic_kernel_d_1 over GMP integers. This is the only
// translation unit of kds that includes CGAL headers.
#include "kds/exact/algebraic.hpp"

#include <CGAL/Algebraic_kernel_d_1.h>
#include <CGAL/Gmpq.h>
#include <CGAL/Gmpz.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "kds/solver.hpp"

namespace {
using AK = CGAL::Algebraic_kernel_d_1<CGAL::Gmpz>;
using AkPolynomial = AK::Polynomial_1;
using Real = AK::Algebraic_real_1;
using Bound = AK::Bound;
}  // namespace

namespace kds {
/// An exact root: a rational (a double, or the root of a polynomial of degree 1: the
/// *linear lane*, compared with mpq, no algebraic number) or an algebraic real. A rational
/// root compared with an algebraic one becomes a CGAL real on first use.
struct ExactRoot {
  explicit ExactRoot(Rational q) : rational(std::move(q)), is_rational(true) {}
  explicit ExactRoot(Real r) : is_rational(false), real_(std::move(r)) {}
  Rational rational;  // when is_rational
  bool is_rational;
  mutable std::atomic<std::uint32_t> references{1};  // the ExactRootRefs to it
  const Real& value() const {
    if (!real_) real_ = Real(Bound(CGAL::Gmpq(rational.get_mpq_t())));
    return *real_;
  }

 private:
  mutable std::optional<Real> real_;
};

void ExactRootRef::retain(const ExactRoot* p) noexcept { p->references.fetch_add(1, std::memory_order_relaxed); }
void ExactRootRef::release(const ExactRoot* p) noexcept {
  if (p->references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete p;
}

namespace {
template <class T>
ExactRootRef make_exact_root(T&& value) {
  return ExactRootRef::adopt(new ExactRoot(std::forward<T>(value)));
}
}  // namespace
}  // namespace kds

namespace kds::exact {
namespace {

AK& kernel() {
  thread_local AK ak;
  return ak;
}

Rational to_rational(const Bound& b) { return Rational(b.mpq()); }

/// The same polynomial with integer coefficients (scaled by the lcm of the denominators).
AkPolynomial to_integer_polynomial(const Polynomial<Rational>& p) {
  mpz_class den = 1;
  for (int i = 0; i <= p.degree(); ++i) mpz_lcm(den.get_mpz_t(), den.get_mpz_t(), p[i].get_den_mpz_t());
  std::vector<CGAL::Gmpz> coeffs;
  coeffs.reserve(p.degree() + 1);
  for (int i = 0; i <= p.degree(); ++i) {
    mpz_class c = p[i].get_num() * (den / p[i].get_den());
    coeffs.emplace_back(c.get_mpz_t());
  }
  return CGAL::Polynomial_traits_d<AkPolynomial>::Construct_polynomial()(coeffs.begin(), coeffs.end());
}

int sign_at(const Polynomial<Rational>& p, const Rational& x) { return sgn(p(x)); }

/// The distinct real roots of p, in increasing order.
std::vector<Real> real_roots(const Polynomial<Rational>& p) {
  std::vector<std::pair<Real, AK::Multiplicity_type>> with_multiplicity;
  kernel().solve_1_object()(to_integer_polynomial(p), std::back_inserter(with_multiplicity));
  std::vector<Real> roots;
  roots.reserve(with_multiplicity.size());
  for (auto& [r, m] : with_multiplicity) roots.push_back(r);
  return roots;
}

/// The exact value of a double. Infinity and NaN have none: GMP raises SIGFPE on them, so
/// they are refused here, whatever the caller (every double-to-rational conversion of the
/// exact path goes through exact_bound).
Bound exact_bound(double t) {
  if (!std::isfinite(t)) {
    std::ostringstream os;
    os << "kds: the exact path was asked for the value of " << t << " (internal error: a root beyond the doubles)";
    throw std::logic_error(os.str());
  }
  return Bound(t);
}
Real real_of(double t) { return Real(exact_bound(t)); }
Real real_of(const Root& r) { return r.is_point() ? real_of(r.lo()) : r.exact().value(); }

/// The exact value of a double as a rational (finite: see exact_bound).
Rational rational_of(double t) {
  (void)exact_bound(t);
  return Rational(t);
}

// ---- The linear lane: polynomials of degree at most 1, whose root is the rational
// -p0 / p1. Decided with mpq comparisons, without CGAL's root isolation (on a sorted list
// of linear keys whose entries meet at one instant, most exact failure times are these).

/// The root -p0 / p1 of a polynomial of degree 1.
Rational linear_root(const Polynomial<Rational>& p) {
  Rational r = -p[0] / p[1];
  return r;
}

/// -1, 0 or 1 (mpq's cmp returns any negative or positive number).
int three_way(const Rational& a, const Rational& b) {
  const int c = cmp(a, b);
  return (c > 0) - (c < 0);
}

/// Three-way comparison of a root with a rational.
int compare_with(const Root& a, const Rational& x) {
  if (a.is_point()) return three_way(rational_of(a.lo()), x);
  const ExactRoot& e = a.exact();
  if (e.is_rational) return three_way(e.rational, x);
  return static_cast<int>(kernel().compare_1_object()(e.value(), Real(Bound(CGAL::Gmpq(x.get_mpq_t())))));
}

int sign_of_rational(const Rational& x) { return sgn(x); }

/// The doubles around a rational: lo <= x <= hi, equal when x is a double.
std::pair<double, double> doubles_around(const Rational& x) {
  double d = x.get_d();  // towards zero
  const Rational rd(d);
  double lo = d, hi = d;
  if (rd < x) hi = std::nextafter(d, std::numeric_limits<double>::infinity());
  if (rd > x) lo = std::nextafter(d, -std::numeric_limits<double>::infinity());
  return {lo, hi};
}

/// sign_just_after for degree <= 1 (p not zero).
int linear_sign_just_after(const Polynomial<Rational>& p, const Root& now) {
  if (p.degree() == 0) return sign_of_rational(p[0]);
  const int slope = sign_of_rational(p[1]);
  return compare_with(now, linear_root(p)) < 0 ? -slope : slope;  // p(t) = p1 (t - root)
}

/// A rational strictly between x and the next root roots[next] (or beyond x if none).
/// Exact throughout: x may lie beyond the largest double, where a double bound is infinite.
Rational rational_after(const Real& x, const std::vector<Real>& roots, std::size_t next) {
  if (next < roots.size()) return to_rational(kernel().bound_between_1_object()(x, roots[next]));
  return to_rational(kernel().approximate_absolute_1_object()(x, 0).second) + 1;
}

/// The largest double, exactly: failures after it are "never" (the clock is a double).
const Real& largest_double() {
  thread_local const Real r = real_of(std::numeric_limits<double>::max());
  return r;
}

/// A tight double interval around r.
std::pair<double, double> tight_interval(const Real& r) {
  auto [a, b] = kernel().approximate_relative_1_object()(r, 60);
  return {CGAL::to_interval(a).first, CGAL::to_interval(b).second};
}

std::size_t first_root_above(const std::vector<Real>& roots, const Real& x) {
  std::size_t i = 0;
  while (i < roots.size() && kernel().compare_1_object()(roots[i], x) != CGAL::LARGER) ++i;
  return i;
}

}  // namespace

ExactRootRef root_in(const Polynomial<Rational>& p, double lo, double hi) {
  ++solver_counters().exact_roots_built;
  if (lo == hi) return make_exact_root(rational_of(lo));
  if (p.degree() == 1) {
    Rational r = linear_root(p);
    if (r < rational_of(lo) || r > rational_of(hi)) {
      std::ostringstream os;
      os << "kds: isolating interval [" << lo << ", " << hi << "] does not hold the root of its linear polynomial"
         << " (internal error in the filter)";
      throw std::logic_error(os.str());
    }
    return make_exact_root(std::move(r));
  }
  std::vector<Real> roots = real_roots(p);
  Real rlo = real_of(lo), rhi = real_of(hi);
  std::vector<Real> inside;
  for (const Real& r : roots)
    if (kernel().compare_1_object()(r, rlo) != CGAL::SMALLER && kernel().compare_1_object()(r, rhi) != CGAL::LARGER)
      inside.push_back(r);
  if (inside.size() != 1) {
    std::ostringstream os;
    os << "kds: isolating interval [" << lo << ", " << hi << "] holds " << inside.size()
       << " roots of its polynomial (internal error in the filter)";
    throw std::logic_error(os.str());
  }
  return make_exact_root(inside.front());
}

Root first_failure(const Polynomial<Rational>& p, const Root& now) {
  if (p.is_zero()) return Root::infinity();
  if (p.degree() <= 1) {
    ++solver_counters().exact_linear;
    if (linear_sign_just_after(p, now) < 0) return now;  // negative just after now
    if (p.degree() == 0 || sign_of_rational(p[1]) > 0) return Root::infinity();  // positive for ever
    // Positive just after now and decreasing: it fails at its root, after now.
    Rational r = linear_root(p);
    if (r > rational_of(std::numeric_limits<double>::max())) return Root::infinity();  // the clock is a double
    const auto [lo, hi] = doubles_around(r);
    return Root::exact(lo, hi, make_exact_root(std::move(r)));
  }
  std::vector<Real> roots = real_roots(p);
  Real n = real_of(now);
  std::size_t i = first_root_above(roots, n);
  if (sign_at(p, rational_after(n, roots, i)) < 0) return now;
  for (; i < roots.size(); ++i) {
    if (kernel().compare_1_object()(roots[i], largest_double()) == CGAL::LARGER) break;
    if (sign_at(p, rational_after(roots[i], roots, i + 1)) < 0) {
      auto [lo, hi] = tight_interval(roots[i]);
      hi = std::min(hi, std::numeric_limits<double>::max());  // the root is at most the largest double
      return Root::exact(lo, hi, make_exact_root(roots[i]));
    }
  }
  return Root::infinity();
}

int sign_just_after(const Polynomial<Rational>& p, const Root& now) {
  if (p.is_zero()) return 0;
  if (p.degree() <= 1) {
    ++solver_counters().exact_linear;
    return linear_sign_just_after(p, now);
  }
  std::vector<Real> roots = real_roots(p);
  Real n = real_of(now);
  return sign_at(p, rational_after(n, roots, first_root_above(roots, n)));
}

int compare(const Root& a, const Root& b) {
  // Rationals (doubles and linear roots) by mpq; an algebraic one through CGAL.
  const ExactRoot* ea = a.is_point() ? nullptr : &a.exact();
  const ExactRoot* eb = b.is_point() ? nullptr : &b.exact();
  if (ea == nullptr || ea->is_rational) {
    const Rational qa = ea == nullptr ? rational_of(a.lo()) : ea->rational;
    if (eb == nullptr || eb->is_rational) return three_way(qa, eb == nullptr ? rational_of(b.lo()) : eb->rational);
    return -compare_with(b, qa);
  }
  if (eb == nullptr || eb->is_rational) return compare_with(a, eb == nullptr ? rational_of(b.lo()) : eb->rational);
  return static_cast<int>(kernel().compare_1_object()(ea->value(), eb->value()));
}

}  // namespace kds::exact

namespace kds {
const ExactRoot& Root::exact() const {
  if (!exact_) {
    if (is_point()) {
      exact_ = make_exact_root(exact::rational_of(lo_));
    } else if (source() != nullptr) {
      exact_ = exact::root_in(source()->exact_polynomial(), lo_, hi_);
    } else {
      throw std::logic_error("kds::Root: exact value requested for a root without source");
    }
  }
  return *exact_;
}
}  // namespace kds
