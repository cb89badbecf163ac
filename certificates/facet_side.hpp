#pragma once
/// \file
/// A separating plane between two convex bodies moving by translation: the relative
/// position p(t) = c_b(t) - c_a(t) of their centres stays on the outer side of one facet
/// of the Minkowski difference M = A (+) (-B) of their shapes,
///   n . p(t) - h + allowance >= 0,
/// where n . x <= h is the facet's plane (exact: rational coefficients). The bodies meet
/// exactly when p(t) enters M, so while this holds they are apart (touching at most). The
/// plane is the same for every time: translation does not change M.
///
/// `allowance` is as in bound_separation.hpp (a length times |n|, >= 0 but for a pair
/// that must fail now): set by the owner for a pair created in contact after a response
/// at a rounded time.
///
/// Owner interface:
///   template <class NT> Polynomial<NT> centre(BodyId, int axis, double origin) const;
///   void facet_failed(FacetSide<Owner>&, Simulator&);

#include <array>
#include <cmath>
#include <limits>

#include "kds/certificate.hpp"
#include "kds/interval.hpp"
#include "kds/number_types.hpp"

namespace kds {

/// A plane n . x = h with rational coefficients, and its enclosures in intervals and its
/// nearest doubles, so that the certificate's function is written once over the number type.
struct ExactPlane {
  std::array<Rational, 3> normal;
  Rational offset;
  std::array<Interval, 3> normal_interval;
  Interval offset_interval;
  std::array<double, 3> normal_double{};
  double offset_double = 0;
  /// |normal|, in doubles.
  double norm = 0;

  ExactPlane() = default;
  ExactPlane(std::array<Rational, 3> n, Rational h) : normal(std::move(n)), offset(std::move(h)) {
    for (int k = 0; k < 3; ++k) {
      normal_double[k] = normal[k].get_d();
      normal_interval[k] = enclose(normal[k]);
    }
    offset_double = offset.get_d();
    offset_interval = enclose(offset);
    norm = std::hypot(normal_double[0], normal_double[1], normal_double[2]);
  }
  /// The coefficients in the number type NT.
  template <class NT>
  NT n(int k) const {
    if constexpr (std::is_same_v<NT, Rational>) return normal[k];
    else if constexpr (std::is_same_v<NT, Interval>) return normal_interval[k];
    else return NT(normal_double[k]);
  }
  template <class NT>
  NT h() const {
    if constexpr (std::is_same_v<NT, Rational>) return offset;
    else if constexpr (std::is_same_v<NT, Interval>) return offset_interval;
    else return NT(offset_double);
  }

 private:
  // get_d truncates toward zero: one ulp either side holds the rational.
  static Interval enclose(const Rational& q) {
    const double d = q.get_d();
    return Interval(std::nextafter(d, -std::numeric_limits<double>::infinity()),
                    std::nextafter(d, std::numeric_limits<double>::infinity()));
  }
};

template <class Owner>
class FacetSide final : public Certificate<FacetSide<Owner>> {
 public:
  /// The plane's rationals are not dyadic (canonical normals divide by a component), and
  /// function<Dyadic> would read their nearest doubles: exact values go through Rational.
  static constexpr bool exact_in_dyadic = false;
  /// `plane` outlives the certificate (the owner keeps the Minkowski differences).
  FacetSide(Owner& owner, BodyId a, BodyId b, const ExactPlane& plane, std::uint32_t facet, const char* kind,
            std::uint64_t tie_key, double allowance = 0)
      : Certificate<FacetSide<Owner>>({a, b}), owner_(&owner), plane_(&plane), kind_(kind), allowance_(allowance),
        facet_(facet) {
    this->set_tie_key(tie_key);
  }

  BodyId first() const { return this->bodies()[0]; }
  BodyId second() const { return this->bodies()[1]; }
  const ExactPlane& plane() const { return *plane_; }
  /// The facet's index in its Minkowski difference.
  std::uint32_t facet() const { return facet_; }
  double allowance() const { return allowance_; }
  /// Sets the allowance before the failure time is first computed (right after creation).
  void set_allowance(double a) { allowance_ = a; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    Polynomial<NT> f = Polynomial<NT>(NT(allowance_) - plane_->template h<NT>());
    for (int k = 0; k < 3; ++k) {
      const Polynomial<NT> d =
          owner_->template centre<NT>(second(), k, origin) - owner_->template centre<NT>(first(), k, origin);
      f += plane_->template n<NT>(k) * d;
    }
    return f;
  }
  void on_failure(Simulator& sim) override { owner_->facet_failed(*this, sim); }
  const char* kind() const override { return kind_; }

 private:
  Owner* owner_;
  const ExactPlane* plane_;
  const char* kind_;
  double allowance_;
  std::uint32_t facet_;
};

}  // namespace kds
