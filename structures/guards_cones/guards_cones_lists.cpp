#include "structures/guards_cones/guards_cones_lists.hpp"

#include <algorithm>
#include <optional>

#include "structures/guards_cones/guard_layout.hpp"

namespace kds {

void GuardsConesLists::start(CollisionWorld& world) {
  const std::size_t n = world.size();
  GuardLayout l = layout_guards(world, name());
  world_ = &world;
  objects_ = std::move(l.objects);
  cones_ = std::move(l.cones);
  first_guard_ = std::move(l.first_guard);
  owner_ = std::move(l.owner);
  offset_ = std::move(l.offset);
  closest_.assign(owner_.size(), {});
  counts_.reset(n);
  seen_.clear();
  for (SphereId k = 0; k < n; ++k) seen_.push_back(world.centre_motion(k));
  boxes_.build(world, objects_, first_guard_, offset_);
  facets_.build(world, *cones_, first_guard_, offset_);
  // The closest object of every cone now: each object whose box holds a guard, offered
  // to the cone its centre is in.
  boxes_.for_each_containment([this](GuardId g, SphereId k) { offer(g, locate_centre(*world_, *cones_, guard_point(g), k), k); });
  boxes_.on_crossing([this](int axis, std::span<const GuardId> guards, SphereId k, bool entered) {
    for (GuardId g : guards) box_crossed(axis, g, k, entered);
    notify();
  });
  facets_.on_crossing([this](std::span<const GuardId> guards, SphereId, SphereId k, const IntVec& u, bool on_plane) {
    // On the plane exactly (the list's key difference u . (c_k - g) vanishes now): the
    // facets of these guards' cones on that plane take their sign just after now from the
    // slope, as GuardsCones::facet_crossed does, instead of an exact sign at an algebraic
    // time. The slope u . (v_k - v_owner) is the same for every guard of the plane: asked
    // once, at the first guard whose box holds k, if any.
    std::optional<PlaneCrossing> crossing;
    bool asked = false;
    for (GuardId g : guards) {
      if (!boxes_.contains(g, k)) continue;  // k is in no set K(gamma) of g
      if (on_plane && !asked) {
        crossing = plane_crossing(*world_, guard_point(g), k, u);
        asked = true;
      }
      centre_crossed(g, k, crossing ? &*crossing : nullptr);
    }
    notify();
  });
  counts_.start_notifying();
}

void GuardsConesLists::box_crossed(int axis, GuardId g, SphereId k, bool entered) {
  // Containment on this axis just flipped; on the other two it is what it was.
  if (!boxes_.inside_on((axis + 1) % 3, g, k) || !boxes_.inside_on((axis + 2) % 3, g, k)) return;
  ++box_events_;
  if (entered) {
    offer(g, locate_centre(*world_, *cones_, guard_point(g), k), k);
    return;
  }
  const ConeIndex c = cone_led_by(g, k);
  if (c != no_cone) recompute_closest(g, c);
}

void GuardsConesLists::centre_crossed(GuardId g, SphereId k, const PlaneCrossing* crossing) {
  ++center_events_;
  const ConeIndex before = cone_led_by(g, k);
  const ConeIndex now = locate_centre(*world_, *cones_, guard_point(g), k, crossing);
  if (before == now) return;
  if (before != no_cone) recompute_closest(g, before, k, crossing);
  // k may have stayed in its cone (the plane bounds other cones of g); offering it again
  // changes nothing then, since K* of its cone is not farther than k.
  offer(g, now, k);
}

ConeIndex GuardsConesLists::cone_led_by(GuardId g, SphereId k) const {
  for (const auto& [cone, j] : closest_[g])
    if (j == k) return cone;
  return no_cone;
}

SphereId GuardsConesLists::closest_of(GuardId g, ConeIndex c) const {
  for (const auto& [cone, k] : closest_[g])
    if (cone == c) return k;
  return no_sphere;
}

void GuardsConesLists::offer(GuardId g, ConeIndex c, SphereId k) {
  const SphereId cur = closest_of(g, c);
  if (cur == k) return;
  if (cur == no_sphere || projects_before(*world_, *cones_, c, k, cur)) set_closest(g, c, k);
}

void GuardsConesLists::recompute_closest(GuardId g, ConeIndex c, SphereId crossed, const PlaneCrossing* crossing) {
  ++queries_;
  const GuardPoint gp = guard_point(g);
  SphereId best = no_sphere;
  for (SphereId k = 0; k < world_->size(); ++k) {
    if (k == gp.owner) continue;
    ++query_scans_;
    if (!boxes_.contains(g, k) || !centre_in_cone(*world_, *cones_, gp, k, c, k == crossed ? crossing : nullptr))
      continue;
    if (best == no_sphere || projects_before(*world_, *cones_, c, k, best)) best = k;
  }
  set_closest(g, c, best);
}

void GuardsConesLists::set_closest(GuardId g, ConeIndex c, SphereId k) {
  if (kds::set_closest(closest_[g], c, owner_[g], k, counts_)) ++closest_changes_;
}

void GuardsConesLists::bound_was_reset(SphereId id) {
  // The world tells a broad phase that a motion changed (bound_will_reset, then the new
  // motion, then this call), not whether the centre jumped: a response keeps the position
  // (the world's separation may move it a few ulps), a flight plan puts it anywhere. The
  // lists already hold the new motion; an entry out of order fails at once and swaps.
  if (jumped(id)) {
    repair_jump(id);
  } else {
    // Swaps are cheaper: the lists repair themselves (box and center events, one per
    // entry passed). What they do not see: a centre moved by a few ulps inside a cone may
    // change the order of projections there (kept by continuity only, Lemma 9), so at
    // every guard in id's box the cone id leads is asked again and id is offered to its
    // cone. The orders at id's own guards compare other centres only.
    boxes_.for_each_guard_in_box(id, [this, id](GuardId g) {
      const ConeIndex led = cone_led_by(g, id);
      if (led != no_cone) recompute_closest(g, led);
      offer(g, locate_centre(*world_, *cones_, guard_point(g), id), id);
    });
  }
  seen_[id] = world_->centre_motion(id);
  notify();
}

bool GuardsConesLists::jumped(SphereId id) const {
  // Same position now (a response without separation: only the velocity changed): no
  // key of id changed its value, and only entries equal to id's now can be out of order.
  const double t = world_->simulator().now().lo();
  if (seen_[id].position(t) == world_->centre_motion(id).position(t)) return false;
  // Otherwise count the entries the swaps would pass, up to id's own number of entries:
  // a reinsertion costs a few comparisons and a memmove per entry, a swap an event.
  std::size_t entries = 0;
  for (int a = 0; a < GuardBoxLists::axes; ++a) entries += boxes_.entries_of(a, id).size();
  entries += facets_.orientations() + facets_.planes_of(id);
  const std::size_t box = boxes_.passes_to_order(id, entries);
  return box > entries || facets_.passes_to_order(id, entries - box) > entries - box;
}

void GuardsConesLists::repair_jump(SphereId id) {
  ++jumps_;
  // The cones id leads: at guards in its box before the jump (the box lists still have
  // its old place).
  std::vector<std::pair<GuardId, ConeIndex>> led;
  boxes_.for_each_guard_in_box(id, [&](GuardId g) {
    const ConeIndex c = cone_led_by(g, id);
    if (c != no_cone) led.emplace_back(g, c);
  });
  jump_entries_ += boxes_.reinsert(id);
  jump_entries_ += facets_.reinsert(id);
  // Lists in order again, silently: recompute what the jump changed.
  // 1. The cones id led: it may have left their guard's box or the cone.
  for (const auto& [g, c] : led) recompute_closest(g, c);
  // 2. id offered to the cone it is in at every guard of its new box.
  boxes_.for_each_guard_in_box(id, [this, id](GuardId g) {
    offer(g, locate_centre(*world_, *cones_, guard_point(g), id), id);
  });
  // 3. id's own guards moved: other boxes hold them now, other centres are in their cones.
  for (GuardId g = first_guard_[id]; g < first_guard_[id + 1]; ++g) recompute_guard(g);
}

void GuardsConesLists::recompute_guard(GuardId g) {
  const GuardPoint gp = guard_point(g);
  ClosestPerCone best;
  for (SphereId k = 0; k < world_->size(); ++k) {
    if (k == gp.owner || !boxes_.contains(g, k)) continue;
    const ConeIndex c = locate_centre(*world_, *cones_, gp, k);
    auto it = std::find_if(best.begin(), best.end(), [c](const auto& p) { return p.first == c; });
    if (it == best.end()) best.emplace_back(c, k);
    else if (projects_before(*world_, *cones_, c, k, it->second)) it->second = k;
  }
  // Cones that lost every object, then the new closest objects.
  const ClosestPerCone before = closest_[g];
  for (const auto& [c, k] : before)
    if (std::none_of(best.begin(), best.end(), [c](const auto& p) { return p.first == c; })) set_closest(g, c, no_sphere);
  for (const auto& [c, k] : best) set_closest(g, c, k);
}

std::size_t GuardsConesLists::order_certificates() const {
  std::size_t s = 0;
  for (int a = 0; a < GuardBoxLists::axes; ++a) s += std::max<std::size_t>(boxes_.list(a).size(), 1) - 1;
  for (std::size_t o = 0; o < facets_.orientations(); ++o)
    s += std::max<std::size_t>(facets_.list(o).size(), 1) - 1;
  return s;
}

std::size_t GuardsConesLists::order_certificates_of(SphereId k) const {
  // The adjacent pairs of every list of which at least one entry is a key of k's body.
  const BodyId body = world_->body(k);
  auto count = [body](const SortedList& l) {
    const auto& order = l.order();
    auto mine = [&](std::size_t r) {
      for (BodyId b : l.key(order[r]).bodies())
        if (b == body) return true;
      return false;
    };
    std::size_t s = 0;
    for (std::size_t r = 0; r + 1 < order.size(); ++r) s += mine(r) || mine(r + 1) ? 1 : 0;
    return s;
  };
  std::size_t s = 0;
  for (int a = 0; a < GuardBoxLists::axes; ++a) s += count(boxes_.list(a));
  for (std::size_t o = 0; o < facets_.orientations(); ++o) s += count(facets_.list(o));
  return s;
}

void GuardsConesLists::draw(SphereId id, Drawing& out) const {
  draw_guards(*world_, objects_[id], std::span(offset_).subspan(first_guard_[id], first_guard_[id + 1] - first_guard_[id]),
              id, out);
}

}  // namespace kds
