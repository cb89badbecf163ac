#pragma once
/// \file
/// Collision detection among spheres in a box, with known (ballistic) or unknown
/// (bounded-acceleration) trajectories: the one contact pipeline of kds, over a
/// pluggable broad phase (broad_phase.hpp). docs/structures/collision.md describes it.
///
/// Every sphere has a bound (bound.hpp) that contains it: the sphere itself when
/// ballistic, a growing sphere when its trajectory is unknown (Kim, Guibas, Shin). The
/// world certifies:
///   - every candidate pair of its broad phase: the bounds stay apart (eq. 10), kind
///     "collision" between two ballistic spheres (the real contact, exact), else
///     "bound collision";
///   - every wall a sphere's bound may reach (eq. 7), kind "wall";
///   - the reset of an unknown trajectory's bound when its diameter reaches its cell side
///     (eq. 8, cell_sides.hpp), kind "resetting". No event later than the reset is queued
///     (section 3.3): the reset is the horizon of the sphere's certificates.
/// When one fails, the pipeline (`encounter`) runs: round the clock, probe the spheres,
/// test for a real contact, respond (the default impulse or the user's), log it, tell the
/// observers, then reset the spheres' bounds and rebuild their certificates.
///
/// Convex polytopes moving by translation (a `Sphere` with `polytope` set, ballistic) are
/// seen by the broad phase as their bounding spheres; a candidate pair of polytopes is
/// certified by a separating plane instead (certificates/facet_side.hpp, kind "separating
/// plane"): a facet of their Minkowski difference (minkowski_difference.hpp, computed once
/// per pair of shapes) that their relative position stays outside. When it fails, another
/// facet that separates them now replaces it, or, if none does, they touch: a contact,
/// answered along the facet's normal. A world holds balls or polytopes, not both.
///
/// Contact tolerance (docs/structures/tvb-grid.md): a contact is declared when the gap
/// between two spheres (or a sphere and a wall) is at most `contact_tolerance` and they
/// approach each other; no two spheres ever overlap by more (audits check it).

#include <array>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "certificates/bound_separation.hpp"
#include "certificates/deadline.hpp"
#include "certificates/facet_side.hpp"
#include "certificates/plane_side.hpp"
#include "kds/simulator.hpp"
#include "kds/structure.hpp"
#include "structures/collision/bound.hpp"
#include "structures/collision/box.hpp"
#include "structures/collision/broad_phase.hpp"
#include "structures/collision/cell_sides.hpp"
#include "structures/collision/contact.hpp"
#include "structures/collision/minkowski_difference.hpp"
#include "structures/collision/pair_table.hpp"
#include "structures/collision/sphere.hpp"
#include "structures/collision/trajectory_probe.hpp"
#include "structures/collision/wall.hpp"

namespace kds {

struct CollisionWorldSettings {
  Box3 box;
  /// Constant acceleration of every ballistic sphere (unknown trajectories ignore it:
  /// their integrator applies whatever forces it likes within the bound).
  Vec<3> gravity{0, 0, 0};
  /// 1: elastic. Used by the default response for sphere pairs and walls.
  double restitution = 1.0;
  /// Contacts are declared at a gap of at most this length; no overlap is ever deeper.
  double contact_tolerance = 1e-6;
  /// A registered broad phase (broad_phase_names()): "tvb-grid", the hierarchical grid of
  /// Kim, Guibas, Shin, or "all-pairs", the reference.
  std::string broad_phase = "tvb-grid";
  /// Cell side / largest sphere diameter of a level (>= 2), cell_sides.hpp. 0: chosen by
  /// the cost model (cost_model.hpp).
  double cell_ratio = 0;
  /// Required when a sphere has max_acceleration > 0.
  TrajectoryProbe* probe = nullptr;
};

class CollisionWorld final : public Structure {
 public:
  using PairCertificate = BoundSeparation<CollisionWorld>;
  using WallCertificate = PlaneSide<CollisionWorld>;
  using ResetCertificate = Deadline<CollisionWorld>;
  /// The certificate of a pair of polytopes.
  using FacetCertificate = FacetSide<CollisionWorld>;
  /// A user's collision response: given the states at the contact (rounded) time, set the
  /// new velocities. The pair must not be left approaching (InvalidInput otherwise).
  using PairResponse = std::function<void(const Contact&, SphereState& a, SphereState& b)>;
  /// The sphere must not be left moving into the wall (InvalidInput otherwise).
  using WallResponse = std::function<void(const Contact&, SphereState& s)>;

  /// Validates the spheres and adds each as a new body of `sim`, at the current time
  /// (InvalidInput naming the sphere and the field: io/validate_spheres.hpp, and an
  /// unknown trajectory without a probe; or naming the setting, or the broad phase if no
  /// such name is registered).
  CollisionWorld(Simulator& sim, const CollisionWorldSettings& settings, const std::vector<Sphere>& spheres);
  /// The same over existing 3D bodies of `sim` (sphere i is `bodies[i]`), so that other
  /// structures (a sorted list of their extremes, a viewer) watch the same bodies. Each
  /// sphere starts from its body's state now: the positions and velocities in `spheres`
  /// are replaced by it, and the body's motion by the sphere's (ballistic under the
  /// world's gravity, or its bound's centre). InvalidInput on a stale or foreign body, one
  /// that is not 3D, or one given twice.
  CollisionWorld(Simulator& sim, const CollisionWorldSettings& settings, std::vector<Sphere> spheres,
                 const std::vector<BodyId>& bodies);
  ~CollisionWorld() override;
  CollisionWorld(const CollisionWorld&) = delete;
  /// The checks of the first constructor on its settings and spheres, with its messages
  /// (InvalidInput): shared with the hard-sphere path (structures/hard_spheres), which must
  /// reject exactly what the world rejects.
  static void validate_input(const CollisionWorldSettings& settings, const std::vector<Sphere>& spheres);
  CollisionWorld& operator=(const CollisionWorld&) = delete;

  std::size_t size() const { return spheres_.size(); }
  /// The body of a sphere, and the sphere of a body of this world.
  BodyId body(SphereId id) const { return body_[id]; }
  SphereId sphere_of(BodyId b) const { return sphere_of_[b.index]; }
  /// The motion of a sphere's centre: exact for a ballistic sphere, the bound's predicted
  /// centre for an unknown trajectory.
  const Motion<3>& centre_motion(SphereId id) const { return sim_.bodies().motion_as<3>(body_[id]); }
  const Sphere& sphere(SphereId id) const { return spheres_[id].spec; }
  const Bound& bound(SphereId id) const { return spheres_[id].bound; }
  bool ballistic(SphereId id) const { return spheres_[id].spec.max_acceleration == 0; }
  /// Whether the bound of `id` is being restarted inside its old one (restart, between
  /// the broad phase's bound_will_reset and bound_was_reset): a certificate proving the
  /// bound clear of something (a plane it has not reached) holds of the new bound, and a
  /// broad phase may keep it (Simulator::keep).
  bool restarting_inside(SphereId id) const;
  bool is_polytope(SphereId id) const { return spheres_[id].spec.polytope != nullptr; }
  /// How far an object reaches from its centre toward wall w: its radius, or the
  /// polytope's extreme vertex along the wall's axis.
  double wall_reach(SphereId id, Wall w) const;
  /// The Minkowski difference of the shapes of polytopes a and b (a (+) -b), computed on
  /// first use and kept for every pair of the same two shapes.
  const MinkowskiDifference& minkowski(SphereId a, SphereId b) const;
  const CollisionWorldSettings& settings() const { return settings_; }
  /// The world's local frame (docs/structures/collision.md, "Precision"): the motions of
  /// its bodies are the sphere centres minus origin(), and box() is settings().box in that
  /// frame. The origin is the box's corner when the box is far from zero (local_origin in
  /// box.hpp), else 0; it is 0 for a world over existing bodies, whose frame is the user's.
  const Vec<3>& origin() const { return origin_; }
  const Box3& box() const { return box_; }
  double cell_ratio() const { return cell_sides_.ratio(); }
  const CellSides& cell_sides() const { return cell_sides_; }
  /// The level of `id` in cell_sides().
  int level(SphereId id) const { return spheres_[id].level; }
  const BroadPhase& broad_phase() const { return *broad_phase_; }
  Simulator& simulator() const { return sim_; }
  /// When the bound of `id` will be reset (eq. 8; infinity for a ballistic sphere): the
  /// horizon of every certificate over it, which need not look further (section 3.3).
  double horizon(SphereId id) const;

  /// State of a ballistic sphere at time t (from its exact motion); for a sphere with an
  /// unknown trajectory, the state at its last probe extrapolated linearly (the bound's
  /// centre), which is all kds knows without probing. In the user's coordinates (the local
  /// position plus origin(), rounded).
  SphereState state(SphereId id, double t) const;
  /// Total kinetic energy of the ballistic spheres at time t (0.5 m |v|^2).
  double kinetic_energy(double t) const;
  /// Contacts so far, in the order processed (time, pair or wall).
  const std::vector<Contact>& contacts() const { return contacts_; }
  /// Drops the contact log (long runs); the counters and observers go on.
  void clear_contacts() { contacts_.clear(); }
  /// false: contacts are counted and observed but not logged, so that a long run keeps
  /// its memory bounded (as HardSphereWorld::keep_contacts).
  void keep_contacts(bool keep) { keep_contacts_ = keep; }
  std::uint64_t sphere_contacts() const { return sphere_contacts_; }
  std::uint64_t wall_contacts() const { return wall_contacts_; }
  std::uint64_t probes() const { return probes_; }
  /// Separating-plane certificates of polytope pairs replaced by another facet (not contacts).
  std::uint64_t facet_switches() const { return facet_switches_; }
  /// Called after each contact is resolved, in the order of registration.
  void on_contact(std::function<void(const Contact&)> f) { contact_observers_.push_back(std::move(f)); }
  void set_pair_response(PairResponse r) { pair_response_ = std::move(r); }
  void set_wall_response(WallResponse r) { wall_response_ = std::move(r); }

  /// The certificate of a pair, or of a sphere and a wall, if there is one now (for
  /// tests and teaching: its allowance, its failure time).
  const PairCertificate* pair_certificate(SphereId a, SphereId b) const {
    return dynamic_cast<const PairCertificate*>(pairs_.find(a, b));
  }
  /// The separating-plane certificate of two polytopes, if there is one now.
  const FacetCertificate* facet_certificate(SphereId a, SphereId b) const {
    return dynamic_cast<const FacetCertificate*>(pairs_.find(a, b));
  }
  const WallCertificate* wall_certificate(SphereId id, Wall w) const;

  /// For broad phases: the candidates of `id`, or the walls it may reach, changed (the
  /// grid's cell events). Creates the certificates of new candidate pairs and reachable
  /// walls, destroys those of pairs and walls no longer reachable.
  void candidates_changed(SphereId id);

  // Structure
  const char* name() const override { return "collision world"; }
  void audit(const AuditContext& ctx) const override;

  // Owner interface of the certificates (and of a broad phase's certificates over bounds).
  template <class NT>
  Polynomial<NT> centre(BodyId id, int axis, double origin) const {
    return sim_.bodies().coordinate<NT>(id, axis, origin);
  }
  template <class NT>
  Polynomial<NT> radius(BodyId id, double origin) const {
    return spheres_[sphere_of_[id.index]].bound.radius_polynomial<NT>(origin);
  }
  /// The fast path of the pair and wall certificates (certificates/bound_separation.hpp,
  /// certificates/plane_side.hpp), and of a broad phase's certificates over bounds.
  template <class NT>
  bool centre_line(BodyId id, int axis, double origin, Line<NT>& out) const {
    return sim_.bodies().coordinate_line_at<NT>(sim_.bodies().place(id), axis, origin, out);
  }
  template <class NT>
  ShortPolynomial<NT> short_radius(BodyId id, double origin) const {
    return spheres_[sphere_of_[id.index]].bound.radius_polynomial<NT, ShortPolynomial<NT>>(origin);
  }
  /// The pair certificate's proof that bounds stay apart, from the stored numbers
  /// (certificates/bound_separation.hpp, stored_inputs).
  bool stored_centre(BodyId id, std::array<StoredLine, 3>& out) const {
    const std::uint32_t place = sim_.bodies().place(id);
    for (int k = 0; k < 3; ++k)
      if (!sim_.bodies().coordinate_stored_line_at(place, k, out[static_cast<std::size_t>(k)])) return false;
    return true;
  }
  RadiusGrowth radius_growth(BodyId id) const {
    const Bound& b = spheres_[sphere_of_[id.index]].bound;
    return {b.radius, b.acceleration, b.reset_time};
  }
  void separation_failed(PairCertificate& c, Simulator& sim);
  void plane_crossed(WallCertificate& c, Simulator& sim);
  void deadline_reached(ResetCertificate& c, Simulator& sim);
  void facet_failed(FacetCertificate& c, Simulator& sim);

 private:
  struct Record {
    Sphere spec;
    Bound bound;
    int level = 0;
    double reset_deadline = 0;  // when the bound's diameter reaches the cell side (unknown trajectories)
    std::array<WallCertificate*, wall_count> walls{};
    ResetCertificate* reset = nullptr;
  };
  /// What failed: one sphere (a wall, a reset) or two (a pair), and whether it may be a contact.
  struct Encounter;

  /// Builds the world over `body_` (spheres validated): used by both constructors.
  void build(const std::vector<Sphere>& spheres);
  /// Releases the bodies, and erases those the world made and nobody else holds.
  void release_bodies() noexcept;
  /// Someone else changed the motion of a sphere's body: a flight-plan update.
  void motion_changed_elsewhere(BodyId b);

  void validate(const std::vector<Sphere>& spheres) const;
  /// The bound equals the real sphere at t (ballistic, or reset at t).
  bool bound_is_exact(SphereId id, double t) const;

  // The pipeline.
  void encounter(const Encounter& e);
  SphereState probe(SphereId id, double t);
  bool touching(const Contact& c, const std::array<SphereState, 2>& s) const;
  /// The state in the local frame.
  SphereState local_state(SphereId id, double t) const;
  /// A user's response, given and returning states in the user's coordinates.
  template <class F, class... States>
  void user_response(const F& f, const Contact& c, States&... s) const;
  /// How far the rounding of the clock at t may have left two spheres in each other, or a
  /// sphere in a wall, beyond the contact tolerance: the distance covered in one ulp of
  /// time at the largest speed seen (or `speed`).
  double clock_rounding_depth(double t, double speed) const;
  void respond(const Contact& c, std::array<SphereState, 2>& s);
  void separate(const Contact& c, std::array<SphereState, 2>& s) const;
  void record(const Contact& c);
  void restart(std::span<const SphereId> ids, double t, std::span<const SphereState> states);
  void reset_bound(SphereId id, double t, const SphereState& s, bool keep_deadline = false);
  /// Whether the proofs over sphere id's bound hold of its bound after the restart under
  /// way: its bound does not change, or restarts inside the old one (restarts_inside).
  bool keeps_proofs(SphereId id) const;

  // Contacts at one instant (docs/structures/collision.md, "Simultaneous contacts").
  void begin_instant(double t);
  void note_if_failing_now(const CertificateBase& c);
  bool touching_at_instant(std::uint64_t key, double t0) const;

  // Certificates.
  /// `same_candidates`: the broad phase's candidates of `id` are those before the restart
  /// under way (BroadPhase::candidates_kept), so that only the renewed pairs and those
  /// destroyed by the restart (`dropped_`) need work.
  void create_certificates(SphereId id, bool same_candidates = false);
  void destroy_certificates(SphereId id, bool renew_pairs = false);
  void create_pair(SphereId a, SphereId b);
  void configure_pair(PairCertificate* c, SphereId a, SphereId b);
  // Polytopes (collision_world_polytopes.cpp).
  void validate_polytopes(const std::vector<Sphere>& spheres);
  void create_polytope_pair(SphereId a, SphereId b);
  /// The facet of minkowski(a, b) whose plane p = c_b - c_a is farthest outside of at time
  /// t (in doubles), and whether some facet has p strictly outside it (exactly).
  struct FacetChoice {
    std::uint32_t facet = 0;
    bool separating = false;
  };
  FacetChoice choose_facet(SphereId a, SphereId b, double t);
  /// The unit contact normal (from a to b) of two touching polytopes with states s.
  Vec<3> polytope_normal(SphereId a, SphereId b, double t);
  /// Audit: polytopes i and j (centres c at the audit's time) overlap by at most tol.
  /// Audit: polytopes i and j (centres c) touch or intersect, exactly.
  bool polytopes_meet(SphereId i, SphereId j, const std::vector<std::array<Rational, 3>>& c) const;
  void polytopes_apart(SphereId i, SphereId j, const std::vector<std::array<Rational, 3>>& c, const Rational& tol,
                       const std::string& when) const;
  const MinkowskiDifference& difference_of(const ConvexPolytope& a, const ConvexPolytope& b) const;
  void create_wall(SphereId id, Wall w);
  void refresh_walls(SphereId id);
  void refresh_pairs(SphereId id);
  void refresh_same_pairs(SphereId id);  // refresh_pairs when the candidates did not change

  Simulator& sim_;
  CollisionWorldSettings settings_;
  Vec<3> origin_{};                       // the local frame
  Box3 box_;                              // settings_.box in the local frame
  double max_speed_ = 0;                  // the largest speed given to or probed from a sphere
  std::vector<BodyId> body_;             // by sphere
  std::vector<SphereId> sphere_of_;      // by body index (no_sphere for other bodies)
  bool owns_bodies_ = false;             // made by the first constructor: erased with the world
  bool changing_motion_ = false;         // set_motion called by the world itself
  SubscriptionId motion_subscription_ = 0;
  CellSides cell_sides_;
  std::vector<Record> spheres_;
  PairTable<CertificateBase> pairs_;  // PairCertificate (balls) or FacetCertificate (polytopes)
  // By pair of shapes; filled on first use (also by const audits).
  mutable std::map<std::pair<const ConvexPolytope*, const ConvexPolytope*>, std::unique_ptr<MinkowskiDifference>>
      minkowski_;
  std::uint64_t facet_switches_ = 0;
  std::unique_ptr<BroadPhase> broad_phase_;
  std::vector<Contact> contacts_;
  bool keep_contacts_ = true;
  std::uint64_t sphere_contacts_ = 0, wall_contacts_ = 0, probes_ = 0;
  std::vector<std::function<void(const Contact&)>> contact_observers_;
  PairResponse pair_response_;
  WallResponse wall_response_;
  // The pairs and walls (by tie key) in contact at the instant `instant_` (the rounded
  // clock): their certificates failed there. Cleared when the clock moves on.
  double instant_ = -std::numeric_limits<double>::infinity();
  std::vector<std::uint64_t> touching_now_;
  std::vector<SphereId> candidates_;    // reused: no allocation per event
  std::vector<std::uint32_t> stamp_;    // marks of refresh_pairs, by sphere
  // By certificate id: a pair certificate between the halves of its renewal (restart
  // renews the pairs of a sphere whose bound resets; refresh_pairs ends or destroys them).
  std::vector<std::uint8_t> renewing_;
  // The spheres of the restart under way, and whether each restarts inside its old bound.
  std::array<SphereId, 2> restarting_{no_sphere, no_sphere};
  std::array<bool, 2> restarts_inside_{};
  bool any_inside_ = false;  // some restarts_inside_
  // Pairs (sphere, partner) destroyed by the restart under way, made again after it.
  std::vector<std::pair<SphereId, SphereId>> dropped_;
  std::uint32_t stamp_now_ = 0;
};

}  // namespace kds
