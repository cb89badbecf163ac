#pragma once
/// \file
/// The axis-aligned box shape: the domain a collision world lives in, and the extent of
/// a shape along the axes (a bound's bounding box in audits; box overlap will order the
/// extremes of such boxes).

#include "kds/motion.hpp"

namespace kds {

/// An axis-aligned box [lo, hi] (closed).
struct Box3 {
  Vec<3> lo{0, 0, 0};
  Vec<3> hi{0, 0, 0};
};

/// Whether two closed boxes share a point.
inline bool boxes_meet(const Box3& a, const Box3& b) {
  for (int k = 0; k < 3; ++k)
    if (a.hi[k] < b.lo[k] || b.hi[k] < a.lo[k]) return false;
  return true;
}

}  // namespace kds
