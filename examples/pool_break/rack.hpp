#pragma once
/// \file
/// The balls of a pool break: a cue ball and a rack, flat (a triangle of 15 balls on the
/// table, all centres at one height) or in space (a tetrahedron of 20 balls, apex towards
/// the cue ball). Neighbouring balls of the rack are `gap` apart rather than touching:
/// positions built with square roots cannot be exactly tangent, and the world refuses an
/// overlap of even one ulp, so a small gap keeps the scene valid and the break well
/// defined (each contact a separate, exactly ordered event).

#include <cmath>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::pool {

/// A 9-foot table, regulation balls (SI units: metres, kilograms, seconds).
struct Table {
  double length = 2.54, width = 1.27;
  double radius = 0.028575;  ///< 57.15 mm balls
  double mass = 0.17;
};

struct Break {
  Box3 box;
  std::vector<Sphere> balls;  ///< ball 0 is the cue ball
};

/// The flat break: the rack's apex on the foot spot (three quarters down the table),
/// pointing at the cue ball on the head string, which moves along the table's long axis
/// at `speed`, `offset` to the side of the apex's centre. The box is one ball diameter
/// plus 10% high, so the balls never touch its floor or ceiling.
inline Break flat_break(const Table& t, double speed, double offset, double gap) {
  Break b;
  const double r = t.radius, h = 2.2 * r, d = 2 * r + gap;
  b.box = Box3{{0, 0, 0}, {t.length, t.width, h}};
  const double z = 0.5 * h, apex_x = 0.75 * t.length, mid_y = 0.5 * t.width;
  b.balls.push_back(Sphere{{0.25 * t.length, mid_y + offset, z}, {speed, 0, 0}, r, t.mass, 0});
  for (int row = 0; row < 5; ++row)
    for (int j = 0; j <= row; ++j) {
      const double x = apex_x + row * d * std::sqrt(3.0) / 2;
      const double y = mid_y + (j - 0.5 * row) * d;
      b.balls.push_back(Sphere{{x, y, z}, {0, 0, 0}, r, t.mass, 0});
    }
  return b;
}

/// The break in space: a tetrahedron of 1 + 3 + 6 + 10 balls stacked along the x axis,
/// apex first, each layer a triangle in a (y, z) plane sitting in the pockets of the next,
/// in a box as high as the table is wide. The cue ball flies along the tetrahedron's axis.
inline Break space_break(const Table& t, double speed, double offset, double gap) {
  Break b;
  const double r = t.radius, d = 2 * r + gap;
  b.box = Box3{{0, 0, 0}, {t.length, t.width, t.width}};
  const double apex_x = 0.75 * t.length, cy = 0.5 * t.width, cz = 0.5 * t.width;
  b.balls.push_back(Sphere{{0.25 * t.length, cy + offset, cz}, {speed, 0, 0}, r, t.mass, 0});
  const double layer_step = d * std::sqrt(2.0 / 3.0);  // distance between layers of a tetrahedral stack
  for (int layer = 0; layer < 4; ++layer) {
    // A triangle of side `layer` spacings: row i has i + 1 balls; its centroid sits on the axis.
    const double row_step = d * std::sqrt(3.0) / 2;
    const double centroid_row = 2.0 * layer / 3.0;  // rows 0..layer, weighted by their ball counts
    for (int row = 0; row <= layer; ++row)
      for (int j = 0; j <= row; ++j) {
        const double y = cy + (j - 0.5 * row) * d;
        const double z = cz + (row - centroid_row) * row_step;
        b.balls.push_back(Sphere{{apex_x + layer * layer_step, y, z}, {0, 0, 0}, r, t.mass, 0});
      }
  }
  return b;
}

}  // namespace kds::pool
