#include "structures/box_overlap/box_overlap.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "kds/errors.hpp"
#include "structures/collision/collision_world.hpp"

namespace kds {

BoxOverlap::BoxOverlap(int dimensions) : axes_(dimensions) {
  if (dimensions != 2 && dimensions != 3)
    throw InvalidInput("BoxOverlap: " + std::to_string(dimensions) + " dimensions; it takes 2 or 3");
}

BoxOverlap::~BoxOverlap() = default;  // the lists destroy their certificates and release their bodies

void BoxOverlap::start(CollisionWorld& world) {
  for (SphereId i = 0; i < world.size(); ++i)
    if (!world.ballistic(i))
      throw InvalidInput("sphere " + std::to_string(i) +
                         ": has an unknown trajectory (max_acceleration > 0), which the box-overlap broad phase does "
                         "not support (its bound's box jumps at every reset); use tvb-grid or all-pairs");
  // (The message names "box-overlap" for both variants: the same rule.)
  world_ = &world;
  half_width_.resize(world.size());
  for (SphereId i = 0; i < world.size(); ++i)
    half_width_[i] = box_half_width(world.sphere(i).radius, world.settings().contact_tolerance);
  for (int k = 0; k < axes_; ++k) build_list(k);
  find_overlaps();
  for (int k = 0; k < axes_; ++k)
    lists_[k]->on_swap().subscribe([this, k](EntryId left, EntryId right) { swapped(k, left, right); });
}

void BoxOverlap::build_list(int axis) {
  Simulator& sim = world_->simulator();
  const std::size_t n = world_->size();
  lists_[axis] = std::make_unique<SortedList>(sim);
  low_[axis].assign(n, no_entry);
  high_[axis].assign(n, no_entry);
  // Insert in the order of the extremes' values now (doubles), so that each insertion
  // lands at the end of the list or near it: the list shifts the ranks after the new
  // entry, which would make inserting in random order quadratic. The list itself places
  // every key exactly.
  const double t = sim.now().hi();
  std::vector<std::pair<double, BoxExtreme>> order;
  order.reserve(2 * n);
  for (SphereId i = 0; i < n; ++i) {
    const double x = world_->centre_motion(i).position(t)[axis];
    order.push_back({x - half_width_[i], BoxExtreme{i, false}});
    order.push_back({x + half_width_[i], BoxExtreme{i, true}});
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [value, e] : order) {
    const double offset = e.high ? half_width_[e.sphere] : -half_width_[e.sphere];
    const EntryId entry = lists_[axis]->insert(Key::coordinate(world_->body(e.sphere), axis, offset));
    if (extreme_[axis].size() <= entry) extreme_[axis].resize(entry + 1);
    extreme_[axis][entry] = e;
    (e.high ? high_ : low_)[axis][e.sphere] = entry;
  }
}

bool BoxOverlap::overlap_on(int axis, SphereId a, SphereId b) const {
  const SortedList& l = *lists_[axis];
  return l.rank(low_[axis][a]) < l.rank(high_[axis][b]) && l.rank(low_[axis][b]) < l.rank(high_[axis][a]);
}

bool BoxOverlap::overlap_elsewhere(int axis, SphereId a, SphereId b) const {
  for (int k = 0; k < axes_; ++k)
    if (k != axis && !overlap_on(k, a, b)) return false;
  return true;
}

void BoxOverlap::find_overlaps() {
  overlaps_.reset(world_->size());
  // The spheres whose x interval is open at the sweep's position, with their slots.
  std::vector<SphereId> open;
  std::vector<std::size_t> slot(world_->size(), 0);
  for (EntryId e : lists_[0]->order()) {
    const BoxExtreme x = extreme_[0][e];
    if (x.high) {
      const std::size_t s = slot[x.sphere];
      open[s] = open.back();
      slot[open[s]] = s;
      open.pop_back();
      continue;
    }
    for (SphereId other : open)
      if (overlap_elsewhere(0, x.sphere, other)) overlaps_.add(x.sphere, other);
    slot[x.sphere] = open.size();
    open.push_back(x.sphere);
  }
}

void BoxOverlap::swapped(int axis, EntryId left, EntryId right) {
  const BoxExtreme a = extreme_[axis][left], b = extreme_[axis][right];
  if (a.high == b.high) return;  // two low or two high extremes: no interval changes
  if (a.high) {
    // The high extreme of a passed the low extreme of b: the intervals now overlap on
    // this axis; the boxes overlap if they do on the others.
    if (overlap_elsewhere(axis, a.sphere, b.sphere)) {
      overlaps_.add(a.sphere, b.sphere);
      ++overlap_changes_;
      world_->candidates_changed(a.sphere);
      overlap_changed_.emit(a.sphere, b.sphere, true);
    }
  } else if (overlaps_.erase(a.sphere, b.sphere)) {
    // The low extreme of a passed the high extreme of b: apart on this axis.
    ++overlap_changes_;
    world_->candidates_changed(a.sphere);
    overlap_changed_.emit(a.sphere, b.sphere, false);
  }
}

void BoxOverlap::candidates(SphereId id, std::vector<SphereId>& out) {
  const auto p = overlaps_.partners(id);
  out.insert(out.end(), p.begin(), p.end());
}

std::uint64_t BoxOverlap::swaps() const {
  std::uint64_t s = 0;
  for (const auto& l : lists_)
    if (l) s += l->swaps();
  return s;
}

void BoxOverlap::draw(SphereId id, Drawing& out) const {
  const double h = half_width_[id];
  // The planar variant's rectangle is drawn as a box flattened onto the sphere's height.
  const double hz = axes_ == 2 ? 0.0 : h;
  out.box_on(world_->body(id), {-h, -h, -hz}, {h, h, hz}, "box");
}

}  // namespace kds
