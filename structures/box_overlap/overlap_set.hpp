#pragma once
/// \file
/// The set of overlapping box pairs of kinetic box overlap: for every sphere, the spheres
/// whose boxes overlap its own. Symmetric by construction (a pair is added to and erased
/// from both partners' lists). Lists are short for similarly sized objects (a constant
/// number of overlapping boxes per object, Lemma 6 of the paper); a large box among
/// small ones has a long list, which is the degradation the paper's guards avoid.

#include <cstdint>
#include <span>
#include <vector>

#include "structures/collision/sphere.hpp"

namespace kds {

class OverlapSet {
 public:
  /// n spheres, no pair.
  void reset(std::size_t n);
  std::size_t spheres() const { return partners_.size(); }
  /// Pairs in the set.
  std::size_t size() const { return pairs_; }

  /// Adds {a, b}; it must not be in the set (std::logic_error otherwise: a broken invariant).
  void add(SphereId a, SphereId b);
  /// Erases {a, b} if present; returns whether it was.
  bool erase(SphereId a, SphereId b);
  bool contains(SphereId a, SphereId b) const;
  /// The spheres paired with `a`, in no particular order.
  std::span<const SphereId> partners(SphereId a) const { return partners_[a]; }

  /// Throws AuditFailure describing the first broken invariant: a self pair, a
  /// duplicate, a pair listed by one partner only, a wrong count.
  void check() const;

 private:
  std::vector<std::vector<SphereId>> partners_;
  std::size_t pairs_ = 0;
};

}  // namespace kds
