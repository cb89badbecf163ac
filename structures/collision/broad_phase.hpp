#pragma once
/// \file
/// The broad phase of a collision world: which pairs of spheres may meet, and when a pair
/// is apart again. The world (collision_world.hpp) certifies every candidate pair
/// exactly and runs the contact pipeline; a broad phase only keeps the candidate sets
/// small, usually with certificates of its own (the grid's cell faces).
///
/// Models: AllPairs (all_pairs.hpp: every pair is a candidate, the reference that tests
/// compare every other broad phase against) and TvbGrid (structures/tvb_grid: the
/// hierarchical grid of Kim, Guibas, Shin). Worlds pick one by name
/// (broad_phase_registry.hpp). docs/structures/collision.md describes the contract.

#include <vector>

#include "kds/report/drawing.hpp"
#include "kds/structure.hpp"
#include "structures/collision/sphere.hpp"
#include "structures/collision/wall.hpp"

namespace kds {

class CollisionWorld;

/// The contract, in the world's terms. A sphere's *bound* (bound.hpp) contains the real
/// sphere; the world reads a broad phase's answers at two moments only: right after a
/// sphere's bound is reset, and when the broad phase calls
/// `CollisionWorld::candidates_changed(id)`. Between those moments:
///   - two spheres that are not each other's candidates must not have meeting bounds
///     (for two polytopes: the polytopes themselves must not meet; their bounding
///     spheres may), and a sphere must not reach a wall for which may_reach_wall is false;
///   - candidates are symmetric: j is a candidate of i exactly when i is one of j.
/// A broad phase may create certificates of its own (with tie keys from tie_keys.hpp,
/// `tie_key::bookkeeping`), over the bounds the world exposes; when one fails it updates
/// itself and calls candidates_changed for the spheres concerned.
class BroadPhase {
 public:
  virtual ~BroadPhase() = default;

  /// The name it is registered under ("all-pairs", "tvb-grid").
  virtual const char* name() const = 0;

  /// Once, when the world starts: every bound is set. The world outlives the broad phase.
  virtual void start(CollisionWorld& world) = 0;
  /// The bound of `id` is about to change: destroy every certificate that reads it (the
  /// queue may still compare the failure times of those certificates, which must be
  /// computed from the functions that produced them), except those it may keep: when
  /// CollisionWorld::restarting_inside(id), a certificate proving the bound clear of
  /// something holds of the new bound, and Simulator::keep leaves it as it is.
  virtual void bound_will_reset(SphereId id) = 0;
  /// The bound of `id` was reset at the current time: update what depends on it. The
  /// world asks for its candidates next, unless candidates_kept says it need not.
  virtual void bound_was_reset(SphereId id) = 0;

  /// Asked of every sphere of a restart after bound_was_reset of them all: whether this
  /// reset left everything that `id`'s candidacies depend on as it was (the grid: its
  /// region). When every restarting sphere answers true, no candidate set changed (a
  /// candidacy depends on its two spheres only), and the world does not ask for
  /// candidates again: answering true must not rely on a later candidates() call (as
  /// guards-cones' counts do, which answer false). False (the default) is always correct.
  virtual bool candidates_kept(SphereId /*id*/) const { return false; }

  /// Appends the candidates of `id` to `out`: each once, never `id` itself.
  virtual void candidates(SphereId id, std::vector<SphereId>& out) = 0;
  /// Whether the bound of `id` may reach wall `w`.
  virtual bool may_reach_wall(SphereId id, Wall w) const = 0;

  /// Checks the broad phase's own invariants at the audit's time (throws AuditFailure);
  /// the world has checked the candidate pairs already.
  virtual void audit(const AuditContext& ctx) const = 0;

  /// What a viewer shows of the broad phase's part around sphere `id` now, in the world's
  /// local frame (kds/report/drawing.hpp): the grid's cells, the threshold boxes, the
  /// boxes of box overlap. `kds run --replay` calls it after every event and records what
  /// changed (docs/viewer.md). The default draws nothing (all-pairs has nothing to show).
  virtual void draw(SphereId id, Drawing& out) const {
    (void)id;
    (void)out;
  }
};

}  // namespace kds
