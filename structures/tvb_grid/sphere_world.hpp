#pragma once
/// \file
/// Collision detection among spheres with unknown or ballistic trajectories: the
/// time-varying-bound grid of Kim, Guibas and Shin, as a kinetic structure of kds.
///
/// Every sphere has a bound (structures/collision/bound.hpp): the sphere itself for a
/// ballistic sphere, a growing sphere for one with an unknown trajectory. Events:
///   - "entering" / "leaving": a bound's extent crosses a cell face (eq. 7);
///   - "resetting": the bound's diameter reaches its cell side (eq. 8), so the sphere is
///     probed and its bound made equal to it again;
///   - "bound collision": two bounds meet (eq. 10): both spheres are probed, tested for a
///     real contact, and reset; between two ballistic spheres this is the real collision
///     itself, exact, and is counted as "collision";
///   - "wall": a bound meets a face of the box.
/// Only events earlier than a bound's reset are queued (section 3.3).
///
/// Contact tolerance (docs/structures/tvb-grid.md): a contact is declared when the gap
/// between two real spheres (or a sphere and a wall) is at most `contact_tolerance` and
/// they approach each other. Since every real contact is preceded by bound collisions
/// whose gaps shrink towards it, no contact is missed, and no two spheres ever overlap
/// by more than the tolerance (audits check it). Without a tolerance, two spheres closing
/// in would cause an endless cascade of ever shorter resets.
///
/// The brute-force twin is the same world with `BroadPhase::all_pairs`: a bound-collision
/// certificate for every pair, no grid and no cell events.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "certificates/bound_separation.hpp"
#include "certificates/deadline.hpp"
#include "certificates/plane_side.hpp"
#include "kds/simulator.hpp"
#include "kds/structure.hpp"
#include "structures/collision/bound.hpp"
#include "structures/tvb_grid/hierarchical_grid.hpp"
#include "structures/collision/box.hpp"
#include "structures/collision/contact.hpp"
#include "structures/collision/sphere.hpp"
#include "structures/collision/trajectory_probe.hpp"
#include "structures/collision/wall.hpp"

namespace kds {

enum class BroadPhase {
  grid,       ///< hierarchical uniform grids (the paper's method)
  all_pairs,  ///< every pair has a certificate: the brute-force twin
};

struct SphereWorldSettings {
  Box3 box;
  /// Constant acceleration of every ballistic sphere (unknown trajectories ignore it:
  /// their integrator applies whatever forces it likes within the bound).
  Vec<3> gravity{0, 0, 0};
  /// 1: elastic. Used by the default response for sphere pairs and walls.
  double restitution = 1.0;
  /// Contacts are declared at a gap of at most this length; no overlap is ever deeper.
  double contact_tolerance = 1e-6;
  BroadPhase broad_phase = BroadPhase::grid;
  /// Cell side / largest sphere diameter of a level (>= 2). 0: chosen by the cost model.
  double cell_ratio = 0;
  /// Required when a sphere has max_acceleration > 0.
  TrajectoryProbe* probe = nullptr;
};

class SphereWorld final : public Structure {
 public:
  using BoundCollision = BoundSeparation<SphereWorld>;
  using FaceCertificate = PlaneSide<SphereWorld>;
  using ResetCertificate = Deadline<SphereWorld>;
  /// A user's collision response: given the states at the contact (rounded) time, set the
  /// new velocities. The pair must not be left approaching (InvalidInput otherwise).
  using PairResponse = std::function<void(const Contact&, SphereState& a, SphereState& b)>;
  using WallResponse = std::function<void(const Contact&, SphereState& s)>;

  /// Validates and adds all spheres at the current time (InvalidInput naming the sphere:
  /// NaN or infinite values, radius or mass <= 0, negative acceleration bound, outside the
  /// box, overlapping another sphere, an unknown trajectory without a probe).
  SphereWorld(Simulator& sim, const SphereWorldSettings& settings, const std::vector<Sphere>& spheres);
  ~SphereWorld() override;
  SphereWorld(const SphereWorld&) = delete;
  SphereWorld& operator=(const SphereWorld&) = delete;

  std::size_t size() const { return spheres_.size(); }
  const Sphere& sphere(SphereId id) const { return spheres_[id].spec; }
  const Bound& bound(SphereId id) const { return spheres_[id].bound; }
  const SphereWorldSettings& settings() const { return settings_; }
  double cell_ratio() const { return cell_ratio_; }
  const HierarchicalGrid* grid() const { return grid_.get(); }

  /// State of a ballistic sphere at time t (from its exact motion); for a sphere with an
  /// unknown trajectory, the state at its last probe extrapolated linearly (the bound's
  /// centre), which is all kds knows without probing.
  SphereState state(SphereId id, double t) const;
  /// Contacts so far, in the order processed (time, pair or wall).
  const std::vector<Contact>& contacts() const { return contacts_; }
  std::uint64_t sphere_contacts() const { return sphere_contacts_; }
  std::uint64_t wall_contacts() const { return wall_contacts_; }
  std::uint64_t probes() const { return probes_; }
  /// Called after each contact is resolved.
  void on_contact(std::function<void(const Contact&)> f) { contact_observers_.push_back(std::move(f)); }
  void set_pair_response(PairResponse r) { pair_response_ = std::move(r); }
  void set_wall_response(WallResponse r) { wall_response_ = std::move(r); }
  /// Total kinetic energy of the ballistic spheres at time t (0.5 m |v|^2).
  double kinetic_energy(double t) const;

  // Structure
  const char* name() const override { return "sphere world"; }
  void audit(const AuditContext& ctx) const override;

  // Owner interface of the certificates.
  template <class NT>
  Polynomial<NT> centre(ObjectId id, int axis, double origin) const {
    return spheres_[id].bound.centre_coordinate<NT>(axis, origin);
  }
  template <class NT>
  Polynomial<NT> radius(ObjectId id, double origin) const {
    return spheres_[id].bound.radius_polynomial<NT>(origin);
  }
  void separation_failed(BoundCollision& c, Simulator& sim);
  void plane_crossed(FaceCertificate& c, Simulator& sim);
  void deadline_reached(ResetCertificate& c, Simulator& sim);

 private:
  struct Record {
    Sphere spec;
    Bound bound;
    int level = 0;
    double cell_side = 0;  // side of the cells of its level (also in the all-pairs twin)
    CellRange cells;
    double reset_deadline = 0;  // when the bound's diameter reaches the cell side (unknown trajectories)
  };
  bool ballistic(SphereId id) const { return spheres_[id].spec.max_acceleration == 0; }
  /// The bound equals the real sphere now (ballistic, or reset at the current time).
  bool bound_is_exact(SphereId id, double now) const;
  double horizon(SphereId id) const;

  void validate(const std::vector<Sphere>& spheres) const;
  void build_grid();
  /// Probes an unknown sphere at t, checks the promise |a| <= A, and returns its state.
  SphereState probe(SphereId id, double t);
  /// Makes the bound equal to the sphere at t with the given state (new motion).
  void reset_bound(SphereId id, double t, const SphereState& s);
  /// Destroys and recreates every certificate of a sphere, and its grid registration.
  void rebuild(SphereId id);
  /// Faces, walls, the reset deadline and the pairs of a sphere whose cells are up to date.
  void create_certificates(SphereId id);
  void create_pair(SphereId a, SphereId b);
  /// `crossed`: the face certificate that just failed, if any; its replacement on the same
  /// plane is its negation, which vanishes now (Birth::vanishes_now).
  void create_faces(SphereId id, const FaceCertificate* crossed = nullptr);
  void create_walls(SphereId id);
  /// Whether the cells of a sphere's bound reach the wall (axis, low or high face).
  bool region_reaches_wall(SphereId id, int axis, bool low) const;
  void refresh_pairs(SphereId id);
  void destroy_certificates(SphereId id, bool pairs, bool own);
  CellRange region_now(SphereId id) const;
  void contact(const Contact& c);

  static std::uint64_t pair_key(SphereId a, SphereId b);

  Simulator& sim_;
  SphereWorldSettings settings_;
  double cell_ratio_ = 2;
  std::vector<Record> spheres_;
  std::unique_ptr<HierarchicalGrid> grid_;
  std::vector<Contact> contacts_;
  std::uint64_t sphere_contacts_ = 0, wall_contacts_ = 0, probes_ = 0;
  std::vector<std::function<void(const Contact&)>> contact_observers_;
  PairResponse pair_response_;
  WallResponse wall_response_;
  std::vector<std::uint32_t> stamp_;  // for deduplicating candidates
  std::uint32_t stamp_now_ = 0;
  std::vector<SphereId> scratch_;
  std::vector<CertificateBase*> certificate_scratch_;  // reused: no allocation per event
};

}  // namespace kds
