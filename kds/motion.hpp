#pragma once
/// \file
/// Polynomial motions of points in D dimensions, defined from a start time.
///
/// A motion is x(t) = sum_k c_k (t - t0)^k per coordinate, with double coefficients
/// about its own start time t0. Storing coefficients about t0 (not about t = 0) keeps
/// them well conditioned late in a simulation, and a motion replaced at time t1 simply
/// gets t0 = t1: that is how a flight-plan update or a collision response is expressed.
/// The stored doubles *are* the motion: every certificate is exact with respect to them.
///
/// Factories do not check their input: the structure that receives a motion calls
/// validate(), so that its error names the object as well as the bad coefficient.

#include <array>
#include <cmath>
#include <sstream>
#include <string>

#include "kds/errors.hpp"
#include "kds/line.hpp"
#include "kds/polynomial.hpp"

namespace kds {

template <int D>
using Vec = std::array<double, D>;

template <int D>
class Motion {
 public:
  static constexpr int max_degree = 3;
  using Coefficients = std::array<double, max_degree + 1>;

  /// At rest at the origin from t = 0.
  Motion() = default;

  static Motion constant(const Vec<D>& p) { return Motion(0.0, p, {}, {}); }
  /// x(t) = p + v (t - t0).
  static Motion linear(double t0, const Vec<D>& p, const Vec<D>& v) { return Motion(t0, p, v, {}); }
  /// x(t) = p + v (t - t0) + a/2 (t - t0)^2: constant acceleration a.
  static Motion accelerated(double t0, const Vec<D>& p, const Vec<D>& v, const Vec<D>& a) {
    Vec<D> half{};
    for (int i = 0; i < D; ++i) half[i] = 0.5 * a[i];
    return Motion(t0, p, v, half);
  }
  /// Any polynomial of degree at most 3: coeffs[axis][k] multiplies (t - t0)^k.
  static Motion polynomial(double t0, const std::array<Coefficients, D>& coeffs) {
    Motion m;
    m.t0_ = t0;
    m.c_ = coeffs;
    return m;
  }

  double start() const { return t0_; }
  const Coefficients& coefficients(int axis) const { return c_[axis]; }
  /// Highest power with a non-zero coefficient over all axes (0 for a constant motion).
  int degree() const {
    int d = 0;
    for (int i = 0; i < D; ++i)
      for (int k = max_degree; k > d; --k)
        if (c_[i][k] != 0) { d = k; break; }
    return d;
  }

  /// Coordinate `axis` as a polynomial in s = t - origin, evaluated in NT. The constant
  /// and linear cases, the commonest, are inlined into every certificate function; the
  /// general Taylor shift is a call.
  template <class NT>
  [[gnu::always_inline]] Polynomial<NT> coordinate(int axis, double origin) const {
    const Coefficients& c = c_[axis];
    if (c[3] != 0 || c[2] != 0) [[unlikely]]
      return shifted_coordinate<NT>(axis, origin);
    if (c[1] == 0) return Polynomial<NT>(NT(c[0]));
    if (origin == t0_) return Polynomial<NT>::linear(NT(c[0]), NT(c[1]));
    const NT h = NT(NT(origin) - NT(t0_));
    return Polynomial<NT>::linear(NT(NT(c[0]) + NT(c[1]) * h), NT(c[1]));
  }

  /// coordinate() as a Line (kds/line.hpp), with the same rounding; false (and `out`
  /// unchanged) when the coordinate is quadratic or cubic.
  template <class NT>
  [[gnu::always_inline]] bool coordinate_line(int axis, double origin, Line<NT>& out) const {
    const Coefficients& c = c_[axis];
    if (c[3] != 0 || c[2] != 0) [[unlikely]]
      return false;
    if (c[1] == 0) out = Line<NT>::constant(NT(c[0]));
    else if (origin == t0_) out = Line<NT>::linear(NT(c[0]), NT(c[1]));
    else {
      const NT h = NT(NT(origin) - NT(t0_));
      out = Line<NT>::linear(NT(NT(c[0]) + NT(c[1]) * h), NT(c[1]));
    }
    return true;
  }

  /// Coordinate `axis` as stored, x + v (t - t0) with t0 = start(): no re-basing, no
  /// rounding (kds/line.hpp, StoredLine); false (and `out` unchanged) when it is
  /// quadratic or cubic.
  [[gnu::always_inline]] bool stored_line(int axis, StoredLine& out) const {
    const Coefficients& c = c_[axis];
    if (c[3] != 0 || c[2] != 0) [[unlikely]]
      return false;
    out = StoredLine{t0_, c[0], c[1], 0.0};
    return true;
  }

  /// Position at time t, in doubles (for output and rendering, not for decisions).
  Vec<D> position(double t) const {
    Vec<D> x{};
    double dt = t - t0_;
    for (int i = 0; i < D; ++i) x[i] = ((c_[i][3] * dt + c_[i][2]) * dt + c_[i][1]) * dt + c_[i][0];
    return x;
  }
  Vec<D> velocity(double t) const {
    Vec<D> v{};
    double dt = t - t0_;
    for (int i = 0; i < D; ++i) v[i] = (3 * c_[i][3] * dt + 2 * c_[i][2]) * dt + c_[i][1];
    return v;
  }
  Vec<D> acceleration(double t) const {
    Vec<D> a{};
    double dt = t - t0_;
    for (int i = 0; i < D; ++i) a[i] = 6 * c_[i][3] * dt + 2 * c_[i][2];
    return a;
  }

  /// Throws InvalidInput naming the coefficient when one is NaN or infinite.
  void validate() const {
    if (!std::isfinite(t0_)) throw InvalidInput("motion start time is " + describe(t0_));
    static const char* axis_name = "xyzw";
    for (int i = 0; i < D; ++i)
      for (int k = 0; k <= max_degree; ++k)
        if (!std::isfinite(c_[i][k])) {
          std::ostringstream os;
          os << "motion coefficient " << (D <= 4 ? std::string(1, axis_name[i]) : std::to_string(i)) << "[t^" << k
             << "] is " << describe(c_[i][k]);
          throw InvalidInput(os.str());
        }
  }

 private:
  template <class NT>
  [[gnu::noinline]] Polynomial<NT> shifted_coordinate(int axis, double origin) const {
    const Coefficients& c = c_[axis];
    Polynomial<NT> p = Polynomial<NT>::from_range(c.begin(), c.end());
    if (origin == t0_) return p;
    return p.shifted(NT(NT(origin) - NT(t0_)));
  }
  Motion(double t0, const Vec<D>& p, const Vec<D>& v, const Vec<D>& half_a) : t0_(t0) {
    for (int i = 0; i < D; ++i) c_[i] = {p[i], v[i], half_a[i], 0.0};
  }
  static std::string describe(double x) { return std::isnan(x) ? "NaN" : x > 0 ? "+infinity" : "-infinity"; }

  double t0_ = 0.0;
  std::array<Coefficients, D> c_{};
};

}  // namespace kds
