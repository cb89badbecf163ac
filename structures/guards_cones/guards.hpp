#pragma once
/// \file
/// Guards (Lemma 7 of Abam, de Berg, Poon, Speckmann): points placed around an object K,
/// moving with its centre, such that any rho-fat object K' at least as large as K (inner
/// radius r' >= r) that touches K contains one of them.
///
/// The paper's construction: the cube C of side 2 (rho + 1) r centred at K's centre,
/// gridded with cells of side at most 2 r / (sqrt(3) (rho + 1)). Here the cube is cut into
/// k = ceil(sqrt(3) (rho + 1)^2) cells per side, the smallest count whose cells are no
/// larger than that; every closed ball of radius r / (rho + 1) inside C then holds a grid
/// point (the farthest a point of a cell is from its corners is half the cell's diagonal,
/// sqrt(3)/2 * side <= r / (rho + 1)).
///
/// Two prunings follow from the proof and keep the lemma true. The ball B(q) of the proof
/// has radius r / (rho + 1), lies inside K' and within distance r of the contact point p,
/// and p lies within R = rho r of the centre: so B(q) lies in the ball of radius
/// (rho + 1) r about the centre, and so does the grid point it holds. And B(q) lies in K',
/// whose interior is disjoint from K's inner ball: the grid point is at distance >= r from
/// the centre. Only the grid points with r <= |offset| <= (rho + 1) r are kept (with a
/// relative margin of 1e-9 outward): 128 of the 512 for balls (rho = 1).
///
/// The outer bound uses only |p - centre| <= R_K: with K's own outer radius R (at most
/// rho r, rho the scene's largest fatness), the shell is r <= |offset| <= R + r, on the
/// same grid (the grid's spacing depends on the fatness of K', any object of the scene).
/// For balls, and for any object whose own fatness is the scene's, it is the shell above;
/// a cube (rho = sqrt 3) among tetrahedra (rho = 3) keeps far fewer guards.
///
/// Nothing in the proof is specific to balls: it uses that K' is convex (the ball B(q),
/// a scaled copy of K''s inner ball towards the contact point, lies in K'), that K' is
/// rho-fat, and that K holds its inner ball and lies in its outer ball. So the same guards
/// serve convex polytopes about their reference point.

#include <cstdint>
#include <vector>

#include "kds/motion.hpp"
#include "structures/guards_cones/fat_object.hpp"

namespace kds {

/// A guard: its index among the guards of all objects of a structure.
using GuardId = std::uint32_t;

struct GuardGrid {
  int cells = 0;       ///< cells per side of the cube C
  double spacing = 0;  ///< side of a cell: 2 (rho + 1) r / cells
};

/// The grid of Lemma 7 for an object of inner radius r, for objects of fatness at most rho.
GuardGrid guard_grid(double inner_radius, double rho);

/// The guards' offsets from the centre of an object of inner radius r, for objects of
/// fatness at most rho (the largest fatness of the scene: K' may be any object), in a
/// fixed order (lexicographic in the grid indices).
std::vector<Vec<3>> guard_offsets(double inner_radius, double rho);
/// The same for an object of inner radius r and outer radius R: the shell r .. R + r.
std::vector<Vec<3>> guard_offsets(double inner_radius, double rho, double outer_radius);
/// The guards of a fat object (its own r and R), for objects of fatness at most rho.
std::vector<Vec<3>> guard_offsets(const FatObject& object, double rho);

}  // namespace kds
