#pragma once
/// \file
/// Scene files: a box, a mode, a few physical settings and one sphere per line, in plain
/// text, so that the same scene can be fed to kds and to another simulator. The format is
/// specified in docs/scene-format.md; reading is strict and every error names the file,
/// the line, the field and the problem.

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds {

struct Scene {
  Box3 box;
  /// Mode `unknown`: the spheres follow a user's integrator with |a| <= max_acceleration;
  /// mode `ballistic`: they move on their known parabolas (straight lines without gravity).
  bool unknown = false;
  /// Constant acceleration of every sphere in ballistic mode; zero in unknown mode (there
  /// the integrator owns every force, and the bound A must include gravity).
  Vec<3> gravity{0, 0, 0};
  /// Coefficient of restitution in [0, 1]; 1 is elastic.
  double restitution = 1;
  /// Contact tolerance (> 0); empty when the file does not set it (the world's default applies).
  std::optional<double> tolerance;
  std::vector<Sphere> spheres;
};

/// Reads a scene; `name` is the file name used in error messages. Throws InvalidInput on
/// the first problem: syntax, values, a sphere outside the box, overlapping spheres.
Scene read_scene(std::istream& in, const std::string& name);

/// Opens and reads the file at `path`; throws InvalidInput if it cannot be opened.
Scene load_scene(const std::string& path);

/// Writes `scene` so that read_scene gives it back exactly (shortest round-trip digits).
void write_scene(std::ostream& out, const Scene& scene);

}  // namespace kds
