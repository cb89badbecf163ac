#pragma once
/// \file
/// Validation of the spheres a world starts from: finite values within the accepted range
/// (input_range.hpp), positive radius and mass, a non-negative acceleration bound, every
/// sphere inside the box, no two spheres overlapping. The geometric tests are exact (interval filter, rational fallback), so
/// that a scene of spheres packed touching each other and the walls is accepted, and one
/// overlapping by an ulp is not.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kds/motion.hpp"
#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds {

/// What is wrong with a set of spheres: the sphere, the other sphere of an overlapping
/// pair, the field concerned ("radius", "position.y", ... or "position" for a placement
/// problem) and a sentence without the sphere's name, so that callers can prefix it with
/// whatever locates the sphere for their user (an index, a file and line).
struct SphereProblem {
  std::size_t sphere = 0;
  std::optional<std::size_t> other;
  std::string field;
  std::string message;
};

/// Exactly: |xa - xb| < ra + rb. Touching spheres (equality) do not overlap.
bool strictly_overlapping(const Vec<3>& xa, double ra, const Vec<3>& xb, double rb);

/// Exactly: the sphere lies in the closed box (it may touch the walls).
bool inside_box(const Vec<3>& x, double r, const Box3& box);

/// Empty if the box has finite corners within the accepted magnitude and positive extent
/// on every axis, else why not.
std::optional<std::string> box_problem(const Box3& box);

/// Empty if every component of the gravity is finite and within the accepted magnitude,
/// else why not ("gravity.z must be at most 1e+50 in magnitude, got 1e+60").
std::optional<std::string> gravity_problem(const Vec<3>& gravity);

/// Empty if the contact tolerance is positive, finite and at least 2^-40 times the largest
/// magnitude of a corner of the box (precondition: no box_problem), else why not, for the
/// caller to prefix with the setting's name ("must be at least ...").
std::optional<std::string> tolerance_problem(double tolerance, const Box3& box);

/// Problems of one sphere on its own (values and placement), in a fixed order: finite
/// values, velocity range, radius (positive, and at least 2^-40 of the largest side of
/// the box), mass range, acceleration bound range, inside the box.
std::optional<SphereProblem> single_sphere_problem(const Sphere& s, std::size_t index, const Box3& box);

/// The first problem of a set of spheres: the per-sphere problems in index order, then an
/// overlapping pair. The pair search is a hierarchical grid (one level per binade of
/// radius), O(n) expected for non-overlapping input, and deterministic: the pair reported
/// is the first found scanning the spheres level by level (smallest radii first) in cell
/// order: not necessarily the pair of smallest indices.
/// Precondition: the box has no problem (see box_problem).
std::optional<SphereProblem> find_sphere_problem(const std::vector<Sphere>& spheres, const Box3& box);

/// Throws InvalidInput naming the box problem, or "sphere <i>: ..." for the first problem
/// of find_sphere_problem ("spheres <i> and <j> overlap: ..." for a pair).
void validate_spheres(const std::vector<Sphere>& spheres, const Box3& box);

}  // namespace kds
