// The exact path: CGAL's Algebraic_kernel_d_1 over GMP integers. This is the only
// translation unit of kds that includes CGAL headers.
#include "kds/exact/algebraic.hpp"

#include <CGAL/Algebraic_kernel_d_1.h>
#include <CGAL/Gmpq.h>
#include <CGAL/Gmpz.h>

#include <algorithm>
#include <cmath>
#include <limits>
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
struct ExactRoot {
  Real value;
};
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
Real real_of(const Root& r) { return r.is_point() ? real_of(r.lo()) : r.exact().value; }

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

std::shared_ptr<const ExactRoot> root_in(const Polynomial<Rational>& p, double lo, double hi) {
  ++solver_counters().exact_roots_built;
  if (lo == hi) return std::make_shared<ExactRoot>(ExactRoot{real_of(lo)});
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
  return std::make_shared<ExactRoot>(ExactRoot{inside.front()});
}

Root first_failure(const Polynomial<Rational>& p, const Root& now) {
  if (p.is_zero()) return Root::infinity();
  std::vector<Real> roots = real_roots(p);
  Real n = real_of(now);
  std::size_t i = first_root_above(roots, n);
  if (sign_at(p, rational_after(n, roots, i)) < 0) return now;
  for (; i < roots.size(); ++i) {
    if (kernel().compare_1_object()(roots[i], largest_double()) == CGAL::LARGER) break;
    if (sign_at(p, rational_after(roots[i], roots, i + 1)) < 0) {
      auto [lo, hi] = tight_interval(roots[i]);
      hi = std::min(hi, std::numeric_limits<double>::max());  // the root is at most the largest double
      return Root::exact(lo, hi, std::make_shared<ExactRoot>(ExactRoot{roots[i]}));
    }
  }
  return Root::infinity();
}

int sign_just_after(const Polynomial<Rational>& p, const Root& now) {
  if (p.is_zero()) return 0;
  std::vector<Real> roots = real_roots(p);
  Real n = real_of(now);
  return sign_at(p, rational_after(n, roots, first_root_above(roots, n)));
}

int compare(const Root& a, const Root& b) {
  return static_cast<int>(kernel().compare_1_object()(real_of(a), real_of(b)));
}

}  // namespace kds::exact

namespace kds {
const ExactRoot& Root::exact() const {
  if (!exact_) {
    if (is_point()) {
      exact_ = std::make_shared<ExactRoot>(ExactRoot{exact::real_of(lo_)});
    } else if (source_ != nullptr) {
      exact_ = exact::root_in(source_->exact_polynomial(), lo_, hi_);
    } else {
      throw std::logic_error("kds::Root: exact value requested for a root without source");
    }
  }
  return *exact_;
}
}  // namespace kds
