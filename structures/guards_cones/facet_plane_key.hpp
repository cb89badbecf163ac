#pragma once
/// \file
/// The key of the centre-event lists (facet_plane_lists.hpp): u . (c(t) + offset) for one
/// body's centre c, an integer facet orientation u and a fixed offset. With offset = 0 it
/// is the position of an object's centre along u; with a guard's offset it is the
/// position of the plane through that guard with normal u. A centre and a plane swap in
/// the list exactly when the centre crosses the plane: their difference is the facet
/// function of cone_geometry.hpp divided by a non-zero integer, computed over the same
/// number type, so the list's order and the exact cone predicates agree.

#include <algorithm>
#include <array>

#include "kds/key.hpp"
#include "structures/guards_cones/cones.hpp"

namespace kds {

struct FacetPlaneKey final : KeyOf<FacetPlaneKey> {
  FacetPlaneKey(BodyId body_, const IntVec& normal_, const Vec<3>& offset_)
      : body(body_), normal(normal_), offset(offset_) {}
  BodyId body;
  IntVec normal;
  Vec<3> offset;

  BodyList bodies() const override {
    BodyList l;
    l.add(body);
    return l;
  }
  /// u . (c + offset) exactly (function() adds the offset before multiplying by n, and
  /// skips the axes where n is 0, whose terms are 0): an object's centre and the planes
  /// through its own guards differ by a constant, decided without the filter.
  bool linear_form(LinearForm& out) const override {
    out.body = body;
    for (int k = 0; k < 3; ++k) {
      out.u[k] = normal[k];
      out.offset[k] = offset[k];
    }
    return true;
  }
  /// Accumulated coefficient by coefficient (no polynomial products: this runs for every
  /// order certificate of the facet lists, most of them swapping two planes).
  template <class NT>
  Polynomial<NT> function(const Bodies& b, double origin) const {
    std::array<NT, Polynomial<NT>::max_degree + 1> c{};
    int degree = -1;
    for (int k = 0; k < 3; ++k) {
      if (normal[k] == 0) continue;
      const NT n(normal[k]);
      const Polynomial<NT> x = b.coordinate<NT>(body, k, origin);
      c[0] += n * (offset[k] != 0 ? NT(x[0] + NT(offset[k])) : x[0]);
      for (int i = 1; i <= x.degree(); ++i) c[i] += n * x[i];
      degree = std::max(degree, std::max(x.degree(), 0));
    }
    return Polynomial<NT>::from_range(c.begin(), c.begin() + (degree + 1));
  }
};

}  // namespace kds
