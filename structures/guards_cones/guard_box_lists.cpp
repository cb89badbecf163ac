#include "structures/guards_cones/guard_box_lists.hpp"

#include <algorithm>

#include "structures/guards_cones/list_reinsertion.hpp"

namespace kds {

void GuardBoxLists::build(CollisionWorld& world, const std::vector<FatObject>& objects,
                          const std::vector<GuardId>& first_guard, const std::vector<Vec<3>>& offset) {
  Simulator& sim = world.simulator();
  const std::size_t n = world.size();
  const double t = sim.now().hi();
  sim_ = &sim;
  for (int axis = 0; axis < axes; ++axis) {
    lists_[axis] = std::make_unique<SortedList>(sim);
    entry_[axis].clear();
    low_[axis].assign(n, no_entry);
    high_[axis].assign(n, no_entry);
    // The guard planes: an object's guards grouped by their offset on this axis.
    planes_[axis].clear();
    plane_of_[axis].assign(offset.size(), 0);
    first_plane_[axis].assign(n + 1, 0);
    for (SphereId i = 0; i < n; ++i) {
      const std::size_t first = planes_[axis].size();
      first_plane_[axis][i] = static_cast<std::uint32_t>(first);
      for (GuardId g = first_guard[i]; g < first_guard[i + 1]; ++g) {
        std::size_t p = first;
        while (p < planes_[axis].size() && planes_[axis][p].offset != offset[g][axis]) ++p;
        if (p == planes_[axis].size()) planes_[axis].push_back(Plane{i, offset[g][axis], no_entry, {}});
        planes_[axis][p].guards.push_back(g);
        plane_of_[axis][g] = static_cast<std::uint32_t>(p);
      }
    }
    first_plane_[axis][n] = static_cast<std::uint32_t>(planes_[axis].size());
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
      x[i] = world.centre_motion(i).position(t)[axis];
      const double h = objects[i].box_half_width[axis];
      items.push_back({x[i] - h, -h, i, Entry{i, EntryKind::low}});
      items.push_back({x[i] + h, h, i, Entry{i, EntryKind::high}});
    }
    for (std::uint32_t p = 0; p < planes_[axis].size(); ++p) {
      const Plane& pl = planes_[axis][p];
      items.push_back({x[pl.owner] + pl.offset, pl.offset, pl.owner, Entry{p, EntryKind::plane}});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.value < b.value; });
    for (const Item& it : items) {
      const EntryId e = lists_[axis]->insert(Key::coordinate(world.body(it.sphere), axis, it.offset));
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

void GuardBoxLists::on_crossing(Crossing f) {
  crossing_ = std::move(f);
  for (int k = 0; k < axes; ++k)
    lists_[k]->on_swap().subscribe([this, k](EntryId left, EntryId right) { swapped(k, left, right); });
}

bool GuardBoxLists::inside_on(int axis, GuardId g, SphereId k) const {
  const SortedList& l = *lists_[axis];
  const std::size_t r = l.rank(planes_[axis][plane_of_[axis][g]].entry);
  return l.rank(low_[axis][k]) < r && r < l.rank(high_[axis][k]);
}

void GuardBoxLists::for_each_containment(const std::function<void(GuardId, SphereId)>& f) const {
  // Sweep list 0: the boxes open at a guard plane's position contain its guards on x;
  // test y and z.
  std::vector<SphereId> open;
  std::vector<std::size_t> slot(low_[0].size(), 0);
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
          if (inside_on(1, g, k) && inside_on(2, g, k)) f(g, k);
      }
    }
  }
}

void GuardBoxLists::for_each_guard_in_box(SphereId k, const std::function<void(GuardId)>& f) const {
  const SortedList& l = *lists_[0];
  const auto& order = l.order();
  for (std::size_t r = l.rank(low_[0][k]) + 1, end = l.rank(high_[0][k]); r < end; ++r) {
    const Entry x = entry_[0][order[r]];
    if (x.kind != EntryKind::plane) continue;
    const Plane& pl = planes_[0][x.index];
    if (pl.owner == k) continue;
    for (GuardId g : pl.guards)
      if (inside_on(1, g, k) && inside_on(2, g, k)) f(g);
  }
}

void GuardBoxLists::swapped(int axis, EntryId left, EntryId right) {
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
  crossing_(axis, pl.guards, k, entered);
}

std::vector<EntryId> GuardBoxLists::entries_of(int axis, SphereId k) const {
  std::vector<EntryId> e{low_[axis][k], high_[axis][k]};
  for (std::uint32_t p = first_plane_[axis][k]; p < first_plane_[axis][k + 1]; ++p) e.push_back(planes_[axis][p].entry);
  return e;
}

SphereId GuardBoxLists::owner_of(int axis, EntryId e) const {
  const Entry x = entry_[axis][e];
  return x.kind == EntryKind::plane ? planes_[axis][x.index].owner : x.index;
}

std::size_t GuardBoxLists::passes_to_order(SphereId k, std::size_t budget) const {
  std::size_t passes = 0;
  for (int axis = 0; axis < axes && passes <= budget; ++axis) {
    const std::vector<EntryId> mine = entries_of(axis, k);
    passes += kds::passes_to_order(*lists_[axis], *sim_, mine,
                                   [this, axis, k](EntryId e) { return owner_of(axis, e) == k; }, budget - passes);
  }
  return passes;
}

std::size_t GuardBoxLists::reinsert(SphereId k) {
  std::size_t count = 0;
  for (int axis = 0; axis < axes; ++axis) {
    const std::vector<EntryId> old = entries_of(axis, k);
    const std::vector<Entry> what = [&] {
      std::vector<Entry> w;
      for (EntryId e : old) w.push_back(entry_[axis][e]);
      return w;
    }();
    const std::vector<EntryId> now = kds::reinsert(*lists_[axis], old);
    for (std::size_t i = 0; i < now.size(); ++i) {
      const EntryId e = now[i];
      if (entry_[axis].size() <= e) entry_[axis].resize(e + 1);
      entry_[axis][e] = what[i];
      switch (what[i].kind) {
        case EntryKind::plane: planes_[axis][what[i].index].entry = e; break;
        case EntryKind::low: low_[axis][k] = e; break;
        case EntryKind::high: high_[axis][k] = e; break;
      }
    }
    count += now.size();
  }
  return count;
}

std::uint64_t GuardBoxLists::swaps() const {
  std::uint64_t s = 0;
  for (const auto& l : lists_)
    if (l) s += l->swaps();
  return s;
}

}  // namespace kds
