#pragma once
/// \file
/// The sign of a value, with "unknown" for what an interval cannot decide.

#include <cstdint>

namespace kds {

enum class Sign : std::int8_t {
  negative = -1,
  zero = 0,
  positive = 1,
  /// An interval that straddles zero: only the exact path can tell (never returned by
  /// the core's sign queries, which decide).
  unknown = 2,
};

/// The sign of an integer (a GMP sgn, a comparison result).
constexpr Sign sign_of(int s) { return s < 0 ? Sign::negative : s > 0 ? Sign::positive : Sign::zero; }
/// The opposite sign; unknown stays unknown.
constexpr Sign operator-(Sign s) { return s == Sign::unknown ? s : static_cast<Sign>(-static_cast<int>(s)); }
/// -1, 0 or 1 for a known sign (to multiply by).
constexpr int to_int(Sign s) { return s == Sign::unknown ? 0 : static_cast<int>(s); }

}  // namespace kds
