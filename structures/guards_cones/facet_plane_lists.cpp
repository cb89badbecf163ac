#include "structures/guards_cones/facet_plane_lists.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <utility>

#include "structures/guards_cones/facet_plane_key.hpp"
#include "structures/guards_cones/list_reinsertion.hpp"

namespace kds {
namespace {

/// The offsets of one object's guards as exact integers times a common power of two, so
/// that u . offset is an exact 128-bit integer (offsets span a few binary orders of
/// magnitude; u has small coordinates). False if they do not fit (then nothing is shared).
bool exact_offsets(const std::vector<Vec<3>>& offset, GuardId first, GuardId last,
                   std::vector<std::array<std::int64_t, 3>>& m) {
  int e = INT_MAX;
  for (GuardId g = first; g < last; ++g)
    for (double x : offset[g])
      if (x != 0) {
        int ex = 0;
        std::frexp(x, &ex);
        e = std::min(e, ex - 53);
      }
  for (GuardId g = first; g < last; ++g)
    for (int k = 0; k < 3; ++k) {
      const double s = e == INT_MAX ? 0 : std::ldexp(offset[g][k], -e);
      if (!(std::abs(s) < 0x1p62) || s != std::floor(s)) return false;
      m[g][k] = static_cast<std::int64_t>(s);
    }
  return true;
}

}  // namespace

void FacetPlaneLists::build(CollisionWorld& world, const ConeSet& cones, const std::vector<GuardId>& first_guard,
                            const std::vector<Vec<3>>& offset) {
  Simulator& sim = world.simulator();
  const std::size_t n = world.size();
  const double t = sim.now().hi();
  sim_ = &sim;
  normal_ = cones.orientations();
  const std::size_t lists = normal_.size();
  lists_.clear();
  lists_.resize(lists);
  entry_.assign(lists, {});
  planes_.assign(lists, {});
  guards_.assign(lists, {});
  plane_of_.assign(lists, std::vector<std::uint32_t>(offset.size(), 0));
  centre_.assign(lists, std::vector<EntryId>(n, no_entry));
  first_plane_.assign(lists, std::vector<std::uint32_t>(n + 1, 0));
  planes_of_.assign(n, 0);

  std::vector<Vec<3>> x(n);
  for (SphereId i = 0; i < n; ++i) x[i] = world.centre_motion(i).position(t);
  std::vector<std::array<std::int64_t, 3>> m(offset.size());
  std::vector<char> exact(n);
  for (SphereId i = 0; i < n; ++i) exact[i] = exact_offsets(offset, first_guard[i], first_guard[i + 1], m);

  struct Item {
    double value;
    SphereId sphere;
    Vec<3> offset;
    Entry entry;
  };
  std::vector<Item> items;
  std::vector<std::pair<__int128, GuardId>> by_value;
  for (std::size_t o = 0; o < lists; ++o) {
    const IntVec& u = normal_[o];
    auto along = [&u](const Vec<3>& p) { return u[0] * p[0] + u[1] * p[1] + u[2] * p[2]; };
    lists_[o] = std::make_unique<SortedList>(sim);
    items.clear();
    for (SphereId i = 0; i < n; ++i) {
      items.push_back({along(x[i]), i, Vec<3>{0, 0, 0}, Entry{i, true}});
      first_plane_[o][i] = static_cast<std::uint32_t>(planes_[o].size());
      // The planes of i: its guards grouped by the exact value of u . offset.
      by_value.clear();
      for (GuardId g = first_guard[i]; g < first_guard[i + 1]; ++g) {
        __int128 v = g;
        if (exact[i]) v = __int128(u[0]) * m[g][0] + __int128(u[1]) * m[g][1] + __int128(u[2]) * m[g][2];
        by_value.emplace_back(v, g);
      }
      std::sort(by_value.begin(), by_value.end());
      for (std::size_t a = 0; a < by_value.size();) {
        std::size_t b = a;
        const auto p = static_cast<std::uint32_t>(planes_[o].size());
        Plane pl{i, static_cast<std::uint32_t>(guards_[o].size()), 0, no_entry};
        for (; b < by_value.size() && by_value[b].first == by_value[a].first; ++b) {
          guards_[o].push_back(by_value[b].second);
          plane_of_[o][by_value[b].second] = p;
          ++pl.count;
        }
        planes_[o].push_back(pl);
        ++planes_of_[i];
        const Vec<3>& off = offset[by_value[a].second];
        Vec<3> at;
        for (int k = 0; k < 3; ++k) at[k] = x[i][k] + off[k];
        items.push_back({along(at), i, off, Entry{p, false}});
        a = b;
      }
    }
    first_plane_[o][n] = static_cast<std::uint32_t>(planes_[o].size());
    // In the order of their values now (doubles), so that the list's batch insert finds
    // them in order (or nearly); the list places every key exactly.
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.value < b.value; });
    std::vector<Key> keys;
    keys.reserve(items.size());
    for (const Item& it : items)
      keys.push_back(Key::custom(std::make_shared<const FacetPlaneKey>(world.body(it.sphere), u, it.offset)));
    const std::vector<EntryId> ids = lists_[o]->insert_all(keys);  // m - 1 comparisons when in order
    for (std::size_t j = 0; j < items.size(); ++j) {
      const Item& it = items[j];
      const EntryId e = ids[j];
      if (entry_[o].size() <= e) entry_[o].resize(e + 1);
      entry_[o][e] = it.entry;
      if (it.entry.centre) centre_[o][it.entry.index] = e;
      else planes_[o][it.entry.index].entry = e;
    }
  }
}

void FacetPlaneLists::on_crossing(Crossing f) {
  crossing_ = std::move(f);
  for (std::size_t o = 0; o < lists_.size(); ++o)
    lists_[o]->on_swap().subscribe([this, o](EntryId left, EntryId right) { swapped(o, left, right); });
}

void FacetPlaneLists::swapped(std::size_t o, EntryId left, EntryId right) {
  const Entry a = entry_[o][left], b = entry_[o][right];
  if (a.centre == b.centre) return;  // two planes, or two centres: nothing to do
  const Plane& pl = planes_[o][a.centre ? b.index : a.index];
  const SphereId k = a.centre ? a.index : b.index;
  if (k == pl.owner) return;
  crossing_(std::span<const GuardId>(guards_[o].data() + pl.first, pl.count), pl.owner, k, normal_[o],
            lists_[o]->swap_keys_equal_now());
}

EntryId FacetPlaneLists::plane_entry(std::size_t o, GuardId g) const { return planes_[o][plane_of_[o][g]].entry; }

std::size_t FacetPlaneLists::planes() const {
  std::size_t s = 0;
  for (const auto& p : planes_) s += p.size();
  return s;
}

std::vector<EntryId> FacetPlaneLists::entries_of(std::size_t o, SphereId k) const {
  std::vector<EntryId> e{centre_[o][k]};
  for (std::uint32_t p = first_plane_[o][k]; p < first_plane_[o][k + 1]; ++p) e.push_back(planes_[o][p].entry);
  return e;
}

SphereId FacetPlaneLists::owner_of(std::size_t o, EntryId e) const {
  const Entry x = entry_[o][e];
  return x.centre ? x.index : planes_[o][x.index].owner;
}

std::size_t FacetPlaneLists::passes_to_order(SphereId k, std::size_t budget) const {
  std::size_t passes = 0;
  for (std::size_t o = 0; o < lists_.size() && passes <= budget; ++o) {
    const std::vector<EntryId> mine = entries_of(o, k);
    passes += kds::passes_to_order(*lists_[o], *sim_, mine, [this, o, k](EntryId e) { return owner_of(o, e) == k; },
                                   budget - passes);
  }
  return passes;
}

std::size_t FacetPlaneLists::reinsert(SphereId k) {
  std::size_t count = 0;
  for (std::size_t o = 0; o < lists_.size(); ++o) {
    const std::vector<EntryId> old = entries_of(o, k);
    std::vector<Entry> what;
    for (EntryId e : old) what.push_back(entry_[o][e]);
    const std::vector<EntryId> now = kds::reinsert(*lists_[o], old);
    for (std::size_t i = 0; i < now.size(); ++i) {
      const EntryId e = now[i];
      if (entry_[o].size() <= e) entry_[o].resize(e + 1);
      entry_[o][e] = what[i];
      if (what[i].centre) centre_[o][k] = e;
      else planes_[o][what[i].index].entry = e;
    }
    count += now.size();
  }
  return count;
}

std::uint64_t FacetPlaneLists::swaps() const {
  std::uint64_t s = 0;
  for (const auto& l : lists_)
    if (l) s += l->swaps();
  return s;
}

}  // namespace kds
