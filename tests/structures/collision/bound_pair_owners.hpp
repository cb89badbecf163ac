#pragma once
// Owners of a BoundSeparation over two spheres for the tests of the pair certificate
// (pair_function_test.cpp, bounds_apart_test.cpp): a Scene holds the two centres' motions
// and bounds (bodies 0 and 1); GenericOwner offers the generic interface, FastOwner the
// fast path's too (certificates/bound_separation.hpp), StoredOwner also the stored numbers,
// as CollisionWorld does.

#include <array>
#include <cmath>
#include <random>

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

/// The same with the stored numbers too: BoundSeparation's proof that the bounds stay apart
/// (holds_before) reads them instead of the lines (stored_inputs).
struct StoredOwner : FastOwner {
  bool stored_centre(BodyId id, std::array<StoredLine, 3>& out) const {
    for (int k = 0; k < 3; ++k)
      if (!scene->motion[id.index].stored_line(k, out[static_cast<std::size_t>(k)])) return false;
    return true;
  }
  RadiusGrowth radius_growth(BodyId id) const {
    const Bound& b = scene->bound[id.index];
    return {b.radius, b.acceleration, b.reset_time};
  }
  void separation_failed(BoundSeparation<StoredOwner>&, Simulator&) {}
};

/// Two random spheres about `t0`: centres in [-extent, extent]^3, velocities in [-20, 20]^3
/// (at rest every 7th round, on one axis every 11th), motions starting at t0 or up to one
/// unit later (reset then), radii 0.1 to 10.1, acceleration bounds 10 to 20 (0, ballistic,
/// every `ballistic_every`th round), equal motions every 13th round.
inline Scene random_pair(std::mt19937_64& rng, int round, double t0, double extent, int ballistic_every) {
  std::uniform_real_distribution<double> u(-1, 1);
  Scene s;
  for (int i = 0; i < 2; ++i) {
    Vec<3> x{extent * u(rng), extent * u(rng), extent * u(rng)}, v{20 * u(rng), 20 * u(rng), 20 * u(rng)};
    if (round % 7 == 0) v = {0, 0, 0};                       // at rest
    if (round % 11 == 0) v[1] = v[2] = 0, x[1] = x[2] = 0;  // on one axis
    const double start = round % 3 == 0 ? t0 : t0 + std::fabs(u(rng));
    s.motion[static_cast<std::size_t>(i)] = Motion<3>::linear(start, x, v);
    Bound& b = s.bound[static_cast<std::size_t>(i)];
    b.radius = 0.1 + 10 * std::fabs(u(rng));
    b.acceleration = round % ballistic_every == 0 ? 0 : 10 + 10 * std::fabs(u(rng));
    b.reset_time = start;
  }
  if (round % 13 == 0) s.motion[1] = s.motion[0];  // equal motions
  return s;
}

}  // namespace kds::testing
