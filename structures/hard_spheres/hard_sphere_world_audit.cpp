// HardSphereWorld::audit: the schedule against a computation from scratch over every
// pair and wall (O(n^2), for tests).
#include <cmath>
#include <sstream>

#include "kds/errors.hpp"
#include "structures/collision/geometry.hpp"
#include "structures/collision/tie_keys.hpp"
#include "structures/hard_spheres/hard_sphere_world.hpp"

namespace kds {

void HardSphereWorld::audit(double t) const {
  auto fail = [&](const std::string& what) {
    std::ostringstream os;
    os.precision(17);
    os << structure_name << " audit at t = " << t << ": " << what;
    throw AuditFailure(os.str());
  };
  const double tol = settings_.contact_tolerance;
  hard_spheres::TimeCounters scratch;
  const std::size_t n = size();
  // The queue: every sphere once, in the heap (in heap order, its time in the calendar's
  // current bin or before, or never) or in the calendar (in a later bin); the heap's
  // first event is a finite one whenever the calendar holds any.
  if (heap_.size() + calendar_.size() != n)
    fail("the queue holds " + std::to_string(heap_.size() + calendar_.size()) + " events for " + std::to_string(n) +
         " spheres");
  for (std::size_t p = 0; p < heap_.size(); ++p) {
    const SphereId id = heap_[p].id;
    if (record_[id].pos != p || calendar_.holds(id)) fail("queue position of sphere " + std::to_string(ext_[id]) + " is wrong");
    if (heap_[p].time != record_[id].event.queued()) fail("queued time of sphere " + std::to_string(ext_[id]) + " is stale");
    if (heap_[p].time != hard_spheres::never && calendar_.bin(heap_[p].time) > calendar_.current())
      fail("sphere " + std::to_string(ext_[id]) + " is in the heap, beyond the calendar's current bin");
    if (p > 0 && before(heap_[p], heap_[(p - 1) / 4])) fail("the queue is out of order at " + std::to_string(p));
  }
  calendar_.for_each([&](SphereId id) {
    if (record_[id].pos != ~std::uint32_t{0}) fail("sphere " + std::to_string(ext_[id]) + " is both in the heap and in the calendar");
    const double t = record_[id].event.queued();
    if (t == hard_spheres::never || calendar_.bin(t) <= calendar_.current())
      fail("sphere " + std::to_string(ext_[id]) + " waits in the calendar, but its event is due in the current bin");
  });
  if (calendar_.size() > 0 && (heap_.empty() || heap_[0].time == hard_spheres::never))
    fail("the heap holds no event while the calendar does");
  // The cells list each sphere once, in the cell of cell_; a cell's overflow exists
  // exactly when its second slot is flagged.
  std::vector<std::uint8_t> listed(n, 0);
  std::size_t overflowing = 0;
  for (std::uint32_t c = 0; c < cell_table_.size(); ++c) {
    const Cell& cell = cell_table_[c];
    const auto* more = cell_overflow_.find(c);
    overflowing += more != nullptr;
    if (flagged(cell.member[1]) != (more != nullptr && !more->entries.empty()) ||
        (more != nullptr && more->entries.empty()) || (cell.member[0] == no_sphere && cell.member[1] != no_sphere))
      fail("cell " + std::to_string(c) + ": its slots and its overflow disagree");
    std::vector<SphereId> members;
    for (const SphereId m : cell.member)
      if (m != no_sphere) members.push_back(m & ~more_members);
    if (more != nullptr) members.insert(members.end(), more->entries.begin(), more->entries.end());
    for (const SphereId j : members)
      if (j >= n || cell_[j] != c || listed[j]++ != 0)
        fail("cell " + std::to_string(c) + " lists " + (j < n ? "sphere " + std::to_string(ext_[j]) : "no sphere") +
             ", which is not its own or listed twice");
  }
  if (overflowing != cell_overflow_.size())
    fail(std::to_string(cell_overflow_.size()) + " overflow lists for " + std::to_string(overflowing) + " cells that overflow");
  for (SphereId i = 0; i < n; ++i)
    if (listed[i] == 0) fail("sphere " + std::to_string(ext_[i]) + " is in no cell's list");
  // The scans' buffers: never more than two slots for each of 27 cells and one entry
  // per sphere (for the overflows' members of some past listing; a review found them
  // growing at every scan of a crowded cell).
  for (const SphereList* list : {&candidates_, &scanned_[0], &scanned_[1]})
    if (list->buffer.size() > 2 * 27 + n)
      fail("a scan's buffer holds " + std::to_string(list->buffer.size()) + " entries, more than 54 and one per sphere");
  for (SphereId i = 0; i < n; ++i) {
    const Vec<3> x = kin_[i].position(t);
    for (int k = 0; k < 3; ++k) {
      if (x[k] - radius(i) < box_.lo[k] - tol || x[k] + radius(i) > box_.hi[k] + tol)
        fail("sphere " + std::to_string(ext_[i]) + " is outside the box");
      // In its cell, up to the slack that cell crossings at doubles need.
      const double lo = box_.lo[k] + cell_coords(i)[k] * side_[k], hi = lo + side_[k];
      const double slack = 1e-7 * side_[k];
      if (x[k] < lo - slack || x[k] > hi + slack)
        fail("sphere " + std::to_string(ext_[i]) + " is outside its cell on axis " + std::to_string(k));
    }
    // Walls: no failure before the sphere's scheduled contact for the wall of the cell it
    // is in (its event is recomputed at each of its motion changes, and it meets the wall
    // when it enters that cell); no failure before its queued event (its crossing) for
    // the others.
    for (int w = 0; w < wall_count; ++w) {
      const Wall wall = static_cast<Wall>(w);
      const int side = wall_is_low(wall) ? 1 : -1;
      const double al = allowance(tie_key::wall(i, wall), i, i);
      const double f = hard_spheres::wall_instant(
          kin_[i], radius(i), wall_axis(wall), wall_plane(box_, wall), side, al,
          hard_spheres::wall_window(kin_[i], radius(i), wall_axis(wall), wall_plane(box_, wall), side, al, scratch),
          scratch);
      if (f < (wall_in_reach(i, wall) ? record_[i].event.time : record_[i].event.queued()))
        fail("sphere " + std::to_string(ext_[i]) + " reaches wall " + std::to_string(w) + " before its event");
      if (record_[i].event.kind == Kind::wall && record_[i].event.exact && record_[i].event.partner == static_cast<std::uint32_t>(w) &&
          f != record_[i].event.time)
        fail("sphere " + std::to_string(ext_[i]) + ": its wall event is not its wall's failure");
    }
    if (record_[i].event.kind == Kind::pair && valid(i)) {
      const SphereId j = record_[i].event.partner, a = std::min(i, j), b = std::max(i, j);
      const double al = allowance(tie_key::pair(a, b), a, b);
      const double f = hard_spheres::pair_instant(
          kin_[a], radius(a), kin_[b], radius(b), al,
          hard_spheres::pair_window(kin_[a], radius(a), kin_[b], radius(b), al, hard_spheres::never, scratch), scratch);
      if (record_[i].event.exact ? f != record_[i].event.time : !(record_[i].event.time <= f)) fail("sphere " + std::to_string(ext_[i]) + ": its event with " + std::to_string(ext_[j]) + " is not their failure");
    }
  }
  // Allowances: every stored one that is still valid (both event counters as when stored)
  // is the one allowance() finds: the spheres' marks (Body::allowance_partner) must let
  // the lookup through.
  auto check_allowance = [&](std::uint64_t key, const Allowance& x) {
    const SphereId a = static_cast<SphereId>(key >> 32);
    const bool wall = (key & 0xFFFFFFFFu) >= 0xFFFFFFF0u;
    const SphereId b = wall ? a : static_cast<SphereId>(key & 0xFFFFFFFFu);
    if (x.count_a != kin_[a].count || x.count_b != kin_[b].count) return;
    if (allowance(key, a, b) != x.value)
      fail("the allowance of " + std::string(wall ? "sphere " : "spheres ") + std::to_string(ext_[a]) +
           (wall ? " at wall " + std::to_string((key & 0xFFFFFFFFu) - 0xFFFFFFF0u) : " and " + std::to_string(ext_[b])) +
           " is not found");
  };
  for (SphereId a = 0; a < n; ++a)
    if (record_[a].slot_partner != no_slot)
      check_allowance((std::uint64_t{a} << 32) | record_[a].slot_partner, record_[a].slot_allowance);
  for (const auto& [key, x] : allowances_) check_allowance(key, x);
  // As built: build() computes each pair's window once for both of its spheres; each
  // sphere's event must be what schedule() finds from scratch (on a copy, so that this
  // world's counters and queue stay as they are; the copy's observers are never called:
  // schedule() calls none), field for field.
  if (as_built_) {
    HardSphereWorld fresh(*this);
    for (SphereId i = 0; i < n; ++i) {
      fresh.schedule(i);
      const Event &a = record_[i].event, &b = fresh.record_[i].event;
      const bool same = a.time == b.time && a.hi == b.hi && a.cross == b.cross && a.partner == b.partner &&
                        a.partner_count == b.partner_count && a.kind == b.kind && a.tied == b.tied &&
                        a.exact == b.exact && a.cross_face == b.cross_face;
      if (!same) fail("sphere " + std::to_string(ext_[i]) + ": its first event is not the one its own scan schedules");
    }
  }
  // Every pair: apart, and its failure covered by the earlier of its spheres' events.
  for (SphereId i = 0; i < n; ++i)
    for (SphereId j = i + 1; j < n; ++j) {
      const Vec<3> d = sub(kin_[i].position(t), kin_[j].position(t));
      const double gap = norm(d) - radius(i) - radius(j);
      if (gap < -tol) fail("spheres " + std::to_string(ext_[i]) + " and " + std::to_string(ext_[j]) + " overlap by " + std::to_string(-gap));
      const double al = allowance(tie_key::pair(i, j), i, j);
      const double f = hard_spheres::pair_instant(
          kin_[i], radius(i), kin_[j], radius(j), al,
          hard_spheres::pair_window(kin_[i], radius(i), kin_[j], radius(j), al, hard_spheres::never, scratch), scratch);
      if (f < std::min(record_[i].event.queued(), record_[j].event.queued()))
        fail("spheres " + std::to_string(ext_[i]) + " and " + std::to_string(ext_[j]) + " meet at " + std::to_string(f) +
             ", before both of their scheduled events: a contact would be missed");
    }
}

}  // namespace kds
