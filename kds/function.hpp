#pragma once
/// \file
/// A function of time given as a polynomial, in the three number types of the framework.
///
/// A certificate *is* such a function (positive while its fact holds). Users write the
/// polynomial once, as a template over the number type, and derive from `FunctionOf`
/// (or `Certificate`, which derives from it); the framework picks the number type:
/// intervals for the filter, doubles in floating mode, rationals for the exact fallback.

#include <optional>

#include "kds/double_double_ball.hpp"
#include "kds/dyadic.hpp"
#include "kds/line.hpp"
#include "kds/polynomial.hpp"

namespace kds {

class Function {
 public:
  virtual ~Function() = default;
  /// The function as a polynomial in s = t - origin, in intervals (the filter).
  virtual Polynomial<Interval> interval_polynomial(double origin) const = 0;
  /// The function as a polynomial in s = t - origin, in doubles (floating mode).
  virtual Polynomial<double> double_polynomial(double origin) const = 0;
  /// The function as a polynomial in t itself, exactly (the fallback).
  virtual Polynomial<Rational> exact_polynomial() const = 0;
  /// The function as an exact polynomial in s = t - origin with dyadic coefficients
  /// (kds/dyadic.hpp), when its coefficients are dyadic: always for functions of double
  /// motions, and FunctionOf provides it. Much cheaper than exact_polynomial() for exact
  /// evaluations at doubles. nullopt: use exact_polynomial().
  virtual std::optional<Polynomial<Dyadic>> dyadic_polynomial(double /*origin*/) const { return std::nullopt; }
  /// The same polynomial in double-double balls (kds/double_double_ball.hpp): enclosures
  /// of its dyadic coefficients about 2^50 times narrower than intervals', which decide
  /// signs at doubles next to a root without the exact path. nullopt where
  /// dyadic_polynomial() is.
  virtual std::optional<Polynomial<DoubleDoubleBall>> double_double_polynomial(double /*origin*/) const {
    return std::nullopt;
  }
  /// When the function is `upper - lower` of two linear keys as their motions store them
  /// (certificates/order.hpp over coordinate keys): true, with the two lines. The base
  /// same_linear_function() reads them to tell, without exact arithmetic, that two roots
  /// are of the same linear function: the same pair of keys listed in several sorted
  /// lists fails in each at once.
  virtual bool stored_lines(StoredLine& /*upper*/, StoredLine& /*lower*/) const { return false; }
  /// Whether this function and `other` are, exactly, one polynomial of degree 1 up to a
  /// non-zero constant factor (the same root, one only), known without exact arithmetic.
  /// compare() asks it before computing two roots that the filter cannot tell apart:
  /// certificates of one fact kept in several places (the same two keys in several sorted
  /// lists, a centre and one plane through several guards) fail at one instant. The base
  /// compares stored lines; a certificate with another identity overrides it and falls
  /// back to the base. false when not known: always safe, the roots are then computed.
  virtual bool same_linear_function(const Function& other) const;
  /// Whether this function is, exactly, `other` or its negation (so the two have the same
  /// roots, of any degree), known without exact arithmetic. first_failure() asks it of a
  /// line that the filter cannot decide (its root may lie within the clock's isolating
  /// interval), with the clock's source as `other`: if true, the line's one root is the
  /// clock, and its slope says whether it fails now or never. Order certificates over keys that coincide (planes
  /// through several guards of one object on one plane) are born so, at each swap of a
  /// key with one of them. false when not known: the exact path then decides.
  virtual bool same_or_negated(const Function& /*other*/) const { return false; }
  /// The value at the double t, exactly.
  Rational exact_value_at(double t) const {
    if (auto d = dyadic_polynomial(t)) return (*d)[0].to_rational();
    return exact_polynomial()(Rational(t));
  }
};

/// Whether `function<Dyadic>` of a function or key type is its exact value. True unless
/// the type says `static constexpr bool exact_in_dyadic = false;`: a function whose
/// coefficients are rationals that are not dyadic (a facet plane's normal scaled by 1/3,
/// certificates/facet_side.hpp) computes its Dyadic version from their nearest doubles,
/// which is not its value.
template <class T>
constexpr bool exact_in_dyadic() {
  if constexpr (requires { T::exact_in_dyadic; }) return T::exact_in_dyadic;
  else return true;
}

/// Implements `Function` from `template <class NT> Polynomial<NT> Derived::function(double origin) const`.
template <class Derived, class Base = Function>
class FunctionOf : public Base {
 public:
  using Base::Base;
  Polynomial<Interval> interval_polynomial(double origin) const final { return self().template function<Interval>(origin); }
  Polynomial<double> double_polynomial(double origin) const final { return self().template function<double>(origin); }
  /// Computed in Dyadic and converted when that is exact (to_rational in kds/polynomial.hpp:
  /// the same value, without mpq's canonicalization at every operation).
  Polynomial<Rational> exact_polynomial() const final {
    if constexpr (exact_in_dyadic<Derived>()) return to_rational(self().template function<Dyadic>(0.0));
    else return self().template function<Rational>(0.0);
  }
  std::optional<Polynomial<Dyadic>> dyadic_polynomial(double origin) const final {
    if constexpr (exact_in_dyadic<Derived>()) return self().template function<Dyadic>(origin);
    else return std::nullopt;
  }
  std::optional<Polynomial<DoubleDoubleBall>> double_double_polynomial(double origin) const final {
    if constexpr (exact_in_dyadic<Derived>()) return self().template function<DoubleDoubleBall>(origin);
    else return std::nullopt;
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

/// A `Function` from a generic lambda `[&]<class NT>(double origin) { return Polynomial<NT>...; }`,
/// for one-off sign queries (where does a new point go in a sorted list?).
template <class F>
class LambdaFunction final : public Function {
 public:
  explicit LambdaFunction(F f) : f_(std::move(f)) {}
  Polynomial<Interval> interval_polynomial(double origin) const override { return f_.template operator()<Interval>(origin); }
  Polynomial<double> double_polynomial(double origin) const override { return f_.template operator()<double>(origin); }
  Polynomial<Rational> exact_polynomial() const override { return to_rational(f_.template operator()<Dyadic>(0.0)); }
  std::optional<Polynomial<Dyadic>> dyadic_polynomial(double origin) const override {
    return f_.template operator()<Dyadic>(origin);
  }
  std::optional<Polynomial<DoubleDoubleBall>> double_double_polynomial(double origin) const override {
    return f_.template operator()<DoubleDoubleBall>(origin);
  }

 private:
  F f_;
};

template <class F>
LambdaFunction<F> make_function(F f) {
  return LambdaFunction<F>(std::move(f));
}

}  // namespace kds
