#pragma once
/// \file
/// The order of a world's events at exactly equal times (CertificateBase::tie_key): a key
/// that depends only on the spheres and what the event is about, never on when or by
/// which broad phase the certificate was created. So every broad phase processes
/// simultaneous contacts in the same order, and finds the same contacts as all-pairs.
///
/// Order: pairs by their ids, then each sphere's walls, then events that change no
/// motion by themselves (a broad phase's own events and bound resets), by sphere.

#include <cstdint>
#include <utility>

#include "structures/collision/sphere.hpp"
#include "structures/collision/wall.hpp"

namespace kds::tie_key {

inline std::uint64_t pair(SphereId a, SphereId b) {
  if (a > b) std::swap(a, b);
  return (std::uint64_t(a) << 32) | b;
}

/// After every pair (a, b) with a <= id: ids stay below 0xFFFFFFF0 (validate_spheres).
inline std::uint64_t wall(SphereId id, Wall w) {
  return (std::uint64_t(id) << 32) | (0xFFFFFFF0u + static_cast<std::uint32_t>(w));
}

/// Code 0 is the bound reset of the world; a broad phase numbers its events 1 to 255.
inline std::uint64_t bookkeeping(SphereId id, std::uint8_t code) {
  return (std::uint64_t{1} << 63) | (std::uint64_t(id) << 8) | code;
}

}  // namespace kds::tie_key
