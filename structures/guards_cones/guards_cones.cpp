#include "structures/guards_cones/guards_cones.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kds/errors.hpp"
#include "kds/function.hpp"
#include "kds/solver.hpp"
#include "structures/collision/polytope.hpp"
#include "structures/collision/tie_keys.hpp"
#include "structures/guards_cones/guards.hpp"

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

/// What the structure reads of sphere i: a ball, or a polytope about its reference point
/// (its own box, not its bounding sphere's), the box grown by the contact tolerance.
FatObject fat_object_of(const CollisionWorld& world, SphereId i) {
  const double margin = world.settings().contact_tolerance;
  const Sphere& s = world.sphere(i);
  return s.polytope ? fat_polytope(*s.polytope, margin, i) : fat_ball(s.radius, margin);
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
  for (SphereId i = 0; i < n; ++i)
    if (!world.ballistic(i))
      throw InvalidInput("sphere " + std::to_string(i) +
                         ": has an unknown trajectory (max_acceleration > 0), which the guards-cones broad phase does "
                         "not support (its box would jump at every reset of the bound); use tvb-grid or all-pairs");
  world_ = &world;
  objects_.resize(n);
  rho_ = 1;
  double rho_cone = 1;
  for (SphereId i = 0; i < n; ++i) {
    objects_[i] = fat_object_of(world, i);
    check_fat_object(objects_[i], i);
    rho_ = std::max(rho_, objects_[i].fatness());
    for (double h : objects_[i].box_half_width) rho_cone = std::max(rho_cone, h / objects_[i].inner_radius);
  }
  // Lemma 9 bounds the distance from a guard to the centre of an object whose box holds
  // it by sqrt(3) rho r; with boxes grown beyond the objects that distance is sqrt(3) h,
  // so the cones are cut for rho = max h / r (>= the objects' fatness).
  cones_ = std::make_unique<ConeSet>(rho_cone);
  first_guard_.assign(1, 0);
  for (SphereId i = 0; i < n; ++i) {
    for (const Vec<3>& o : guard_offsets(objects_[i], rho_)) {
      owner_.push_back(i);
      offset_.push_back(o);
    }
    first_guard_.push_back(static_cast<GuardId>(owner_.size()));
  }
  members_.assign(owner_.size(), {});
  closest_.assign(owner_.size(), {});
  member_of_.assign(n, {});
  partners_.assign(n, {});
  resetting_.assign(n, 0);
  touched_mark_.assign(n, 0);
  build_lists();
  find_memberships();
  for (int k = 0; k < axes; ++k)
    lists_[k]->on_swap().subscribe([this, k](EntryId left, EntryId right) { swapped(k, left, right); });
  touched_.clear();
  std::fill(touched_mark_.begin(), touched_mark_.end(), 0);
  started_ = true;
}

void GuardsCones::build_lists() {
  Simulator& sim = world_->simulator();
  const std::size_t n = world_->size();
  const double t = sim.now().hi();
  for (int axis = 0; axis < axes; ++axis) {
    lists_[axis] = std::make_unique<SortedList>(sim);
    low_[axis].assign(n, no_entry);
    high_[axis].assign(n, no_entry);
    // The guard planes: an object's guards grouped by their offset on this axis.
    planes_[axis].clear();
    plane_of_[axis].assign(owner_.size(), 0);
    for (SphereId i = 0; i < n; ++i) {
      const std::size_t first = planes_[axis].size();
      for (GuardId g = first_guard_[i]; g < first_guard_[i + 1]; ++g) {
        std::size_t p = first;
        while (p < planes_[axis].size() && planes_[axis][p].offset != offset_[g][axis]) ++p;
        if (p == planes_[axis].size()) planes_[axis].push_back(Plane{i, offset_[g][axis], no_entry, {}});
        planes_[axis][p].guards.push_back(g);
        plane_of_[axis][g] = static_cast<std::uint32_t>(p);
      }
    }
    // Inserted in the order of their values now (doubles), so that each insertion lands
    // near the end of the list (as box overlap does); the list places every key exactly.
    struct Item {
      double value;
      double offset;
      SphereId sphere;
      Entry entry;
    };
    std::vector<Item> items;
    items.reserve(planes_[axis].size() + 2 * n);
    std::vector<double> x(n);
    for (SphereId i = 0; i < n; ++i) {
      x[i] = world_->centre_motion(i).position(t)[axis];
      const double h = objects_[i].box_half_width[axis];
      items.push_back({x[i] - h, -h, i, Entry{i, EntryKind::low}});
      items.push_back({x[i] + h, h, i, Entry{i, EntryKind::high}});
    }
    for (std::uint32_t p = 0; p < planes_[axis].size(); ++p) {
      const Plane& pl = planes_[axis][p];
      items.push_back({x[pl.owner] + pl.offset, pl.offset, pl.owner, Entry{p, EntryKind::plane}});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.value < b.value; });
    for (const Item& it : items) {
      const EntryId e = lists_[axis]->insert(Key::coordinate(world_->body(it.sphere), axis, it.offset));
      if (entry_[axis].size() <= e) entry_[axis].resize(e + 1);
      entry_[axis][e] = it.entry;
      switch (it.entry.kind) {
        case EntryKind::plane: planes_[axis][it.entry.index].entry = e; break;
        case EntryKind::low: low_[axis][it.entry.index] = e; break;
        case EntryKind::high: high_[axis][it.entry.index] = e; break;
      }
    }
  }
}

bool GuardsCones::inside_on(int axis, GuardId g, SphereId k) const {
  const SortedList& l = *lists_[axis];
  const std::size_t r = l.rank(planes_[axis][plane_of_[axis][g]].entry);
  return l.rank(low_[axis][k]) < r && r < l.rank(high_[axis][k]);
}

void GuardsCones::find_memberships() {
  // Sweep list 0: the boxes open at a guard plane's position contain its guards on x;
  // test y and z.
  std::vector<SphereId> open;
  std::vector<std::size_t> slot(world_->size(), 0);
  for (EntryId e : lists_[0]->order()) {
    const Entry x = entry_[0][e];
    if (x.kind == EntryKind::low) {
      slot[x.index] = open.size();
      open.push_back(x.index);
    } else if (x.kind == EntryKind::high) {
      const std::size_t s = slot[x.index];
      open[s] = open.back();
      slot[open[s]] = s;
      open.pop_back();
    } else {
      const Plane& pl = planes_[0][x.index];
      for (SphereId k : open) {
        if (k == pl.owner) continue;
        for (GuardId g : pl.guards)
          if (inside_on(1, g, k) && inside_on(2, g, k)) add_member(g, k);
      }
    }
  }
}

void GuardsCones::swapped(int axis, EntryId left, EntryId right) {
  const Entry a = entry_[axis][left], b = entry_[axis][right];
  if ((a.kind == EntryKind::plane) == (b.kind == EntryKind::plane)) return;
  const bool plane_was_left = a.kind == EntryKind::plane;
  const Plane& pl = planes_[axis][plane_was_left ? a.index : b.index];
  const Entry x = plane_was_left ? b : a;
  const SphereId k = x.index;
  if (k == pl.owner) return;
  // `left` is now just after `right`. The plane entered k's interval on this axis if it
  // passed its low extreme upwards or its high extreme downwards.
  const bool entered = plane_was_left == (x.kind == EntryKind::low);
  for (GuardId g : pl.guards) crossed(axis, g, k, entered);
  notify();
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

bool GuardsCones::in_cone_just_after(GuardId g, SphereId k, ConeIndex c) const {
  const Simulator& sim = world_->simulator();
  for (const IntVec& n : cones_->cone(c).normal) {
    auto f = make_function([&]<class NT>(double origin) { return facet_function<NT>(g, k, n, origin); });
    if (sign_just_after(f, sim.now(), sim.exactness()) == Sign::negative) return false;
  }
  return true;
}

ConeIndex GuardsCones::locate(GuardId g, SphereId k) const {
  const double t = world_->simulator().now().hi();
  const Vec<3> ck = world_->centre_motion(k).position(t), co = world_->centre_motion(owner_[g]).position(t);
  Vec<3> d;
  for (int i = 0; i < 3; ++i) d[i] = ck[i] - co[i] - offset_[g][i];
  const ConeIndex guess = cones_->locate(d);
  if (in_cone_just_after(g, k, guess)) return guess;
  // The guess was wrong (a centre on or near a facet): try every cone, in order.
  for (ConeIndex c = 0; c < cones_->size(); ++c)
    if (c != guess && in_cone_just_after(g, k, c)) return c;
  throw std::logic_error("guards-cones: no cone of guard " + std::to_string(g) + " holds the centre of sphere " +
                         std::to_string(k));
}

bool GuardsCones::closer(ConeIndex c, SphereId k, SphereId j) const {
  const Simulator& sim = world_->simulator();
  const IntVec& a = cones_->cone(c).representative();
  const BodyId bk = world_->body(k), bj = world_->body(j);
  // a . (c_j - c_k): positive just after now when k projects before j.
  auto f = make_function([&]<class NT>(double origin) {
    Polynomial<NT> s(NT(0));
    for (int i = 0; i < 3; ++i)
      if (a[i] != 0)
        s += NT(a[i]) * (world_->centre<NT>(bj, i, origin) - world_->centre<NT>(bk, i, origin));
    return s;
  });
  const Sign s = sign_just_after(f, sim.now(), sim.exactness());
  if (s == Sign::zero) return k < j;  // equal forever: a fixed order (disjoint objects never tie, Lemma 9)
  return s == Sign::positive;
}

void GuardsCones::create_facets(GuardId g, Member& m) {
  Simulator& sim = world_->simulator();
  const BodyId own = world_->body(owner_[g]), obj = world_->body(m.object);
  for (int f = 0; f < 3; ++f)
    m.facet[f] = sim.create<Facet>(*this, own, obj, g, m.object, cones_->cone(m.cone).normal[f],
                                   tie_key::bookkeeping(owner_[g], kFacetTieCode));
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
  destroy_facets(*it);  // including c
  it->cone = locate(g, k);
  create_facets(g, *it);
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
  auto& cl = closest_[g];
  const auto it = std::find_if(cl.begin(), cl.end(), [c](const auto& p) { return p.first == c; });
  const SphereId old = it == cl.end() ? no_sphere : it->second;
  if (old == k) return;
  ++closest_changes_;
  if (old != no_sphere) remove_partner(owner_[g], old);
  if (k != no_sphere) add_partner(owner_[g], k);
  if (k == no_sphere) {
    *it = cl.back();
    cl.pop_back();
  } else if (it == cl.end()) {
    cl.emplace_back(c, k);
  } else {
    it->second = k;
  }
}

void GuardsCones::add_partner(SphereId a, SphereId b) {
  auto& pa = partners_[a];
  const auto it = std::find_if(pa.begin(), pa.end(), [b](const auto& p) { return p.first == b; });
  if (it != pa.end()) {
    ++it->second;
    auto& pb = partners_[b];
    std::find_if(pb.begin(), pb.end(), [a](const auto& p) { return p.first == a; })->second++;
    return;
  }
  pa.emplace_back(b, 1);
  partners_[b].emplace_back(a, 1);
  touched(a);
}

void GuardsCones::remove_partner(SphereId a, SphereId b) {
  auto& pa = partners_[a];
  auto& pb = partners_[b];
  const auto ia = std::find_if(pa.begin(), pa.end(), [b](const auto& p) { return p.first == b; });
  const auto ib = std::find_if(pb.begin(), pb.end(), [a](const auto& p) { return p.first == a; });
  if (ia == pa.end() || ib == pb.end()) throw std::logic_error("guards-cones: removing a pair that is not counted");
  if (--ia->second > 0) {
    --ib->second;
    return;
  }
  *ia = pa.back();
  pa.pop_back();
  *ib = pb.back();
  pb.pop_back();
  touched(a);
}

void GuardsCones::touched(SphereId a) {
  if (!started_ || touched_mark_[a]) return;
  touched_mark_[a] = 1;
  touched_.push_back(a);
}

void GuardsCones::notify() {
  // The world refreshes a pair from either side; a sphere between bound_will_reset and the
  // world's next question (candidates) is refreshed by the world itself.
  for (std::size_t i = 0; i < touched_.size(); ++i) {
    const SphereId a = touched_[i];
    touched_mark_[a] = 0;
    if (!resetting_[a]) world_->candidates_changed(a);
  }
  touched_.clear();
}

void GuardsCones::bound_will_reset(SphereId id) { resetting_[id] = 1; }

void GuardsCones::bound_was_reset(SphereId id) {
  // The order of projections in a cone is kept by continuity (Lemma 9); a motion change
  // may move the centre by a jump (a flight plan; a response's few ulps), so the cones
  // the object takes part in are looked at again: those of its own guards, and its own
  // cone at every guard whose member it is.
  std::vector<ConeIndex> cs;
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

void GuardsCones::candidates(SphereId id, std::vector<SphereId>& out) {
  resetting_[id] = 0;
  for (const auto& p : partners_[id]) out.push_back(p.first);
}

std::size_t GuardsCones::candidate_pairs() const {
  std::size_t s = 0;
  for (const auto& p : partners_) s += p.size();
  return s / 2;
}

std::uint64_t GuardsCones::swaps() const {
  std::uint64_t s = 0;
  for (const auto& l : lists_)
    if (l) s += l->swaps();
  return s;
}

}  // namespace kds
