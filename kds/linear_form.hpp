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
  // u . a.offset - u . b.offset as a dot product of six pairs.
  std::array<double, 6> x{}, y{};
  for (int k = 0; k < 3; ++k) {
    if (!in_error_free_range(a.u[k]) || !in_error_free_range(a.offset[k]) || !in_error_free_range(b.offset[k]))
      return Sign::unknown;
    x[2 * k] = a.u[k];
    y[2 * k] = a.offset[k];
    x[2 * k + 1] = -a.u[k];
    y[2 * k + 1] = b.offset[k];
  }
  return exact_sign_of_dot(x, y);
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
  // u . x_a + u . a.offset - u . x_b - u . b.offset as a dot product of twelve pairs.
  std::array<double, 12> x{}, y{};
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
    x[4 * k] = x[4 * k + 1] = u;
    x[4 * k + 2] = x[4 * k + 3] = -u;
    y[4 * k] = ca[0];
    y[4 * k + 1] = a.offset[k];
    y[4 * k + 2] = cb[0];
    y[4 * k + 3] = b.offset[k];
  }
  return exact_sign_of_dot(x, y);
}

/// Whether au - al is exactly bu - bl or its negation, for forms of two bodies each: the
/// same bodies with the same u (up to the sign), and the same constant (an exact sum).
/// The same crossing kept in two lists of opposite orientations, u . c against the plane
/// u . (c' + o) and -u . c against -u . (c' + o), gives two such differences. false when
/// not known (a form's numbers outside the error-free range, say).
inline bool same_or_negated_difference(const LinearForm& au, const LinearForm& al, const LinearForm& bu,
                                       const LinearForm& bl) {
  if (au.body == al.body || bu.body == bl.body || au.body.is_none() || al.body.is_none()) return false;
  auto times = [](const std::array<double, 3>& u, double k) { return std::array<double, 3>{k * u[0], k * u[1], k * u[2]}; };
  for (const double s : {1.0, -1.0}) {
    // au - al against s (bu - bl): each body's term, paired directly or crossed.
    const bool direct = au.body == bu.body && al.body == bl.body && au.u == times(bu.u, s) && al.u == times(bl.u, s);
    const bool crossed = au.body == bl.body && al.body == bu.body && au.u == times(bl.u, -s) && al.u == times(bu.u, -s);
    if (!direct && !crossed) continue;
    // The constants: au.u . au.offset - al.u . al.offset - s (bu.u . bu.offset - bl.u . bl.offset).
    std::array<double, 12> x{}, y{};
    const LinearForm* forms[4] = {&au, &al, &bu, &bl};
    const double weight[4] = {1, -1, -s, s};
    for (int f = 0; f < 4; ++f)
      for (int k = 0; k < 3; ++k) {
        if (!in_error_free_range(forms[f]->u[k]) || !in_error_free_range(forms[f]->offset[k])) return false;
        x[3 * f + k] = weight[f] * forms[f]->u[k];
        y[3 * f + k] = forms[f]->offset[k];
      }
    if (exact_sign_of_dot(x, y) == Sign::zero) return true;
  }
  return false;
}

}  // namespace kds
