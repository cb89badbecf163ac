#pragma once
/// \file
/// Separation of two moving spheres of varying radius (time-varying bounds, or plain
/// spheres when the radius is constant): |c_a(t) - c_b(t)|^2 - (r_a(t) + r_b(t))^2 >= 0.
/// For linear centres and quadratic radii this is the quartic of eq. (10) in Kim, Guibas,
/// Shin; for two ballistic spheres under the same gravity, a quadratic.
///
/// `allowance` (a length squared, >= 0) is added to the function. It is zero except for a
/// pair created while already in contact (after a collision response at a rounded time
/// the two spheres may overlap by a few ulps): the owner sets it to cover exactly that
/// overlap, so that the certificate fails when the pair moves deeper into contact, not at
/// once and forever. The owner bounds it by its contact tolerance.
///
/// Owner interface:
///   template <class NT> Polynomial<NT> centre(BodyId, int axis, double origin) const;
///   template <class NT> Polynomial<NT> radius(BodyId, double origin) const;
///   void separation_failed(BoundSeparation<Owner>&, Simulator&);
/// and optionally, for the fast path of linear centres and radii of degree <= 2 (the
/// same function, bit for bit: short_polynomial.hpp):
///   template <class NT> bool centre_line(BodyId, int axis, double origin, Line<NT>&) const;
///     (false when that coordinate is not linear)
///   template <class NT> ShortPolynomial<NT> short_radius(BodyId, double origin) const;

#include "certificates/short_polynomial.hpp"
#include "kds/certificate.hpp"

namespace kds {

template <class Owner>
class BoundSeparation final : public Certificate<BoundSeparation<Owner>> {
 public:
  /// `tie_key` orders this event among events at exactly the same time.
  BoundSeparation(Owner& owner, BodyId a, BodyId b, const char* kind, std::uint64_t tie_key, double allowance = 0)
      : Certificate<BoundSeparation<Owner>>({a, b}), owner_(&owner), kind_(kind), allowance_(allowance) {
    this->set_tie_key(tie_key);
  }

  BodyId first() const { return this->bodies()[0]; }
  BodyId second() const { return this->bodies()[1]; }
  double allowance() const { return allowance_; }
  /// Sets the allowance before the failure time is first computed (right after creation).
  void set_allowance(double a) { allowance_ = a; }

  template <class NT>
  Polynomial<NT> function(double origin) const {
    if constexpr (requires(const Owner& o, Line<NT>& l) {
                    o.template centre_line<NT>(BodyId{}, 0, 0.0, l);
                    o.template short_radius<NT>(BodyId{}, 0.0);
                  }) {
      std::array<Line<NT>, 3> a, b;
      bool linear = true;
      for (int k = 0; k < 3 && linear; ++k)
        linear = owner_->template centre_line<NT>(first(), k, origin, a[k]) &&
                 owner_->template centre_line<NT>(second(), k, origin, b[k]);
      if (linear) {
        // The generic code below, step for step, on short polynomials.
        auto f = ShortPolynomial<NT>(NT(allowance_));
        for (int k = 0; k < 3; ++k) {
          f = f + square(ShortPolynomial<NT>(a[k] - b[k]));
        }
        const ShortPolynomial<NT> r =
            owner_->template short_radius<NT>(first(), origin) + owner_->template short_radius<NT>(second(), origin);
        return (f - square(r)).polynomial();
      }
    }
    Polynomial<NT> f = Polynomial<NT>(NT(allowance_));
    for (int k = 0; k < 3; ++k) {
      Polynomial<NT> d = owner_->template centre<NT>(first(), k, origin) - owner_->template centre<NT>(second(), k, origin);
      f += square(d);
    }
    Polynomial<NT> r = owner_->template radius<NT>(first(), origin) + owner_->template radius<NT>(second(), origin);
    return f - square(r);
  }
  void on_failure(Simulator& sim) override { owner_->separation_failed(*this, sim); }
  const char* kind() const override { return kind_; }

 private:
  Owner* owner_;
  const char* kind_;
  double allowance_;
};

}  // namespace kds
