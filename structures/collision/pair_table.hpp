#pragma once
/// \file
/// The pair certificates of a world, listed under each of their two spheres: what the
/// world walks to drop a sphere's pairs when its bound is reset, or the pairs whose
/// spheres are no longer candidates.
///
/// Each entry keeps the partner's id beside the certificate, so that walking a sphere's
/// pairs reads one contiguous list and no certificate; removing a pair scans the
/// partner's list, which is as short as its number of candidates. (An index of positions
/// by certificate would make the removal constant-time, but touches a random slot of a
/// large table and the certificate moved into the hole: cache misses that cost more on
/// dense scenes than the scan.) Nothing is allocated once every list has reached its
/// largest size.

#include <algorithm>
#include <vector>

#include "structures/collision/sphere.hpp"

namespace kds {

template <class Pair>
class PairTable {
 public:
  struct Entry {
    SphereId other;
    Pair* certificate;
  };

  void resize(std::size_t spheres) { lists_.resize(spheres); }

  /// The pair (a, b) certified by c.
  void insert(SphereId a, SphereId b, Pair* c) {
    lists_[a].push_back({b, c});
    lists_[b].push_back({a, c});
  }

  /// Removes the pair at `slot` of the list of `id` from both lists (the last entry of
  /// each list takes its place).
  void erase(SphereId id, std::size_t slot) {
    auto& list = lists_[id];
    const Entry e = list[slot];
    list[slot] = list.back();
    list.pop_back();
    auto& partner = lists_[e.other];
    auto it = std::find_if(partner.begin(), partner.end(),
                           [&](const Entry& x) { return x.certificate == e.certificate; });
    *it = partner.back();
    partner.pop_back();
  }

  const std::vector<Entry>& of(SphereId id) const { return lists_[id]; }
  /// The certificate of the pair (a, b), or nullptr.
  Pair* find(SphereId a, SphereId b) const {
    for (const Entry& e : lists_[a])
      if (e.other == b) return e.certificate;
    return nullptr;
  }

 private:
  std::vector<std::vector<Entry>> lists_;  // by sphere
};

}  // namespace kds
