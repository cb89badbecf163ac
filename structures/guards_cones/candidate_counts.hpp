#pragma once
/// \file
/// The candidate pairs of a guards-and-cones broad phase, counted: a pair {owner(g),
/// K*(gamma)} may arise from many guards and cones, and stays a candidate while any of
/// them names it. The world is told when a sphere's candidates change (after each event,
/// notify()), except for a sphere between bound_will_reset and its next candidates()
/// question, which the world refreshes by itself. Shared by GuardsCones and
/// GuardsConesLists.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "structures/collision/collision_world.hpp"
#include "structures/guards_cones/cones.hpp"

namespace kds {

class CandidateCounts {
 public:
  /// n spheres, no pairs; the world is not told of changes until start_notifying().
  void reset(std::size_t n);
  void start_notifying();
  /// One more (one fewer) guard and cone names {a, b}; std::logic_error when removing a
  /// pair that is not counted.
  void add(SphereId a, SphereId b);
  void remove(SphereId a, SphereId b);
  /// Tells the world of every sphere whose candidates changed since the last call.
  void notify(CollisionWorld& world);

  void bound_will_reset(SphereId id) { resetting_[id] = 1; }
  /// The world's question: the partners of id (appended to out).
  void candidates(SphereId id, std::vector<SphereId>& out);

  /// (partner, count) of sphere a.
  const std::vector<std::pair<SphereId, std::uint32_t>>& partners(SphereId a) const { return partners_[a]; }
  std::size_t size() const { return partners_.size(); }
  /// Distinct pairs.
  std::size_t pairs() const;
  /// AuditFailure (its message starting with `when`) unless the counts are exactly
  /// `expected`: how many (guard, cone) name each pair {a, b}, keyed with a < b.
  void audit(const std::map<std::pair<SphereId, SphereId>, std::uint32_t>& expected, const std::string& when) const;

 private:
  void touched(SphereId a);

  std::vector<std::vector<std::pair<SphereId, std::uint32_t>>> partners_;  // by sphere: (partner, count)
  bool started_ = false;
  std::vector<char> resetting_;     // by sphere: between bound_will_reset and candidates()
  std::vector<SphereId> touched_;   // spheres whose candidates changed, to notify
  std::vector<char> touched_mark_;
};

/// A guard's closest objects, as (cone, K*) pairs of its non-empty cones.
using ClosestPerCone = std::vector<std::pair<ConeIndex, SphereId>>;

/// Sets K* of cone c of a guard of `owner` to k (no_sphere: the cone has none), and moves
/// the guard's count from the pair {owner, old K*} to {owner, k}. False if K* was k already.
bool set_closest(ClosestPerCone& closest, ConeIndex c, SphereId owner, SphereId k, CandidateCounts& counts);

}  // namespace kds
