#pragma once
// Owners of a BoundSeparation over two spheres for the tests of the pair certificate
// (pair_function_test.cpp, bounds_apart_test.cpp): a Scene holds the two centres' motions
// and bounds (bodies 0 and 1); GenericOwner offers the generic interface, FastOwner the
// fast path's too (certificates/bound_separation.hpp), as CollisionWorld does.

#include <array>

#include "certificates/bound_separation.hpp"
#include "kds/motion.hpp"
#include "structures/collision/bound.hpp"

namespace kds::testing {

/// Two spheres (bodies 0 and 1): their centres' motions and bounds.
struct Scene {
  std::array<Motion<3>, 2> motion;
  std::array<Bound, 2> bound;
};

/// The owner interface without the fast path: BoundSeparation builds the generic function.
struct GenericOwner {
  const Scene* scene;
  template <class NT>
  Polynomial<NT> centre(BodyId id, int axis, double origin) const {
    return scene->motion[id.index].coordinate<NT>(axis, origin);
  }
  template <class NT>
  Polynomial<NT> radius(BodyId id, double origin) const {
    return scene->bound[id.index].radius_polynomial<NT>(origin);
  }
  void separation_failed(BoundSeparation<GenericOwner>&, Simulator&) {}
};

/// The same with the fast path's interface; counts how often it is used.
struct FastOwner : GenericOwner {
  mutable int lines = 0;
  template <class NT>
  bool centre_line(BodyId id, int axis, double origin, Line<NT>& out) const {
    ++lines;
    return scene->motion[id.index].coordinate_line<NT>(axis, origin, out);
  }
  template <class NT>
  ShortPolynomial<NT> short_radius(BodyId id, double origin) const {
    return scene->bound[id.index].radius_polynomial<NT, ShortPolynomial<NT>>(origin);
  }
  void separation_failed(BoundSeparation<FastOwner>&, Simulator&) {}
};

}  // namespace kds::testing
