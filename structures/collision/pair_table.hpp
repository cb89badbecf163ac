#pragma once
/// \file
/// The pair certificates of a world, listed under each of their two spheres: what the
/// world walks to drop a sphere's pairs when its bound is reset, or the pairs whose
/// spheres are no longer candidates. Insertion and removal take constant time, and
/// nothing is allocated once every list has reached its largest size.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "structures/collision/sphere.hpp"

namespace kds {

/// `Pair` is a certificate with first(), second() (sphere ids) and the simulator's dense
/// certificate id(), which indexes the positions of each certificate in its two lists.
template <class Pair>
class PairTable {
 public:
  void resize(std::size_t spheres) { lists_.resize(spheres); }

  void insert(Pair* c) {
    if (c->id() >= slots_.size()) slots_.resize(std::size_t{c->id()} + 1);
    for (int end = 0; end < 2; ++end) {
      auto& list = lists_[sphere(c, end)];
      slots_[c->id()][end] = static_cast<std::uint32_t>(list.size());
      list.push_back(c);
    }
  }

  /// Removes c from both lists (the last of each list takes its place).
  void erase(Pair* c) {
    for (int end = 0; end < 2; ++end) {
      const SphereId s = sphere(c, end);
      auto& list = lists_[s];
      const std::uint32_t slot = slots_[c->id()][end];
      Pair* moved = list.back();
      list[slot] = moved;
      slots_[moved->id()][moved->first() == s ? 0 : 1] = slot;
      list.pop_back();
    }
  }

  std::span<Pair* const> of(SphereId id) const { return lists_[id]; }
  /// The certificate of the pair (a, b), or nullptr.
  Pair* find(SphereId a, SphereId b) const {
    for (Pair* c : lists_[a])
      if (c->first() == b || c->second() == b) return c;
    return nullptr;
  }

 private:
  static SphereId sphere(const Pair* c, int end) { return end == 0 ? c->first() : c->second(); }

  std::vector<std::vector<Pair*>> lists_;                // by sphere
  std::vector<std::array<std::uint32_t, 2>> slots_;  // by certificate id: its position in first's and second's list
};

}  // namespace kds
