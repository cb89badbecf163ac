#pragma once
/// \file
/// Cones (Lemma 8 of Abam, de Berg, Poon, Speckmann): the directions around a guard cut
/// into cones with a small opening angle. Each face of the unit cube U (centred at the
/// origin) is gridded with m x m cells, each cell cut by its diagonal into two triangles;
/// a triangle and the origin span a closed cone. So 12 m^2 cones cover all directions,
/// and two rays in one cone must make an angle of at most arctan(1 / (2 sqrt(3) rho))
/// (Lemma 8, which Lemma 9 uses).
///
/// CORRECTION to the paper: its cell side 1 / (2 sqrt(6) rho) (m = 5 for rho = 1) gives
/// cones up to 0.55 rad wide for rho = 1, twice the bound 0.28: its proof takes the
/// diagonal as 1 / (4 sqrt(3) rho), half the true one, and the faces at distance 1 from
/// the centre instead of 1/2. cells_for(rho) starts from the paper's m and refines the
/// grid until the widest cone meets the bound (m = 10 for rho = 1: 1200 cones).
///
/// Coordinates are scaled by 2m so that every vertex of every triangle is an integer
/// vector (one coordinate is +-m, the others in [-m, m] with the parity of m): facet
/// normals are integer cross products, and the side of a facet a centre lies on is the
/// sign of an exact integer combination of coordinates.
///
/// Each cone's representative edge (the paper's, for "closest") is the ray through its
/// first vertex; the projection of a direction d onto it orders by rep . d.

#include <array>
#include <cstdint>
#include <vector>

#include "kds/motion.hpp"

namespace kds {

using ConeIndex = std::uint16_t;
inline constexpr ConeIndex no_cone = 0xFFFF;

using IntVec = std::array<int, 3>;

struct Cone {
  std::array<IntVec, 3> vertex;  ///< the triangle on the cube's surface, scaled by 2m
  /// Inward normals of the three facets: d is in the closed cone iff normal[i] . d >= 0
  /// for i = 0, 1, 2. Facet i is the plane through the origin and the edge opposite vertex i.
  std::array<IntVec, 3> normal;
  const IntVec& representative() const { return vertex[0]; }
};

class ConeSet {
 public:
  /// Cones for objects of fatness (box half width / inner radius) at most rho, with
  /// cells_for(rho) cells per face side.
  explicit ConeSet(double rho);
  /// The fewest cells per face side, from the paper's ceil(2 sqrt(6) rho) up, whose cones
  /// meet the bound of Lemma 8.
  static int cells_for(double rho);

  int cells_per_side() const { return m_; }
  std::size_t size() const { return cones_.size(); }
  const Cone& cone(ConeIndex i) const { return cones_[i]; }

  /// The cone whose (closed) triangle the ray through d meets, computed in doubles: a
  /// guess, exact only away from facets. d must not be zero (then cone 0).
  ConeIndex locate(const Vec<3>& d) const;
  /// Whether d (doubles) lies in cone i, each facet tested with a relative slack of
  /// `slack` (for tests and guesses only).
  bool contains(ConeIndex i, const Vec<3>& d, double slack = 0) const;

  /// The distinct orientations of facet planes (normals up to sign): the number of sorted
  /// lists the paper's center events would keep (O(rho), proof of Lemma 10).
  std::size_t facet_orientations() const { return orientations().size(); }
  /// Those orientations, each as the integer normal with coprime coordinates whose first
  /// non-zero coordinate is positive, in lexicographic order.
  std::vector<IntVec> orientations() const;

 private:
  int m_;
  std::vector<Cone> cones_;
};

}  // namespace kds
