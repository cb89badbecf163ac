#pragma once
/// \file
/// The default cell size of the time-varying-bound grid, from a cost model.
///
/// Per sphere and per unit of time, a cell side of L = k * (2 r) costs
///   - cell-crossing events: about 2 per axis each time the sphere travels one cell side,
///     3 * 2 * speed / L, plus (for unknown trajectories) one reset every sqrt((L - 2r) / A)
///     (the time the bound's diameter 2r + A t^2 takes to reach L, eq. 8);
///   - pair checks: the bound meets the spheres of about (L + 2r)^3 / volume-per-sphere
///     cells' worth of neighbours, each pair certificate costing a root computation
///     whenever either sphere's motion changes (about once per collision time).
/// cost(k) = c_cross * crossings(k) + c_pair * pairs(k) is minimised over k in [2, 16] for
/// the median sphere. The constants were fitted to the sweep in bench/tvb_grid/cell_size.cpp
/// (docs/benchmarks-tvb-grid.md), where the default must be within 20% of the best k.

#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds {

/// The cell side over the largest diameter of a level, k >= 2.
double choose_cell_ratio(const std::vector<Sphere>& spheres, const Box3& box);

}  // namespace kds
