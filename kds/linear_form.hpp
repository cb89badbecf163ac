#pragma once
/// \file
/// A key that is a fixed linear form of one body's position, u . (position(body) + offset)
/// with u and offset fixed: one body's coordinate plus a constant (`Key::coordinate`: u a
/// unit axis), or the plane through a guard of an object with a facet normal u
/// (structures/guards_cones/facet_plane_key.hpp).
///
/// Why it is worth knowing: a structure often holds several keys of one body in one list
/// (the two extremes of a box, an object's centre and the planes through its own guards).
/// Two such keys with one u differ by the constant u . (offset_a - offset_b) whatever the
/// body does, but their polynomials, built and subtracted in intervals, leave coefficients
/// of width an ulp where the exact ones cancel (the t and t^2 terms under gravity, a zero
/// constant), which the filter cannot call zero: every order certificate between them then
/// went to the exact path. `sign_of_difference` decides the constant's sign exactly from
/// the doubles, without building a polynomial.

#include <array>

#include "kds/body_id.hpp"
#include "kds/error_free.hpp"
#include "kds/motion.hpp"
#include "kds/sign.hpp"

namespace kds {

struct LinearForm {
  BodyId body = BodyId::none();
  /// The form's coefficients by axis (0 on the axes a body does not have).
  std::array<double, 3> u{};
  /// Added to the position before the form is applied.
  std::array<double, 3> offset{};
};

/// The sign of a - b when it is the constant u . (a.offset - b.offset): both forms of one
/// body with the same u. Sign::unknown otherwise (other bodies, other u), or when a
/// number lies outside the range where the products are exact (kds/error_free.hpp).
inline Sign sign_of_difference(const LinearForm& a, const LinearForm& b) {
  if (a.body != b.body || a.body.is_none() || a.u != b.u) return Sign::unknown;
  // u . a.offset - u . b.offset as twelve exact terms (a product is two doubles).
  std::array<double, 12> terms{};
  for (int k = 0; k < 3; ++k) {
    if (!in_error_free_range(a.u[k]) || !in_error_free_range(a.offset[k]) || !in_error_free_range(b.offset[k]))
      return Sign::unknown;
    two_product(a.u[k], a.offset[k], terms[4 * k], terms[4 * k + 1]);
    two_product(-a.u[k], b.offset[k], terms[4 * k + 2], terms[4 * k + 3]);
  }
  return exact_sign_of_sum(terms);
}

/// The sign of a - b for forms with the same u over bodies moving as `ma` and `mb`, when
/// it is a constant: on every axis u reads, the motions have the same coefficients of
/// (t - start), (t - start)^2 and (t - start)^3, all zero or from the same start. Then
/// a - b = u . (x_a + a.offset - x_b - b.offset) with x the motions' constant terms.
/// Sign::unknown otherwise, or when a number lies outside the range where the products
/// are exact. (Forms of one body are decided by the overload above without motions.)
inline Sign sign_of_difference(const LinearForm& a, const Motion<3>& ma, const LinearForm& b, const Motion<3>& mb) {
  if (a.u != b.u || a.body.is_none() || b.body.is_none()) return Sign::unknown;
  const bool same_start = ma.start() == mb.start();
  // u . x_a + u . a.offset - u . x_b - u . b.offset as 24 exact terms.
  std::array<double, 24> terms{};
  for (int k = 0; k < 3; ++k) {
    const double u = a.u[k];
    if (u == 0) continue;
    const auto& ca = ma.coefficients(k);
    const auto& cb = mb.coefficients(k);
    if (ca[1] != cb[1] || ca[2] != cb[2] || ca[3] != cb[3]) return Sign::unknown;
    if (!same_start && (ca[1] != 0 || ca[2] != 0 || ca[3] != 0)) return Sign::unknown;
    if (!in_error_free_range(u) || !in_error_free_range(ca[0]) || !in_error_free_range(cb[0]) ||
        !in_error_free_range(a.offset[k]) || !in_error_free_range(b.offset[k]))
      return Sign::unknown;
    double* t = &terms[8 * k];
    two_product(u, ca[0], t[0], t[1]);
    two_product(u, a.offset[k], t[2], t[3]);
    two_product(-u, cb[0], t[4], t[5]);
    two_product(-u, b.offset[k], t[6], t[7]);
  }
  return exact_sign_of_sum(terms);
}

}  // namespace kds
