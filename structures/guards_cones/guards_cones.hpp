#pragma once
/// \file
/// Guards and cones (Abam, de Berg, Poon, Speckmann, section 3.2) as a broad phase of the
/// collision world: collision detection among fat objects of very different sizes.
///
/// Every object K carries guards G(K) (guards.hpp, Lemma 7): if a larger object touches
/// K, it contains a guard of K. Every guard g carries the cones of cones.hpp (Lemma 8)
/// with apex g. For each cone gamma of g the structure keeps K*(gamma): among the objects
/// (other than g's owner) whose centre lies in gamma and whose bounding box contains g,
/// the one whose centre projects closest to g on gamma's representative edge. By Lemma 9
/// an object that contains g is that closest one, and the order of the projections does
/// not change while the centres stay in the cone and the boxes keep containing g. The
/// candidate pairs are {owner(g), K*(gamma)} over all guards and cones: each is certified
/// by the world's exact collision certificate, so every collision is detected.
///
/// Events that change K*(gamma) (section 3.2.1):
///   - box events: a box starts or stops containing a guard (guard_box_lists.hpp: three
///     kinetic sorted lists of guard planes and box extremes).
///   - center events: the centre of an object whose box contains g leaves its cone of g.
///     SIMPLIFIED: the paper keeps one sorted list per facet orientation over all facet
///     planes of all guards and all centres (O(rho^7 n) entries; 63 orientations and
///     about 8000 planes per ball here). This structure certifies instead, for every
///     (guard, box containing it) pair, that the centre stays on the inner side of the
///     three facets of its current cone (cone_facet.hpp): the same center events, for the
///     only centres that matter (an object whose box does not contain g is not in K(gamma)).
///     GuardsConesLists (guards_cones_lists.hpp) is the paper's version, without members.
///   - Lemma 11's query (the closest object after one leaves) is SIMPLIFIED too: a scan of
///     the objects whose box contains g and whose centre is in gamma (the guard's member
///     list), counted in query_scans(); the paper's seven-level kinetic range and segment
///     trees are not built.
///
/// Ballistic balls, or ballistic convex polytopes moving by translation (fat_object.hpp:
/// each object's own inner and outer radius and box about its reference point; the guards
/// use its own r and R and the scene's largest fatness). Memory and events grow with the
/// guards: 128 per ball, about 1000 per cube or octahedron, 11 000 per tetrahedron.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "structures/collision/broad_phase.hpp"
#include "structures/guards_cones/candidate_counts.hpp"
#include "structures/guards_cones/cone_facet.hpp"
#include "structures/guards_cones/cone_geometry.hpp"
#include "structures/guards_cones/cones.hpp"
#include "structures/guards_cones/fat_object.hpp"
#include "structures/guards_cones/guard_box_lists.hpp"
#include "structures/guards_cones/spare_buffers.hpp"

namespace kds {

class GuardsCones final : public BroadPhase {
 public:
  using Facet = ConeFacet<GuardsCones>;
  static constexpr int axes = GuardBoxLists::axes;

  GuardsCones() = default;
  ~GuardsCones() override;
  GuardsCones(const GuardsCones&) = delete;
  GuardsCones& operator=(const GuardsCones&) = delete;

  const char* name() const override { return "guards-cones"; }
  /// Builds guards, lists, memberships and closest objects; InvalidInput naming the
  /// first sphere with an unknown trajectory.
  void start(CollisionWorld& world) override;
  /// Certificates over a body follow its motion changes by themselves (they name it).
  void bound_will_reset(SphereId id) override;
  /// A motion change (a contact's response, a flight-plan jump) may have moved the centre
  /// discontinuously: the closest objects of the cones it takes part in are recomputed.
  void bound_was_reset(SphereId id) override;
  void candidates(SphereId id, std::vector<SphereId>& out) override;
  bool may_reach_wall(SphereId, Wall) const override { return true; }
  /// Memberships (guard in box, closed, ties by the lists' order), cone assignments and
  /// closest objects against a static computation in exact rationals; the candidate
  /// counts against the closest objects.
  void audit(const AuditContext& ctx) const override;
  /// Its guards, as small boxes of role "guard" (draw_guards in guard_layout.hpp).
  void draw(SphereId id, Drawing& out) const override;

  // What it keeps, for tests, benchmarks and teaching.
  const ConeSet& cones() const { return *cones_; }
  const FatObject& object(SphereId id) const { return objects_[id]; }
  std::size_t guards() const { return owner_.size(); }
  SphereId guard_owner(GuardId g) const { return owner_[g]; }
  const Vec<3>& guard_offset(GuardId g) const { return offset_[g]; }
  /// The largest fatness the guards and cones were built for.
  double rho() const { return rho_; }
  struct Member {
    SphereId object = no_sphere;
    ConeIndex cone = no_cone;
    std::array<Facet*, 3> facet{};
  };
  /// The objects whose box contains guard g, with the cone their centre is in.
  const std::vector<Member>& members(GuardId g) const { return members_[g]; }
  /// K*(gamma) for the cones of g that have one: (cone, object).
  const std::vector<std::pair<ConeIndex, SphereId>>& closest(GuardId g) const { return closest_[g]; }
  /// Distinct candidates of a sphere now.
  std::size_t candidate_count(SphereId id) const { return counts_.partners(id).size(); }
  std::size_t candidate_pairs() const;
  std::size_t memberships() const { return memberships_; }
  const SortedList& list(int axis) const { return boxes_.list(axis); }
  /// Guard planes (entries of each list that stand for guards), over the three axes.
  std::size_t guard_planes() const { return boxes_.guard_planes(); }

  std::uint64_t box_events() const { return box_events_; }
  std::uint64_t center_events() const { return center_events_; }
  std::uint64_t closest_changes() const { return closest_changes_; }
  /// Members looked at by the stand-in for Lemma 11's query (scans after a removal).
  std::uint64_t query_scans() const { return query_scans_; }
  std::uint64_t swaps() const;

  // Owner interface of the facet certificate.
  template <class NT>
  Polynomial<NT> facet_function(GuardId g, SphereId object, const IntVec& n, double origin) const;
  void facet_crossed(Facet& c, Simulator& sim);
  /// Whether the facet functions of object k1 in a cone of g1 (normal n1) and of k2 in a
  /// cone of g2 (normal n2) are one function of degree 1 up to a factor (same_facet_line,
  /// cone_geometry.hpp).
  bool same_facet_function(GuardId g1, const IntVec& n1, SphereId k1, GuardId g2, const IntVec& n2,
                           SphereId k2) const {
    return same_facet_line(*world_, {guard_point(g1), n1, k1}, {guard_point(g2), n2, k2});
  }

 private:
  /// Guard g passed an extreme of k's box on `axis`, entering or leaving its interval.
  void crossed(int axis, GuardId g, SphereId k, bool entered);
  bool inside_on(int axis, GuardId g, SphereId k) const { return boxes_.inside_on(axis, g, k); }

  GuardPoint guard_point(GuardId g) const { return {owner_[g], offset_[g]}; }
  /// The cone of g holding the centre of k just after now (exact).
  ConeIndex locate(GuardId g, SphereId k, const PlaneCrossing* crossing = nullptr) const {
    return locate_centre(*world_, *cones_, guard_point(g), k, crossing);
  }
  /// Whether k's centre projects before j's on cone c's representative edge, just after now.
  bool closer(ConeIndex c, SphereId k, SphereId j) const { return projects_before(*world_, *cones_, c, k, j); }

  void add_member(GuardId g, SphereId k);
  void remove_member(GuardId g, SphereId k);
  /// With `crossing`, the facet on its plane is created vanishing now (kds/solver.hpp's
  /// Birth::vanishes_now: its function is 0 now and positive just after).
  void create_facets(GuardId g, Member& m, const PlaneCrossing* crossing = nullptr);
  void destroy_facets(Member& m);
  /// K* of (g, c), or no_sphere.
  SphereId closest_of(GuardId g, ConeIndex c) const;
  void set_closest(GuardId g, ConeIndex c, SphereId k);
  /// Lemma 11's query, by a scan of g's members.
  void recompute_closest(GuardId g, ConeIndex c);
  void member_entered_cone(GuardId g, ConeIndex c, SphereId k);
  void member_left_cone(GuardId g, ConeIndex c, SphereId k);

  void notify() { counts_.notify(*world_); }

  CollisionWorld* world_ = nullptr;
  double rho_ = 1;
  std::unique_ptr<ConeSet> cones_;
  std::vector<FatObject> objects_;                      // by sphere
  std::vector<GuardId> first_guard_;                    // by sphere, n + 1
  std::vector<SphereId> owner_;                         // by guard
  std::vector<Vec<3>> offset_;                          // by guard
  GuardBoxLists boxes_;
  std::vector<std::vector<Member>> members_;            // by guard
  std::vector<std::vector<std::pair<ConeIndex, SphereId>>> closest_;  // by guard
  std::vector<std::vector<GuardId>> member_of_;         // by sphere: guards whose member it is
  SpareBuffers<Member> spare_members_;                  // emptied members_ lists' buffers
  SpareBuffers<std::pair<ConeIndex, SphereId>> spare_closest_;  // emptied closest_ lists' buffers
  std::vector<ConeIndex> cones_to_recompute_;           // bound_was_reset's scratch
  CandidateCounts counts_;
  std::size_t memberships_ = 0;
  std::uint64_t box_events_ = 0, center_events_ = 0, closest_changes_ = 0, query_scans_ = 0;
};

}  // namespace kds

#include "structures/collision/collision_world.hpp"

namespace kds {

template <class NT>
Polynomial<NT> GuardsCones::facet_function(GuardId g, SphereId object, const IntVec& n, double origin) const {
  return facet_polynomial<NT>(*world_, guard_point(g), object, n, origin);
}

}  // namespace kds
