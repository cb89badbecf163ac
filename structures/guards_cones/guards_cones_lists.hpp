#pragma once
/// \file
/// Guards and cones with the paper's center events (Abam, de Berg, Poon, Speckmann,
/// section 3.2.1), registered as `guards-cones-lists`: the variant of GuardsCones
/// (guards_cones.hpp) that keeps no member lists.
///
/// GuardsCones keeps, for every guard g, all objects whose box contains g, each with
/// three facet certificates: quadratic when sizes vary (a large box holds the guards of
/// many small objects, Fig. 6). This structure keeps, as the paper does, only K*(gamma)
/// per cone gamma of each guard g: among the objects (other than g's owner) whose centre
/// lies in gamma and whose box contains g, the one whose centre projects closest to g on
/// gamma's representative edge. The candidate pairs {owner(g), K*(gamma)} are certified
/// by the world's collision certificates (candidate_counts.hpp).
///
/// Events (Lemma 9: K*(gamma) changes only at these):
///   - box events (guard_box_lists.hpp, three sorted lists): box of k starts containing
///     g: locate the cone of k's centre (exact) and compare k with its K*; stops
///     containing g: if k was K* of a cone of g, ask the query below.
///   - center events (facet_plane_lists.hpp, one sorted list per facet orientation over
///     all guards' facet planes and all centres): the centre of k crossed a plane of g
///     while k's box contains g (O(1) from the box lists' ranks): relocate k's cone; if k
///     was K* of the cone it left, ask the query; compare k with K* of the cone it entered.
///   - Lemma 11's query (the closest object of a cone after K* left it) is SIMPLIFIED: a
///     scan of every object, keeping those whose box contains g (ranks, O(1) each) and
///     whose centre is in the cone (exact), counted in query_scans(): O(n) per query
///     instead of the paper's O(log^6 n) with seven-level kinetic range and segment trees.
///     It costs time, not certificates: the structure's certificates are the lists'
///     order certificates and the world's pair certificates, as in Theorem 13.
///   - a motion change of k (a response, a flight plan) may move its centre by a jump.
///     The lists have the new motion at once and repair their order by swaps, one event
///     per entry passed: fine for a response (the position is the old one, or moved by a
///     few ulps by the world's separation), thousands at one instant for a flight plan
///     across the scene. So a jump whose swaps would outnumber k's entries erases k's
///     entries from every list and reinserts them where they belong (jumped()), then
///     recomputes what the jump changed; a smaller one is left to the swaps. Either way
///     the order of projections, kept by continuity only, is asked again at every guard
///     in k's box.
///
/// Ballistic motion only, balls and convex polytopes (as GuardsCones). On polytopes it is
/// slow: every plane of one body swaps with every plane of another as they pass (Lemma
/// 10), about two million swaps per unit of relative travel for two unit cubes, so its
/// polytope tests run short scenes; GuardsCones runs the long ones
/// (docs/structures/guards-cones.md).

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "structures/collision/broad_phase.hpp"
#include "structures/guards_cones/candidate_counts.hpp"
#include "structures/guards_cones/cone_geometry.hpp"
#include "structures/guards_cones/cones.hpp"
#include "structures/guards_cones/facet_plane_lists.hpp"
#include "structures/guards_cones/fat_object.hpp"
#include "structures/guards_cones/guard_box_lists.hpp"

namespace kds {

class GuardsConesLists final : public BroadPhase {
 public:
  GuardsConesLists() = default;
  GuardsConesLists(const GuardsConesLists&) = delete;
  GuardsConesLists& operator=(const GuardsConesLists&) = delete;

  const char* name() const override { return "guards-cones-lists"; }
  /// Builds guards, the box and facet lists and the closest objects; InvalidInput naming
  /// the first sphere with an unknown trajectory.
  void start(CollisionWorld& world) override;
  void bound_will_reset(SphereId id) override { counts_.bound_will_reset(id); }
  void bound_was_reset(SphereId id) override;
  void candidates(SphereId id, std::vector<SphereId>& out) override { counts_.candidates(id, out); }
  bool may_reach_wall(SphereId, Wall) const override { return true; }
  /// Every K*(gamma) against a static exact computation (boxes containing each guard,
  /// cones of the centres, projections), and the candidate counts against them.
  void audit(const AuditContext& ctx) const override;
  /// Its guards, as small boxes of role "guard" (draw_guards in guard_layout.hpp).
  void draw(SphereId id, Drawing& out) const override;

  // What it keeps, for tests, benchmarks and teaching.
  const ConeSet& cones() const { return *cones_; }
  const FatObject& object(SphereId id) const { return objects_[id]; }
  std::size_t guards() const { return owner_.size(); }
  SphereId guard_owner(GuardId g) const { return owner_[g]; }
  const Vec<3>& guard_offset(GuardId g) const { return offset_[g]; }
  /// K*(gamma) for the cones of g that have one: (cone, object).
  const std::vector<std::pair<ConeIndex, SphereId>>& closest(GuardId g) const { return closest_[g]; }
  std::size_t candidate_count(SphereId id) const { return counts_.partners(id).size(); }
  std::size_t candidate_pairs() const { return counts_.pairs(); }
  const GuardBoxLists& box_lists() const { return boxes_; }
  const FacetPlaneLists& facet_lists() const { return facets_; }
  /// Order certificates of the structure's own lists (adjacent pairs of the three box
  /// lists and of the facet lists).
  std::size_t order_certificates() const;
  /// Order certificates that name object k (its entries' neighbours in every list): the
  /// first term of Theorem 13's count, counted.
  std::size_t order_certificates_of(SphereId k) const;

  std::uint64_t box_events() const { return box_events_; }
  std::uint64_t center_events() const { return center_events_; }
  std::uint64_t closest_changes() const { return closest_changes_; }
  /// Lemma 11's queries, and the objects they looked at.
  std::uint64_t queries() const { return queries_; }
  std::uint64_t query_scans() const { return query_scans_; }
  /// Motion changes handled by erasing and reinserting the body's entries (a jump), and
  /// the entries reinserted; the others were left to the lists' swaps.
  std::uint64_t jumps() const { return jumps_; }
  std::uint64_t jump_entries() const { return jump_entries_; }
  /// Swaps of the box lists and of the facet lists.
  std::uint64_t box_swaps() const { return boxes_.swaps(); }
  std::uint64_t facet_swaps() const { return facets_.swaps(); }
  std::uint64_t swaps() const { return box_swaps() + facet_swaps(); }

 private:
  GuardPoint guard_point(GuardId g) const { return {owner_[g], offset_[g]}; }
  void box_crossed(int axis, GuardId g, SphereId k, bool entered);
  /// The centre of k crossed a plane through g, and k's box contains g. `crossing`: it is
  /// exactly on that plane now (SortedList::swap_keys_equal_now), with the sign of its
  /// function's slope.
  void centre_crossed(GuardId g, SphereId k, const PlaneCrossing* crossing);
  /// The cone of g whose K* is k, or no_cone.
  ConeIndex cone_led_by(GuardId g, SphereId k) const;
  SphereId closest_of(GuardId g, ConeIndex c) const;
  /// k's centre is in cone c of g and its box contains g: it becomes K* if closer.
  void offer(GuardId g, ConeIndex c, SphereId k);
  /// Lemma 11's query, by a scan (see the file comment). `crossing`: the centre of
  /// `crossed` is on that plane of g now (centre_crossed).
  void recompute_closest(GuardId g, ConeIndex c, SphereId crossed = no_sphere, const PlaneCrossing* crossing = nullptr);
  void set_closest(GuardId g, ConeIndex c, SphereId k);
  /// Whether the lists would repair id's new motion by more swaps than id has entries.
  bool jumped(SphereId id) const;
  /// After a jump of id: reinserts its entries and recomputes every K* the jump may change.
  void repair_jump(SphereId id);
  /// K* of every cone of g, from the objects whose box holds g now.
  void recompute_guard(GuardId g);
  void notify() { counts_.notify(*world_); }

  CollisionWorld* world_ = nullptr;
  std::unique_ptr<ConeSet> cones_;
  std::vector<FatObject> objects_;   // by sphere
  std::vector<GuardId> first_guard_;  // by sphere, n + 1
  std::vector<SphereId> owner_;       // by guard
  std::vector<Vec<3>> offset_;        // by guard
  GuardBoxLists boxes_;
  FacetPlaneLists facets_;
  std::vector<std::vector<std::pair<ConeIndex, SphereId>>> closest_;  // by guard
  CandidateCounts counts_;
  std::vector<Motion<3>> seen_;  // by sphere: the motion the lists were last put in order for
  std::uint64_t box_events_ = 0, center_events_ = 0, closest_changes_ = 0, queries_ = 0, query_scans_ = 0;
  std::uint64_t jumps_ = 0, jump_entries_ = 0;
};

}  // namespace kds
