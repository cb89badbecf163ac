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

/// The origin of a world's local frame along one axis: a coordinate o such that x - o is
/// exact for every double x in [lo, hi], and the frame's coordinates no larger than the
/// box. For a box that lies within a factor 2 of its corner nearest zero, that corner
/// (x - o is then exact by Sterbenz's lemma); for any other box, 0: its coordinates are
/// already at most twice its side.
inline double local_origin(double lo, double hi) {
  if (lo > 0 && hi <= 2 * lo) return lo;
  if (hi < 0 && lo >= 2 * hi) return hi;
  return 0;
}

/// local_origin on each axis.
inline Vec<3> local_origin(const Box3& box) {
  Vec<3> o{};
  for (int k = 0; k < 3; ++k) o[k] = local_origin(box.lo[k], box.hi[k]);
  return o;
}

/// Whether two closed boxes share a point.
inline bool boxes_meet(const Box3& a, const Box3& b) {
  for (int k = 0; k < 3; ++k)
    if (a.hi[k] < b.lo[k] || b.hi[k] < a.lo[k]) return false;
  return true;
}

}  // namespace kds
