#pragma once
/// \file
/// The exact path, behind a CGAL-free interface: only kds/exact/algebraic.cpp includes
/// CGAL (Algebraic_kernel_d_1 over GMP integers), which keeps the build light.

#include <memory>

#include "kds/root.hpp"

namespace kds::exact {

/// The root of p in [lo, hi] at which p changes sign (there must be exactly one).
ExactRootRef root_in(const Polynomial<Rational>& p, double lo, double hi);

/// The first failure of p at or after `now`, decided exactly (see kds/solver.hpp).
Root first_failure(const Polynomial<Rational>& p, const Root& now);

/// The sign of p just after `now`, exactly.
int sign_just_after(const Polynomial<Rational>& p, const Root& now);

/// Exact three-way comparison of two finite roots.
int compare(const Root& a, const Root& b);

}  // namespace kds::exact
