#pragma once
/// \file
/// The walls of a world: the six faces of its box.

#include <cstdint>

#include "structures/collision/box.hpp"

namespace kds {

/// A face of the box: 2 * axis + (0 for the low face, 1 for the high face).
enum class Wall : std::uint8_t { x_lo, x_hi, y_lo, y_hi, z_lo, z_hi };

inline constexpr int wall_count = 6;

inline Wall wall_of(int axis, bool low) { return static_cast<Wall>(2 * axis + (low ? 0 : 1)); }
/// Axis of a wall, and whether it is the low face of the box.
inline int wall_axis(Wall w) { return static_cast<int>(w) / 2; }
inline bool wall_is_low(Wall w) { return static_cast<int>(w) % 2 == 0; }
/// The coordinate of the wall's plane along its axis.
inline double wall_plane(const Box3& box, Wall w) {
  return wall_is_low(w) ? box.lo[wall_axis(w)] : box.hi[wall_axis(w)];
}

}  // namespace kds
