#pragma once
/// \file
/// The name of a moving body: a dense index plus a generation.
///
/// Indices are reused after a body is erased; the generation tells the old body from
/// the new one, so that a stale id is an error instead of silently naming someone else.
/// The generation also carries a tag of the simulator that made it, so that an id from
/// another simulator is recognised as foreign (kds/bodies.hpp).

#include <cstdint>
#include <functional>
#include <ostream>

namespace kds {

struct BodyId {
  std::uint32_t index = ~std::uint32_t{0};
  std::uint32_t generation = 0;

  /// The id of no body (default-constructed).
  static constexpr BodyId none() { return BodyId{}; }
  constexpr bool is_none() const { return index == ~std::uint32_t{0}; }

  friend constexpr bool operator==(BodyId, BodyId) = default;
  /// Ordered by index first (deterministic output, ordered containers).
  friend constexpr auto operator<=>(BodyId a, BodyId b) {
    return a.index != b.index ? a.index <=> b.index : a.generation <=> b.generation;
  }
  /// Prints the index only: what traces, logs and messages show.
  friend std::ostream& operator<<(std::ostream& os, BodyId id) {
    if (id.is_none()) return os << "none";
    return os << id.index;
  }
};

}  // namespace kds

template <>
struct std::hash<kds::BodyId> {
  std::size_t operator()(kds::BodyId id) const noexcept {
    return std::hash<std::uint64_t>{}((std::uint64_t(id.generation) << 32) | id.index);
  }
};
