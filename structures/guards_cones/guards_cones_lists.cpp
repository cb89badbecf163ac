#include "structures/guards_cones/guards_cones_lists.hpp"

#include <algorithm>

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
  boxes_.build(world, objects_, first_guard_, offset_);
  facets_.build(world, *cones_, first_guard_, offset_);
  // The closest object of every cone now: each object whose box holds a guard, offered
  // to the cone its centre is in.
  boxes_.for_each_containment([this](GuardId g, SphereId k) { offer(g, locate_centre(*world_, *cones_, guard_point(g), k), k); });
  boxes_.on_crossing([this](int axis, std::span<const GuardId> guards, SphereId k, bool entered) {
    for (GuardId g : guards) box_crossed(axis, g, k, entered);
    notify();
  });
  facets_.on_crossing([this](std::span<const GuardId> guards, SphereId, SphereId k) {
    for (GuardId g : guards) centre_crossed(g, k);
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

void GuardsConesLists::centre_crossed(GuardId g, SphereId k) {
  if (!boxes_.contains(g, k)) return;  // k is in no set K(gamma) of g
  ++center_events_;
  const ConeIndex before = cone_led_by(g, k);
  const ConeIndex now = locate_centre(*world_, *cones_, guard_point(g), k);
  if (before == now) return;
  if (before != no_cone) recompute_closest(g, before);
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

void GuardsConesLists::recompute_closest(GuardId g, ConeIndex c) {
  ++queries_;
  const GuardPoint gp = guard_point(g);
  SphereId best = no_sphere;
  for (SphereId k = 0; k < world_->size(); ++k) {
    if (k == gp.owner) continue;
    ++query_scans_;
    if (!boxes_.contains(g, k) || !centre_in_cone(*world_, *cones_, gp, k, c)) continue;
    if (best == no_sphere || projects_before(*world_, *cones_, c, k, best)) best = k;
  }
  set_closest(g, c, best);
}

void GuardsConesLists::set_closest(GuardId g, ConeIndex c, SphereId k) {
  if (kds::set_closest(closest_[g], c, owner_[g], k, counts_)) ++closest_changes_;
}

void GuardsConesLists::bound_was_reset(SphereId id) {
  // A motion change may move id's centre by a jump (a flight plan; a response's few
  // ulps), which may change the order of projections in the cones id is in. At every
  // guard in id's box (the lists' ranks: a jump of the box across guards is repaired by
  // the box lists' swaps, which follow), the cone id leads is asked again and id is
  // offered to the cone it is in now. The orders at id's own guards do not involve id's
  // centre (projects_before compares centres only); their cones' memberships change by
  // the facet lists' swaps.
  boxes_.for_each_guard_in_box(id, [this, id](GuardId g) {
    const ConeIndex led = cone_led_by(g, id);
    if (led != no_cone) recompute_closest(g, led);
    offer(g, locate_centre(*world_, *cones_, guard_point(g), id), id);
  });
  notify();
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

}  // namespace kds
