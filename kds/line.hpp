#pragma once
/// \file
/// A polynomial of degree at most one, c0 + c1 s, that rounds exactly as kds::Polynomial
/// does: the same operations on the same coefficients, so a failure time computed from a
/// Line is bit for bit the one computed from the Polynomial (the determinism hashes
/// compare isolating intervals). It exists for speed: the order certificate of linear
/// motions, the sorted list's every certificate, is a Line, and building three
/// Polynomial<Interval> of nine coefficients each per failure time cost a fifth of the
/// sorted list's time (docs/benchmarks/event-cost.md, "After the lean core path").

#include <algorithm>

#include "kds/number_types.hpp"

namespace kds {

template <class NT>
struct Line {
  NT c0{}, c1{};
  int degree = -1;  // as Polynomial::degree(): -1 for zero, coefficients above it are zero

  /// The constant c (Polynomial(c)).
  static Line constant(const NT& c) {
    Line l;
    l.c0 = c;
    l.trim(0);
    return l;
  }
  /// c0 + c1 s (Polynomial::linear).
  static Line linear(const NT& c0, const NT& c1) {
    Line l;
    l.c0 = c0;
    l.c1 = c1;
    l.trim(1);
    return l;
  }
  /// Polynomial's operator+ and operator-: coefficients added up to the lower degree,
  /// the longer one's copied (negated for the subtrahend) above it.
  friend Line operator+(const Line& a, const Line& b) {
    Line q;
    const int common = std::min(a.degree, b.degree), d = std::max(a.degree, b.degree);
    const Line& longer = a.degree >= b.degree ? a : b;
    if (d >= 0) q.c0 = common >= 0 ? NT(a.c0 + b.c0) : longer.c0;
    if (d >= 1) q.c1 = common >= 1 ? NT(a.c1 + b.c1) : longer.c1;
    q.trim(d);
    return q;
  }
  friend Line operator-(const Line& a, const Line& b) {
    Line q;
    const int common = std::min(a.degree, b.degree), d = std::max(a.degree, b.degree);
    const bool a_longer = a.degree >= b.degree;
    if (d >= 0) q.c0 = common >= 0 ? NT(a.c0 - b.c0) : a_longer ? a.c0 : NT(-b.c0);
    if (d >= 1) q.c1 = common >= 1 ? NT(a.c1 - b.c1) : a_longer ? a.c1 : NT(-b.c1);
    q.trim(d);
    return q;
  }

 private:
  void trim(int d) {
    if (d >= 1 && is_zero(c1)) d = 0;
    if (d == 0 && is_zero(c0)) d = -1;
    degree = d;
  }
};

/// A coordinate key of a linear motion as the motion stores it: x + offset + v (t - t0),
/// four doubles, nothing rounded. The sorted list's failure times are computed from two
/// of these in absolute time (first_failure_of_stored_lines, kds/solver.hpp): one division
/// with its rounding bounded, without re-basing both motions to the clock first.
struct StoredLine {
  double t0 = 0, x = 0, v = 0, offset = 0;
};

}  // namespace kds
