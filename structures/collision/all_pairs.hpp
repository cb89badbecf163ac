#pragma once
/// \file
/// The reference broad phase: every pair of spheres is a candidate, every wall reachable.
/// O(n) certificates per sphere and no events of its own; the world then certifies every
/// pair exactly, so this is the brute-force twin that every other broad phase is tested
/// against (same contacts, same order, same times to the last bit in ballistic mode).

#include "structures/collision/broad_phase.hpp"

namespace kds {

class AllPairs final : public BroadPhase {
 public:
  const char* name() const override { return "all-pairs"; }
  void start(CollisionWorld& world) override;
  void bound_will_reset(SphereId) override {}
  void bound_was_reset(SphereId) override {}
  void candidates(SphereId id, std::vector<SphereId>& out) override;
  bool may_reach_wall(SphereId, Wall) const override { return true; }
  void audit(const AuditContext&) const override {}

 private:
  SphereId spheres_ = 0;
};

}  // namespace kds
