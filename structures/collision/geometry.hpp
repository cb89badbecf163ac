#pragma once
/// \file
/// Vectors of three doubles: the arithmetic of contact tests, responses and probes (the
/// certificates themselves are exact; these decide only what the doubles can decide).

#include <cmath>

#include "kds/motion.hpp"

namespace kds {

inline double dot(const Vec<3>& a, const Vec<3>& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Vec<3> sub(const Vec<3>& a, const Vec<3>& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline double norm(const Vec<3>& a) { return std::sqrt(dot(a, a)); }

}  // namespace kds
