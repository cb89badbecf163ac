#include "structures/guards_cones/guards_cones.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kds/errors.hpp"
#include "kds/function.hpp"
#include "kds/solver.hpp"
#include "structures/collision/tie_keys.hpp"
#include "structures/guards_cones/guard_layout.hpp"

namespace kds {
namespace {

/// The broad phase's own events are numbered 1 to 255 in tie_key::bookkeeping.
constexpr std::uint8_t kFacetTieCode = 1;

template <class V, class T>
bool erase_one(V& v, const T& x) {
  const auto it = std::find(v.begin(), v.end(), x);
  if (it == v.end()) return false;
  *it = v.back();
  v.pop_back();
  return true;
}

}  // namespace

GuardsCones::~GuardsCones() {
  if (world_ == nullptr) return;
  Simulator& sim = world_->simulator();
  for (auto& ms : members_)
    for (Member& m : ms)
      for (Facet*& f : m.facet)
        if (f != nullptr) sim.destroy(f);
  // The lists destroy their own certificates and release their bodies.
}

void GuardsCones::start(CollisionWorld& world) {
  const std::size_t n = world.size();
  GuardLayout l = layout_guards(world, name());
  world_ = &world;
  objects_ = std::move(l.objects);
  rho_ = l.rho;
  cones_ = std::move(l.cones);
  first_guard_ = std::move(l.first_guard);
  owner_ = std::move(l.owner);
  offset_ = std::move(l.offset);
  members_.assign(owner_.size(), {});
  closest_.assign(owner_.size(), {});
  member_of_.assign(n, {});
  counts_.reset(n);
  boxes_.build(world, objects_, first_guard_, offset_);
  boxes_.for_each_containment([this](GuardId g, SphereId k) { add_member(g, k); });
  boxes_.on_crossing([this](int axis, std::span<const GuardId> guards, SphereId k, bool entered) {
    for (GuardId g : guards) crossed(axis, g, k, entered);
    notify();
  });
  counts_.start_notifying();
}

void GuardsCones::crossed(int axis, GuardId g, SphereId k, bool entered) {
  if (entered) {
    if (inside_on((axis + 1) % axes, g, k) && inside_on((axis + 2) % axes, g, k)) {
      ++box_events_;
      add_member(g, k);
    }
    return;
  }
  const auto& ms = members_[g];
  if (std::any_of(ms.begin(), ms.end(), [k](const Member& m) { return m.object == k; })) {
    ++box_events_;
    remove_member(g, k);
  }
}

void GuardsCones::create_facets(GuardId g, Member& m, const PlaneCrossing* crossing) {
  Simulator& sim = world_->simulator();
  const BodyId own = world_->body(owner_[g]), obj = world_->body(m.object);
  for (int f = 0; f < 3; ++f) {
    const IntVec& n = cones_->cone(m.cone).normal[f];
    const std::uint64_t tie = tie_key::bookkeeping(owner_[g], kFacetTieCode);
    m.facet[f] = crossing != nullptr && parallel_normals(n, crossing->normal)
                     ? sim.create_vanishing_now<Facet>(*this, own, obj, g, m.object, n, tie)
                     : sim.create<Facet>(*this, own, obj, g, m.object, n, tie);
  }
}

void GuardsCones::destroy_facets(Member& m) {
  Simulator& sim = world_->simulator();
  for (Facet*& f : m.facet) {
    if (f != nullptr) sim.destroy(f);
    f = nullptr;
  }
}

void GuardsCones::add_member(GuardId g, SphereId k) {
  Member m;
  m.object = k;
  m.cone = locate(g, k);
  create_facets(g, m);
  spare_members_.supply(members_[g]);
  members_[g].push_back(m);
  member_of_[k].push_back(g);
  ++memberships_;
  member_entered_cone(g, m.cone, k);
}

void GuardsCones::remove_member(GuardId g, SphereId k) {
  auto& ms = members_[g];
  const auto it = std::find_if(ms.begin(), ms.end(), [k](const Member& m) { return m.object == k; });
  if (it == ms.end()) throw std::logic_error("guards-cones: removing a member that is not there");
  Member m = *it;
  destroy_facets(m);
  *it = ms.back();
  ms.pop_back();
  spare_members_.reclaim(ms);
  erase_one(member_of_[k], g);
  --memberships_;
  member_left_cone(g, m.cone, k);
}

void GuardsCones::facet_crossed(Facet& c, Simulator&) {
  ++center_events_;
  const GuardId g = c.guard();
  const SphereId k = c.object();
  auto& ms = members_[g];
  const auto it = std::find_if(ms.begin(), ms.end(), [k](const Member& m) { return m.object == k; });
  if (it == ms.end()) throw std::logic_error("guards-cones: a facet certificate of a pair that is not a member");
  const ConeIndex old = it->cone;
  // When c's failure time is a root of c's own function (not the clock it was found
  // violated at, nor a rounded clock: those have other sources), the centre is on c's plane
  // now, exactly: the new cone's facet on that plane needs no exact sign, and its
  // certificate vanishes now. (Not sim.now(): at an instant of several events the clock
  // keeps the first one's root, and ties of one plane through several guards are common.
  // A facet is never renewed nor rescheduled in place, and its handler destroys it, so a
  // time with source == &c is c's own root, even if a comparison computed its exact value;
  // a pinned one is left alone, as Order::vanishes_at_failure_time leaves it.)
  std::optional<PlaneCrossing> crossing;
  if (c.failure_time().source() == &c && !c.failure_time().pinned())
    crossing = plane_crossing(*world_, guard_point(g), k, c.normal());
  const PlaneCrossing* on_plane = crossing ? &*crossing : nullptr;
  destroy_facets(*it);  // including c
  it->cone = locate(g, k, on_plane);
  create_facets(g, *it, on_plane);
  const ConeIndex now = it->cone;
  if (now != old) {
    member_left_cone(g, old, k);
    member_entered_cone(g, now, k);
  }
  notify();
}

SphereId GuardsCones::closest_of(GuardId g, ConeIndex c) const {
  for (const auto& [cone, k] : closest_[g])
    if (cone == c) return k;
  return no_sphere;
}

void GuardsCones::member_entered_cone(GuardId g, ConeIndex c, SphereId k) {
  const SphereId cur = closest_of(g, c);
  if (cur == no_sphere || closer(c, k, cur)) set_closest(g, c, k);
}

void GuardsCones::member_left_cone(GuardId g, ConeIndex c, SphereId k) {
  if (closest_of(g, c) == k) recompute_closest(g, c);
}

void GuardsCones::recompute_closest(GuardId g, ConeIndex c) {
  SphereId best = no_sphere;
  for (const Member& m : members_[g]) {
    if (m.cone != c) continue;
    ++query_scans_;
    if (best == no_sphere || closer(c, m.object, best)) best = m.object;
  }
  set_closest(g, c, best);
}

void GuardsCones::set_closest(GuardId g, ConeIndex c, SphereId k) {
  spare_closest_.supply(closest_[g]);
  if (kds::set_closest(closest_[g], c, owner_[g], k, counts_)) ++closest_changes_;
  spare_closest_.reclaim(closest_[g]);
}

void GuardsCones::bound_will_reset(SphereId id) { counts_.bound_will_reset(id); }

void GuardsCones::bound_was_reset(SphereId id) {
  // The order of projections in a cone is kept by continuity (Lemma 9); a motion change
  // may move the centre by a jump (a flight plan; a response's few ulps), so the cones
  // the object takes part in are looked at again: those of its own guards, and its own
  // cone at every guard whose member it is.
  std::vector<ConeIndex>& cs = cones_to_recompute_;
  for (GuardId g = first_guard_[id]; g < first_guard_[id + 1]; ++g) {
    cs.clear();
    for (const auto& p : closest_[g]) cs.push_back(p.first);
    for (ConeIndex c : cs) recompute_closest(g, c);
  }
  for (GuardId g : member_of_[id])
    for (const Member& m : members_[g])
      if (m.object == id) {
        recompute_closest(g, m.cone);
        break;
      }
  notify();
}

void GuardsCones::candidates(SphereId id, std::vector<SphereId>& out) { counts_.candidates(id, out); }

void GuardsCones::draw(SphereId id, Drawing& out) const {
  draw_guards(*world_, objects_[id], std::span(offset_).subspan(first_guard_[id], first_guard_[id + 1] - first_guard_[id]),
              id, out);
}

std::size_t GuardsCones::candidate_pairs() const { return counts_.pairs(); }

std::uint64_t GuardsCones::swaps() const { return boxes_.swaps(); }

}  // namespace kds
