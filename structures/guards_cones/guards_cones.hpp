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
///   - box events: a box starts or stops containing a guard. Three kinetic sorted lists
///     (structures/sorted_list) hold, per axis, the guards' coordinates and every box's
///     two extremes; a swap of a guard and an extreme changes containment on that axis,
///     and the other two axes are read from the lists' ranks in O(1). The guards of an
///     object lie on a grid, so on each axis they share a few coordinates (6 for balls):
///     a list holds one entry per such *guard plane* (owner, axis, offset) instead of one
///     per guard. The order and the box events are the same; the guards of one plane
///     never swap among themselves anyway, and two objects passing each other swap
///     6 x 6 planes per axis instead of 128 x 128 guards.
///   - center events: the centre of an object whose box contains g leaves its cone of g.
///     SIMPLIFIED: the paper keeps one sorted list per facet orientation over all facet
///     planes of all guards and all centres (O(rho^7 n) entries; 63 orientations and
///     about 8000 planes per ball here). This structure certifies instead, for every
///     (guard, box containing it) pair, that the centre stays on the inner side of the
///     three facets of its current cone (cone_facet.hpp): the same center events, for the
///     only centres that matter (an object whose box does not contain g is not in K(gamma)).
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
#include "structures/guards_cones/cone_facet.hpp"
#include "structures/guards_cones/cones.hpp"
#include "structures/guards_cones/fat_object.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds {

using GuardId = std::uint32_t;

class GuardsCones final : public BroadPhase {
 public:
  using Facet = ConeFacet<GuardsCones>;
  static constexpr int axes = 3;

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
  std::size_t candidate_count(SphereId id) const { return partners_[id].size(); }
  std::size_t candidate_pairs() const;
  std::size_t memberships() const { return memberships_; }
  const SortedList& list(int axis) const { return *lists_[axis]; }
  /// Guard planes (entries of each list that stand for guards), over the three axes.
  std::size_t guard_planes() const { return planes_[0].size() + planes_[1].size() + planes_[2].size(); }

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

 private:
  enum class EntryKind : std::uint8_t { plane, low, high };
  struct Entry {
    std::uint32_t index = 0;  // plane id (of its axis) or sphere id
    EntryKind kind = EntryKind::plane;
  };
  /// A guard plane of one axis: the guards of one object sharing a coordinate offset.
  struct Plane {
    SphereId owner = no_sphere;
    double offset = 0;
    EntryId entry = no_entry;
    std::vector<GuardId> guards;
  };

  void build_lists();
  void find_memberships();
  void swapped(int axis, EntryId left, EntryId right);
  /// Guard g passed an extreme of k's box on `axis`, entering or leaving its interval.
  void crossed(int axis, GuardId g, SphereId k, bool entered);
  bool inside_on(int axis, GuardId g, SphereId k) const;

  /// The cone of g holding the centre of k just after now (exact).
  ConeIndex locate(GuardId g, SphereId k) const;
  bool in_cone_just_after(GuardId g, SphereId k, ConeIndex c) const;
  /// Whether k's centre projects before j's on cone c's representative edge, just after now.
  bool closer(ConeIndex c, SphereId k, SphereId j) const;

  void add_member(GuardId g, SphereId k);
  void remove_member(GuardId g, SphereId k);
  void create_facets(GuardId g, Member& m);
  void destroy_facets(Member& m);
  /// K* of (g, c), or no_sphere.
  SphereId closest_of(GuardId g, ConeIndex c) const;
  void set_closest(GuardId g, ConeIndex c, SphereId k);
  /// Lemma 11's query, by a scan of g's members.
  void recompute_closest(GuardId g, ConeIndex c);
  void member_entered_cone(GuardId g, ConeIndex c, SphereId k);
  void member_left_cone(GuardId g, ConeIndex c, SphereId k);

  void add_partner(SphereId a, SphereId b);
  void remove_partner(SphereId a, SphereId b);
  void touched(SphereId a);
  void notify();

  CollisionWorld* world_ = nullptr;
  double rho_ = 1;
  std::unique_ptr<ConeSet> cones_;
  std::vector<FatObject> objects_;                      // by sphere
  std::vector<GuardId> first_guard_;                    // by sphere, n + 1
  std::vector<SphereId> owner_;                         // by guard
  std::vector<Vec<3>> offset_;                          // by guard
  std::array<std::unique_ptr<SortedList>, axes> lists_;
  std::array<std::vector<Entry>, axes> entry_;          // by entry
  std::array<std::vector<Plane>, axes> planes_;          // by plane id
  std::array<std::vector<std::uint32_t>, axes> plane_of_;  // by guard: its plane id
  std::array<std::vector<EntryId>, axes> low_, high_;   // by sphere
  std::vector<std::vector<Member>> members_;            // by guard
  std::vector<std::vector<std::pair<ConeIndex, SphereId>>> closest_;  // by guard
  std::vector<std::vector<GuardId>> member_of_;         // by sphere: guards whose member it is
  std::vector<std::vector<std::pair<SphereId, std::uint32_t>>> partners_;  // by sphere: (partner, count)
  std::size_t memberships_ = 0;
  bool started_ = false;
  std::vector<char> resetting_;                         // by sphere: between bound_will_reset and candidates()
  std::vector<SphereId> touched_;                       // spheres whose candidates changed, to notify
  std::vector<char> touched_mark_;
  std::uint64_t box_events_ = 0, center_events_ = 0, closest_changes_ = 0, query_scans_ = 0;
};

}  // namespace kds

#include "structures/collision/collision_world.hpp"

namespace kds {

template <class NT>
Polynomial<NT> GuardsCones::facet_function(GuardId g, SphereId object, const IntVec& n, double origin) const {
  const BodyId own = world_->body(owner_[g]), obj = world_->body(object);
  Polynomial<NT> f(NT(0));
  for (int k = 0; k < 3; ++k) {
    if (n[k] == 0) continue;
    Polynomial<NT> d = world_->centre<NT>(obj, k, origin) - world_->centre<NT>(own, k, origin) -
                       Polynomial<NT>(NT(offset_[g][k]));
    f += d * Polynomial<NT>(NT(n[k]));
  }
  return f;
}

}  // namespace kds
