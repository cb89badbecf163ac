#include "structures/hard_spheres/hard_sphere_world.hpp"

#include <algorithm>
#include <utility>
#include <optional>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "kds/errors.hpp"
#include "kds/solver.hpp"
#include "structures/collision/approach.hpp"
#include "structures/collision/geometry.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/collision/io/validate_spheres.hpp"
#include "structures/collision/response.hpp"
#include "structures/collision/tie_keys.hpp"

namespace kds {
namespace {

using hard_spheres::Kinematics;
using hard_spheres::never;
using text::shortest;

/// Cells are wider than the largest diameter by this fraction: a cell crossing is
/// processed at a double near its exact time (a few ulps before or after), and the slack
/// covers the distance a sphere moves meanwhile, so that spheres in cells that are not
/// neighbours never touch.
constexpr double cell_slack = 1e-6;
constexpr std::uint32_t npos = ~std::uint32_t{0};
/// Children per node of the queue (a d-ary heap: half the levels of a binary one, and the
/// four children of a node share a cache line). Measured against 2: docs/benchmarks/event-cost.md.
constexpr std::size_t arity = 4;

}  // namespace

// ---------------------------------------------------------------- construction

HardSphereWorld::HardSphereWorld(const CollisionWorldSettings& settings, const std::vector<Sphere>& spheres)
    : settings_(settings) {
  take(spheres);
  build();
}

HardSphereWorld::HardSphereWorld(const CollisionWorldSettings& settings, std::vector<Sphere>&& spheres)
    : settings_(settings) {
  take(spheres);
  std::vector<Sphere>().swap(spheres);  // released before the rest of the structure is allocated
  build();
}

void HardSphereWorld::take(const std::vector<Sphere>& spheres) {
  // The same rules and messages as CollisionWorld::validate_input, without its overlap
  // grid (which needs more memory than this whole structure) unless a problem is
  // possible: the settings first, then each sphere on its own; below, the pairs over
  // this structure's cells. Wherever a problem is possible the full validation runs and
  // reports the very problem it always reports.
  CollisionWorld::validate_input(settings_, {});
  bool full = spheres.size() > 0xFFFFFFF0u;
  for (std::size_t i = 0; i < spheres.size() && !full; ++i)
    full = spheres[i].max_acceleration > 0 || spheres[i].polytope != nullptr ||
           single_sphere_problem(spheres[i], i, settings_.box).has_value();
  if (full) CollisionWorld::validate_input(settings_, spheres);
  for (int k = 0; k < 3; ++k)
    if (settings_.gravity[k] != 0)
      throw InvalidInput(std::string(structure_name) +
                         ": gravity must be 0 (its spheres move in straight lines between contacts; use a broad "
                         "phase such as all-pairs or tvb-grid)");
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    if (spheres[i].max_acceleration > 0)
      throw InvalidInput("sphere " + std::to_string(i) +
                         ": has an unknown trajectory (max_acceleration > 0); " + structure_name +
                         " takes ballistic spheres only");
    if (spheres[i].polytope != nullptr)
      throw InvalidInput("object " + std::to_string(i) +
                         ": is a convex polytope; " + structure_name +
                         " takes spheres only (use a broad phase such as all-pairs)");
  }
  const std::size_t n = spheres.size();
  // Ids below 2^31: the cells flag their second slot with the high bit (Cell).
  if (n >= more_members)
    throw InvalidInput(std::string(structure_name) + ": " + std::to_string(n) + " spheres, more than it can number (2^31 - 1)");
  origin_ = local_origin(settings_.box);
  for (int k = 0; k < 3; ++k) {
    box_.lo[k] = settings_.box.lo[k] - origin_[k];
    box_.hi[k] = settings_.box.hi[k] - origin_[k];
  }
  // Radii and masses stored once when every sphere shares them (the common case).
  if (n > 0) {
    r_ = spheres[0].radius;
    m_ = spheres[0].mass;
  }
  bool same_radius = true, same_mass = true;
  double r_max = 0;
  for (const Sphere& sp : spheres) {
    same_radius = same_radius && sp.radius == r_;
    same_mass = same_mass && sp.mass == m_;
    r_max = std::max(r_max, sp.radius);
  }

  // Cells at least one largest diameter wide (plus the slack), at most about 2n + 27 of them.
  const double need = 2 * r_max * (1 + cell_slack);
  std::array<double, 3> length{};
  for (int k = 0; k < 3; ++k) {
    length[k] = box_.hi[k] - box_.lo[k];
    const double fit = need > 0 ? std::floor(length[k] / need) : 1;
    cells_[k] = static_cast<int>(std::clamp(fit, 1.0, 1e6));
  }
  const double budget = std::max(27.0, 2.0 * static_cast<double>(n));
  while (double(cells_[0]) * cells_[1] * cells_[2] > budget)
    for (int& c : cells_) c = std::max(1, static_cast<int>(c * 0.8));
  for (int k = 0; k < 3; ++k) side_[k] = length[k] / cells_[k];
  cell_table_.assign(static_cast<std::size_t>(cells_[0]) * cells_[1] * cells_[2], Cell{});
  cell_overflow_ = {};

  // Numbered by cell: a counting sort of the spheres' cells (the cell table's first slots
  // count, before they hold anything), stable, so that spheres of one cell keep the user's
  // order. No array by sphere but the two numberings: the cells are computed twice.
  const auto local = [&](std::size_t i) {
    Vec<3> p = spheres[i].position;
    for (int k = 0; k < 3; ++k) p[k] -= origin_[k];
    return p;
  };
  const auto cell_of = [&](const Vec<3>& p) {
    std::array<int, 3> c{};
    for (int k = 0; k < 3; ++k) c[k] = cell_coordinate(k, p[k]);
    return cell_index(c);
  };
  ext_.assign(n, 0);
  int_.assign(n, 0);
  {
    // first[c]: where cell c's spheres begin in the new numbering (in cell_table_'s slots).
    auto first = [&](std::uint32_t c) -> std::uint32_t& { return cell_table_[c].member[0]; };
    for (Cell& cell : cell_table_) cell.member[0] = 0;
    for (std::size_t i = 0; i < n; ++i) ++first(cell_of(local(i)));
    std::uint32_t sum = 0;
    for (Cell& cell : cell_table_) sum += std::exchange(cell.member[0], sum);
    for (std::size_t i = 0; i < n; ++i) {
      const SphereId k = first(cell_of(local(i)))++;
      ext_[k] = static_cast<SphereId>(i);
      int_[i] = k;
    }
    for (Cell& cell : cell_table_) cell = Cell{};
  }

  kin_.resize(n);
  if (!same_radius)
    for (SphereId k = 0; k < n; ++k) radius_.push_back(spheres[ext_[k]].radius);
  if (!same_mass)
    for (SphereId k = 0; k < n; ++k) mass_.push_back(spheres[ext_[k]].mass);
  for (SphereId k = 0; k < n; ++k) {
    const Sphere& sp = spheres[ext_[k]];
    set_motion(k, Kinematics{local(ext_[k]), sp.velocity, 0.0});
    max_speed_ = std::max(max_speed_, norm(sp.velocity));
  }
  cell_.resize(n);
  for (SphereId i = 0; i < n; ++i) {
    cell_[i] = cell_of(kin_[i].p);
    cell_insert(i);
  }

  // Overlaps at the start. Spheres that overlap are in neighbouring cells (cells are
  // wider than the largest diameter); a pair is certainly apart or touching when its
  // distance squared, in doubles, exceeds the square of its radii's sum by far more than
  // the rounding of either (a few units in the last place). Otherwise the exact test.
  if (full) return;  // validated in full above
  bool near = false;
  for (SphereId i = 0; i < n && !near; ++i) {
    list_neighbours(i, candidates_);
    for (const SphereId j : candidates_.ids()) {
      if (j < i) continue;
      const Sphere &a = spheres[ext_[i]], &b = spheres[ext_[j]];
      const Vec<3> d = sub(a.position, b.position);
      const double R = a.radius + b.radius;
      if (!(dot(d, d) > R * R * (1 + 1e-12))) {
        near = true;
        break;
      }
    }
  }
  if (near) CollisionWorld::validate_input(settings_, spheres);
}

void HardSphereWorld::build() {
  const std::size_t n = size();
  // Measured (docs/benchmarks/event-cost.md, ninth stop): 0.996x the time without at 10^5
  // (1.033x the linked cells' scans in two passes without it), but 1.02x at 10^4, where
  // the motions stay in cache.
  prefetch_motions_ = n * sizeof(Body) > (std::size_t{4} << 20);
  record_.assign(n, Record{});

  // Each sphere's first event, as schedule() finds it, with each certificate's allowance
  // decided just before its window (as CollisionWorld::build decides them before it
  // schedules), and each pair's window computed once for both of its spheres (schedule()
  // scans from one sphere, so at the start it would compute every window twice). A
  // sphere's choice does not depend on the order of its candidates: it is the earliest
  // by lower end and tie key, marked tied when another candidate's window overlaps it,
  // and a window beyond either sphere's bound is beyond that sphere's choice. So the
  // events are schedule()'s (the audit checks it at the start). Walls first, so that the
  // pairs meet tighter bounds.
  for (SphereId i = 0; i < n; ++i) {
    Best best;
    for (int w = 0; w < wall_count; ++w) {
      decide_wall_allowance(i, static_cast<Wall>(w));
      if (wall_in_reach(i, static_cast<Wall>(w)))
        consider(i, best, wall_window(i, w), Kind::wall, w, false);
    }
    record_[i].event = best.contact;
  }
  for (SphereId i = 0; i < n; ++i) {
    Best mine{record_[i].event};
    // The pairs with the later spheres, their allowances decided first (a pair's
    // allowance changes no other pair's window), then put through the four-lane first
    // tests as a scan's are.
    list_neighbours(i, candidates_);
    std::size_t later = 0;
    for (const SphereId j : candidates_.ids())
      if (j > i) {
        decide_pair_allowance(i, j, 0.0);
        candidates_.buffer[later++] = j;
      }
    for_each_candidate(i, {candidates_.buffer.data(), later}, [&](SphereId j) {
      Best theirs{record_[j].event};
      const hard_spheres::Window w = pair_window(i, j, std::max(mine.contact.hi, theirs.contact.hi));
      consider(i, mine, w, Kind::pair, j, false);
      consider(j, theirs, w, Kind::pair, i, false);
      record_[j].event = theirs.contact;
    });
    record_[i].event = mine.contact;
  }
  for (SphereId i = 0; i < n; ++i) {
    ++stats_.reschedules;
    set_crossing(i, record_[i].event);
  }
  // The calendar's bins: as many as spheres, over twice the mean time to the spheres'
  // first events, so that the heap holds about the next few and the ring most of the rest
  // (the width only decides where the spheres wait, never the order of their events).
  double sum = 0;
  std::size_t finite = 0;
  for (SphereId i = 0; i < n; ++i)
    if (const double t = record_[i].event.queued(); t != never) {
      sum += t - now_;
      ++finite;
    }
  const double mean = finite > 0 ? sum / static_cast<double>(finite) : 0;
  const std::size_t bins = std::max<std::size_t>(n, 16);
  calendar_.reset(n, now_, mean > 0 && std::isfinite(mean) ? 2 * mean / static_cast<double>(bins) : 1.0, bins);
  heap_.reserve(n);
  for (SphereId i = 0; i < n; ++i) heap_update(i);
  as_built_ = true;
}

// ---------------------------------------------------------------- cells

int HardSphereWorld::cell_coordinate(int k, double x) const {
  const double c = std::floor((x - box_.lo[k]) / side_[k]);
  return static_cast<int>(std::clamp(c, 0.0, static_cast<double>(cells_[k] - 1)));
}

void HardSphereWorld::cell_insert(SphereId i) {
  const std::uint32_t c = cell_[i];
  Cell& cell = cell_table_[c];
  if (cell.member[0] == no_sphere) {
    cell.member[0] = i;
  } else if (cell.member[1] == no_sphere) {
    cell.member[1] = i;
  } else {
    cell_overflow_[c].entries.push_back(i);
    cell.member[1] |= more_members;
  }
}

void HardSphereWorld::cell_remove(SphereId i) {
  // The cell's last member takes i's place, and the last place is dropped.
  const std::uint32_t c = cell_[i];
  Cell& cell = cell_table_[c];
  const bool more = flagged(cell.member[1]);
  std::vector<SphereId>* overflow = more ? &cell_overflow_.find(c)->entries : nullptr;
  const SphereId last = more ? overflow->back() : cell.member[1] != no_sphere ? cell.member[1] : cell.member[0];
  if (cell.member[0] == i) cell.member[0] = last;
  else if (cell.member[1] != no_sphere && (cell.member[1] & ~more_members) == i) cell.member[1] = last | (more ? more_members : 0);
  else *std::find(overflow->begin(), overflow->end(), i) = last;
  if (more) {
    overflow->pop_back();
    if (overflow->empty()) {
      cell_overflow_.erase(c);
      cell.member[1] &= ~more_members;
    }
  } else if (cell.member[1] != no_sphere) {
    cell.member[1] = no_sphere;
  } else {
    cell.member[0] = no_sphere;
  }
}

template <class F>
void HardSphereWorld::for_each_in_cells(const std::array<int, 3>& lo, const std::array<int, 3>& hi, SphereId skip,
                                        F&& f) const {
  for (int z = lo[2]; z <= hi[2]; ++z)
    for (int y = lo[1]; y <= hi[1]; ++y)
      for (int x = lo[0]; x <= hi[0]; ++x) {
        const std::uint32_t c = cell_index({x, y, z});
        const Cell& cell = cell_table_[c];
        if (cell.member[0] == no_sphere) continue;
        if (cell.member[0] != skip) f(cell.member[0]);
        if (cell.member[1] == no_sphere) continue;
        if (const SphereId j = cell.member[1] & ~more_members; j != skip) f(j);
        if (flagged(cell.member[1]))
          for (const SphereId j : cell_overflow_.find(c)->entries)
            if (j != skip) f(j);
      }
}

void HardSphereWorld::list_cells(const std::array<int, 3>& lo, const std::array<int, 3>& hi, SphereId skip,
                                 SphereList& list) const {
  // Each cell's two slots are copied to the end of the list, which then moves on by the
  // members among them: no branch on how many a cell holds. The buffer holds two slots
  // per cell and every overflow member met: the copy may write past what it keeps.
  std::size_t cells = 1;
  for (int k = 0; k < 3; ++k) cells *= static_cast<std::size_t>(hi[k] - lo[k] + 1);
  std::vector<SphereId>& out = list.buffer;
  if (out.size() < 2 * cells) out.resize(2 * cells);
  // Large worlds: every row of cells requested first, so that their cache misses overlap
  // (0.96x the time at 10^6, 0.997x at 10^5: docs/benchmarks/event-cost.md, ninth stop).
  if (prefetch_motions_)
    for (int z = lo[2]; z <= hi[2]; ++z)
      for (int y = lo[1]; y <= hi[1]; ++y) {
        const char* row = reinterpret_cast<const char*>(&cell_table_[cell_index({lo[0], y, z})]);
        __builtin_prefetch(row);
        __builtin_prefetch(row + sizeof(Cell) * static_cast<std::size_t>(hi[0] - lo[0]));
      }
  std::size_t k = 0, extra = 0;  // extra: the overflows' members listed so far
  for (int z = lo[2]; z <= hi[2]; ++z)
    for (int y = lo[1]; y <= hi[1]; ++y) {
      const std::uint32_t row = cell_index({lo[0], y, z});
      for (std::uint32_t c = row; c <= row + static_cast<std::uint32_t>(hi[0] - lo[0]); ++c) {
        const Cell& cell = cell_table_[c];
        const SphereId m0 = cell.member[0], m1 = cell.member[1];
        std::memcpy(out.data() + k, cell.member.data(), sizeof cell.member);
        k += std::size_t{m0 != no_sphere} + std::size_t{m1 != no_sphere};
        if (prefetch_motions_) {
          // Their motions are read next: requested now, so that the cache misses of the
          // walk and of the motions overlap. Sphere 0 stands in for an empty slot (a
          // conditional move, not a branch).
          __builtin_prefetch(&kin_[m0 != no_sphere ? m0 : 0]);
          __builtin_prefetch(&kin_[m1 != no_sphere ? m1 & ~more_members : 0]);
        }
        if (!flagged(m1)) [[likely]]
          continue;
        out[k - 1] &= ~more_members;
        const std::vector<SphereId>& more = cell_overflow_.find(c)->entries;
        extra += more.size();
        if (out.size() < 2 * cells + extra) out.resize(2 * cells + extra);
        std::copy(more.begin(), more.end(), out.begin() + static_cast<std::ptrdiff_t>(k));
        k += more.size();
      }
    }
  const auto end = out.begin() + static_cast<std::ptrdiff_t>(k);
  if (const auto it = std::find(out.begin(), end, skip); it != end) {
    std::copy(it + 1, end, it);
    --k;
  }
  list.size = k;
}

template <class F>
void HardSphereWorld::for_each_candidate(SphereId i, std::span<const SphereId> list, F&& f) {
  const bool known = magnitudes_.p <= std::numeric_limits<double>::max() &&
                     magnitudes_.v <= std::numeric_limits<double>::max();
  std::size_t k = 0;
  if (known) {
    hard_spheres::FourPairs q;
    for (; k + 4 <= list.size(); k += 4) {
      for (int l = 0; l < 4; ++l) {
        const SphereId j = list[k + static_cast<std::size_t>(l)], a = std::min(i, j), b = std::max(i, j);
        q.a[l] = &kin_[a];
        q.b[l] = &kin_[b];
        q.ra[l] = radius(a);
        q.rb[l] = radius(b);
        q.allowance[l] = allowance(tie_key::pair(a, b), a, b);
      }
      const unsigned never = hard_spheres::first_tests_never4(q, magnitudes_);
      for (int l = 0; l < 4; ++l) {
        if ((never >> l) & 1u) {
          ++stats_.times.pair_tests;
          ++stats_.times.pair_rejected;
          ++stats_.times.pair_rejected_coarse;
        } else {
          f(list[k + static_cast<std::size_t>(l)]);
        }
      }
    }
  }
  for (; k < list.size(); ++k) f(list[k]);
}

template <class F>
void HardSphereWorld::for_each_neighbour(SphereId i, F&& f) const {
  const std::array<int, 3> c = cell_coords(i);
  std::array<int, 3> lo{}, hi{};
  for (int k = 0; k < 3; ++k) {
    lo[k] = std::max(0, c[k] - 1);
    hi[k] = std::min(cells_[k] - 1, c[k] + 1);
  }
  for_each_in_cells(lo, hi, i, f);
}

void HardSphereWorld::list_neighbours(SphereId i, SphereList& list) const {
  const std::array<int, 3> c = cell_coords(i);
  std::array<int, 3> lo{}, hi{};
  for (int k = 0; k < 3; ++k) {
    lo[k] = std::max(0, c[k] - 1);
    hi[k] = std::min(cells_[k] - 1, c[k] + 1);
  }
  list_cells(lo, hi, i, list);
}

bool HardSphereWorld::wall_in_reach(SphereId i, Wall w) const {
  // A sphere in any other cell is at least a cell side (one largest diameter) from the
  // wall's plane, and must cross into the cell next to it before it can touch it: half a
  // cell at least, where pairs rely on crossings processed within the cells' slack of
  // 1e-6. Its crossing into that cell makes the wall a candidate (cross()).
  const int k = wall_axis(w), c = cell_coords(i)[k];
  return wall_is_low(w) ? c == 0 : c == cells_[k] - 1;
}

void HardSphereWorld::set_crossing(SphereId i, Event& e) const {
  e.cross = never;
  const Kinematics& m = kin_[i];
  const std::array<int, 3> cell = cell_coords(i);
  for (int k = 0; k < 3; ++k) {
    const int c = cell[k];
    double face;
    if (m.v[k] > 0 && c < cells_[k] - 1) face = box_.lo[k] + (c + 1) * side_[k];
    else if (m.v[k] < 0 && c > 0) face = box_.lo[k] + c * side_[k];
    else continue;
    const double t = std::max(now_, m.start + (face - m.p[k]) / m.v[k]);
    if (t < e.cross) {
      e.cross = t;
      e.cross_face = static_cast<std::uint8_t>(2 * k + (m.v[k] > 0 ? 1 : 0));
    }
  }
}

void HardSphereWorld::cross(SphereId i) {
  // As event-driven MD codes do: the sphere keeps its earliest contact (over the cells it
  // was next to, found without regard to the crossing) and pairs only with the spheres of
  // the 9 cells it comes next to. Every pair of neighbours has been examined by one of its
  // spheres since both last changed motion: by a full scan at a motion change, or by this
  // scan when they became neighbours. A stale contact needs a full scan.
  Event& e = record_[i].event;
  const int k = e.cross_face / 2;
  const bool up = e.cross_face % 2 == 1;
  now_ = std::max(now_, e.cross);
  cell_remove(i);
  std::array<int, 3> moved = cell_coords(i);
  moved[k] += up ? 1 : -1;
  cell_[i] = cell_index(moved);
  cell_insert(i);
  ++stats_.cell_crossings;
  if (!valid(i)) {
    schedule(i);
    return;
  }
  ++stats_.reschedules;
  set_crossing(i, e);
  const std::array<int, 3> c = cell_coords(i);
  const int layer = c[k] + (up ? 1 : -1);
  Best best{e};
  if (layer >= 0 && layer < cells_[k]) {
    std::array<int, 3> lo{}, hi{};
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::max(0, c[a] - 1);
      hi[a] = std::min(cells_[a] - 1, c[a] + 1);
    }
    lo[k] = hi[k] = layer;
    list_cells(lo, hi, i, candidates_);
    for_each_candidate(i, candidates_.ids(), [&](SphereId j) {
      const hard_spheres::Window w = pair_window(i, j, best.contact.hi);
      if (w.fails()) consider(i, best, w, Kind::pair, j, false);
    });
  } else {
    // Into the cell next to the wall it moves towards: the wall becomes a candidate (walls
    // are examined only from the cells next to them: wall_in_reach).
    const Wall wall = wall_of(k, !up);
    const int w = static_cast<int>(wall);
    consider(i, best, wall_window(i, w), Kind::wall, w, false);
  }
  const double cross = e.cross;
  const std::uint8_t face = e.cross_face;
  e = best.contact;
  e.cross = cross;
  e.cross_face = face;
  heap_update(i);
}

// ---------------------------------------------------------------- failure times

double HardSphereWorld::stored_allowance(std::uint64_t key, SphereId a, SphereId b) const {
  const Record& r = record_[a];
  if (r.slot_partner == static_cast<std::uint32_t>(key)) {
    if (r.slot_allowance.count_a == kin_[a].count && r.slot_allowance.count_b == kin_[b].count)
      return r.slot_allowance.value;
  }
  const auto it = allowances_.find(key);
  if (it == allowances_.end() || it->second.count_a != kin_[a].count || it->second.count_b != kin_[b].count) return 0;
  return it->second.value;
}

void HardSphereWorld::store_allowance(std::uint64_t key, SphereId a, SphereId b, double value) {
  const Allowance x{value, kin_[a].count, kin_[b].count};
  auto mark = [](std::uint32_t& m, std::uint32_t partner) {
    m = m == no_allowance || m == partner ? partner : several_allowances;
  };
  mark(kin_[a].allowance_partner, static_cast<std::uint32_t>(key));
  if (b != a) mark(kin_[b].allowance_partner, a);
  Record& r = record_[a];  // key >> 32 is a: the slot holds keys of a's pairs and walls only
  const std::uint32_t partner = static_cast<std::uint32_t>(key);
  const SphereId slot_b = r.slot_partner == no_slot || r.slot_partner >= 0xFFFFFFF0u ? a : r.slot_partner;
  const bool stale = r.slot_partner == no_slot || r.slot_allowance.count_a != kin_[a].count ||
                     r.slot_allowance.count_b != kin_[slot_b].count;
  if (r.slot_partner == partner || stale) {
    r.slot_partner = partner;
    r.slot_allowance = x;
    return;
  }
  allowances_[key] = x;
}

hard_spheres::Window HardSphereWorld::pair_window(SphereId i, SphereId j, double bound) {
  const SphereId a = std::min(i, j), b = std::max(i, j);
  return hard_spheres::pair_window(kin_[a], radius(a), kin_[b], radius(b), allowance(tie_key::pair(a, b), a, b),
                                   bound, stats_.times, magnitudes_);
}

hard_spheres::Window HardSphereWorld::wall_window(SphereId i, int w) {
  const Wall wall = static_cast<Wall>(w);
  return hard_spheres::wall_window(kin_[i], radius(i), wall_axis(wall), wall_plane(box_, wall),
                                   wall_is_low(wall) ? +1 : -1, allowance(tie_key::wall(i, wall), i, i), stats_.times);
}

double HardSphereWorld::pair_instant(SphereId i, SphereId j, const hard_spheres::Window& w) {
  const SphereId a = std::min(i, j), b = std::max(i, j);
  return hard_spheres::pair_instant(kin_[a], radius(a), kin_[b], radius(b), allowance(tie_key::pair(a, b), a, b), w,
                                    stats_.times);
}

double HardSphereWorld::wall_instant(SphereId i, int w, const hard_spheres::Window& win) {
  const Wall wall = static_cast<Wall>(w);
  return hard_spheres::wall_instant(kin_[i], radius(i), wall_axis(wall), wall_plane(box_, wall),
                                    wall_is_low(wall) ? +1 : -1, allowance(tie_key::wall(i, wall), i, i), win,
                                    stats_.times);
}

void HardSphereWorld::consider(SphereId i, Best& best, hard_spheres::Window w, Kind kind, std::uint32_t partner,
                               bool resolve_all) {
  // Windows that overlap cannot be ordered by the doubles: the sphere is marked tied, and
  // its event is resolved with every such candidate's exact instant before it is
  // processed. At the current instant every window is resolved at once, so that its
  // events go by tie key.
  using hard_spheres::Window;
  if (!w.fails()) return;
  // Tie keys, in the user's ids: read only at equal lower ends (ext_ is not in cache).
  auto tie = [&] { return kind == Kind::pair ? order_pair(i, partner) : order_wall(i, static_cast<Wall>(partner)); };
  auto contact_tie = [&] {
    const Event& c = best.contact;
    return c.kind == Kind::pair ? order_pair(i, c.partner) : order_wall(i, static_cast<Wall>(c.partner));
  };
  if (!w.exact && (resolve_all || w.lo <= instant_)) {
    const double t = kind == Kind::pair ? pair_instant(i, partner, w) : wall_instant(i, static_cast<int>(partner), w);
    w = Window{t, t, t, true};
  }
  Event& contact = best.contact;
  auto take = [&] {
    contact.time = w.lo;
    contact.hi = w.hi;
    contact.exact = w.exact;
    contact.kind = kind;
    contact.partner = partner;
    contact.partner_count = kind == Kind::pair ? kin_[partner].count : 0;
  };
  if (contact.kind == Kind::none) {
    take();
    return;
  }
  if (w.lo > contact.hi) return;  // certainly later
  if (w.hi < contact.time) {      // certainly earlier
    take();
    contact.tied = false;
    return;
  }
  if (w.lo < contact.time || (w.lo == contact.time && tie() < contact_tie())) take();
  contact.tied = true;
}

void HardSphereWorld::schedule(SphereId i, bool resolve_all, const SphereList* neighbours) {
  // The sphere's earliest candidate by the windows of the failure times, over its walls
  // and the spheres of the 27 cells around it (regardless of its next crossing, so that
  // the candidate stays good after it: cross()).
  ++stats_.reschedules;
  Best best;
  for (int w = 0; w < wall_count; ++w)
    if (wall_in_reach(i, static_cast<Wall>(w)))
      consider(i, best, wall_window(i, w), Kind::wall, w, resolve_all);
  auto pair = [&](SphereId j) {
    const hard_spheres::Window w = pair_window(i, j, best.contact.hi);
    if (w.fails()) consider(i, best, w, Kind::pair, j, resolve_all);
  };
  if (neighbours == nullptr) {
    list_neighbours(i, candidates_);
    neighbours = &candidates_;
  }
  for_each_candidate(i, neighbours->ids(), pair);
  record_[i].event = best.contact;
  set_crossing(i, record_[i].event);
  heap_update(i);
}

void HardSphereWorld::resolve(SphereId i) {
  ++stats_.resolved;
  Event& e = record_[i].event;
  if (e.tied) {
    ++stats_.resolved_tied;
    schedule(i, true);
    return;
  }
  // The window is a few ulps wide: its middle is where the instant likely is.
  const hard_spheres::Window w{e.time, e.hi, e.time + 0.5 * (e.hi - e.time), false};
  const double t = e.kind == Kind::pair ? pair_instant(i, e.partner, w) : wall_instant(i, static_cast<int>(e.partner), w);
  e.time = e.hi = t;
  e.exact = true;
  heap_update(i);
}

bool HardSphereWorld::valid(SphereId i) const {
  const Event& e = record_[i].event;
  return e.kind != Kind::pair || kin_[e.partner].count == e.partner_count;
}

// ---------------------------------------------------------------- the queue

std::uint64_t HardSphereWorld::tie_of(SphereId i) const {
  const Event& e = record_[i].event;
  if (e.crossing_first()) return e.cross == never ? ~std::uint64_t{0} : tie_key::bookkeeping(ext_[i], 1);
  if (e.kind == Kind::pair) return order_pair(i, e.partner);
  return order_wall(i, static_cast<Wall>(e.partner));
}

bool HardSphereWorld::before(const HeapEntry& x, const HeapEntry& y) const {
  if (x.time != y.time) return x.time < y.time;
  const std::uint64_t tx = tie_of(x.id), ty = tie_of(y.id);
  return tx != ty ? tx < ty : x.id < y.id;
}

void HardSphereWorld::sift_up(std::size_t pos) {
  const HeapEntry x = heap_[pos];
  while (pos > 0) {
    const std::size_t parent = (pos - 1) / arity;
    if (!before(x, heap_[parent])) break;
    heap_[pos] = heap_[parent];
    record_[heap_[pos].id].pos = static_cast<std::uint32_t>(pos);
    pos = parent;
  }
  heap_[pos] = x;
  record_[x.id].pos = static_cast<std::uint32_t>(pos);
}

void HardSphereWorld::sift_down(std::size_t pos) {
  const HeapEntry x = heap_[pos];
  const std::size_t n = heap_.size();
  for (;;) {
    const std::size_t first = arity * pos + 1;
    if (first >= n) break;
    // At large N each level is a cache miss: the grandchildren (16 entries in a row, 4 or 5
    // cache lines) are requested while the children are compared.
    // (Only for a whole group inside the array: the addresses stay within it or one past.)
    if (const std::size_t grand = arity * first + 1; grand + arity * arity <= n) {
      static_assert(arity * arity * sizeof(HeapEntry) == 4 * 64);
      const char* p = reinterpret_cast<const char*>(heap_.data() + grand);
      for (int line = 0; line <= 4; ++line) __builtin_prefetch(p + 64 * line);
    }
    // The earliest child: without branches when its time is below the other three (which
    // child it is, is a coin toss that a branch mispredicts half the time); one by one
    // otherwise (equal times go by tie key) and for fewer children.
    std::size_t child = first;
    bool found = false;
    if (first + arity <= n) {
      static_assert(arity == 4);
      const HeapEntry* c = &heap_[first];
      const std::size_t a = c[1].time < c[0].time ? 1 : 0;
      const std::size_t b = c[3].time < c[2].time ? 3 : 2;
      const std::size_t m = c[b].time < c[a].time ? b : a;
      const double t = c[m].time;
      found = int{t < c[0].time} + int{t < c[1].time} + int{t < c[2].time} + int{t < c[3].time} == 3;
      child = first + m;
    }
    if (!found) {
      child = first;
      for (std::size_t c = first + 1; c < std::min(first + arity, n); ++c)
        if (before(heap_[c], heap_[child])) child = c;
    }
    if (!before(heap_[child], x)) break;
    heap_[pos] = heap_[child];
    record_[heap_[pos].id].pos = static_cast<std::uint32_t>(pos);
    pos = child;
  }
  heap_[pos] = x;
  record_[x.id].pos = static_cast<std::uint32_t>(pos);
}

void HardSphereWorld::heap_update(SphereId i) {
  const HeapEntry x{record_[i].event.queued(), i};
  // Beyond the current bin: in the calendar, unordered (a never stays in the heap, below
  // every event).
  if (x.time != never) {
    if (const Calendar::Bin k = calendar_.bin(x.time); k > calendar_.current()) {
      if (record_[i].pos != npos) heap_erase(i);
      if (calendar_.holds(i)) calendar_.remove(i);
      calendar_.add(i, k);
      refill();
      return;
    }
  }
  if (calendar_.holds(i)) calendar_.remove(i);
  if (record_[i].pos == npos) {
    heap_.push_back(x);
    sift_up(heap_.size() - 1);
  } else {
    const std::size_t pos = record_[i].pos;
    heap_[pos] = x;
    sift_up(pos);
    sift_down(record_[i].pos);
  }
  if (x.time == never) refill();
}

void HardSphereWorld::heap_erase(SphereId i) {
  const std::size_t pos = record_[i].pos;
  record_[i].pos = npos;
  const HeapEntry last = heap_.back();
  heap_.pop_back();
  if (pos == heap_.size()) return;
  heap_[pos] = last;
  record_[last.id].pos = static_cast<std::uint32_t>(pos);
  sift_up(pos);
  sift_down(record_[last.id].pos);
}

void HardSphereWorld::refill() {
  // The heap's first event is the queue's while the heap holds any: when it holds none
  // (or only nevers), the calendar's next bin comes in.
  while ((heap_.empty() || heap_[0].time == never) &&
         calendar_.advance(pulled_, [this](std::uint32_t id) { return record_[id].event.queued(); })) {
    for (const SphereId id : pulled_) {
      heap_.push_back(HeapEntry{record_[id].event.queued(), id});
      sift_up(heap_.size() - 1);
    }
    pulled_.clear();
  }
}

// ---------------------------------------------------------------- the event loop

// Always inlined: out of line, a function whose only effects are prefetches counts as pure
// to GCC, and its calls are removed.
[[gnu::always_inline]] inline void HardSphereWorld::request_next() const {
  // The event after this one is most likely the earliest of the heap root's children, or,
  // with the root alone in the heap, the first of the calendar's next bin. At large N its
  // sphere's records are cache misses: asked for now, they arrive while this event runs
  // (a hint only; a wrong guess costs a few loads).
  SphereId j = no_sphere;
  if (heap_.size() > 1) {
    std::size_t best = 1;
    for (std::size_t c = 2; c <= arity && c < heap_.size(); ++c)
      if (heap_[c].time < heap_[best].time) best = c;
    j = heap_[best].id;
  } else {
    j = calendar_.peek_next();
  }
  if (j == no_sphere || j >= record_.size()) return;
  __builtin_prefetch(&record_[j]);
  __builtin_prefetch(&kin_[j]);
  __builtin_prefetch(&cell_[j]);
}

bool HardSphereWorld::step() { return step_before(never); }

bool HardSphereWorld::step_before(double limit) {
  as_built_ = false;
  while (!heap_.empty()) {
    const SphereId i = heap_[0].id;
    const Event& e = record_[i].event;
    if (heap_[0].time == never || heap_[0].time > limit) return false;
    if (e.crossing_first()) {
      cross(i);
      observe_event();
      return true;
    }
    if (!valid(i)) {
      ++stats_.stale;
      schedule(i);
      continue;
    }
    if (!e.exact) {
      resolve(i);
      continue;
    }
    request_next();
    if (e.time != instant_) {
      first_of_instant(e.time);
      observe_event();
      return true;
    }
    // Later events of the instant: in tie-key order (the heap's order at equal times).
    check_progress();
    if (e.kind == Kind::pair) encounter(i, e.partner, false, Wall::x_lo);
    else encounter(i, i, true, static_cast<Wall>(e.partner));
    observe_event();
    return true;
  }
  return false;
}

void HardSphereWorld::run_until(double t) {
  if (t < now_) {
    std::ostringstream os;
    os.precision(17);
    os << "run_until: target time " << t << " is before the current time " << now_;
    throw InvalidInput(os.str());
  }
  while (step_before(t)) {
  }
  now_ = t;
}

std::optional<double> HardSphereWorld::time_between_events() const {
  if (!gathered_.empty()) return std::nullopt;  // contacts of this instant wait off the queue
  // The queued times are lower bounds of the events' times (a contact's window, a stale
  // event's old time): nothing happens before the first.
  const double a = now_;
  const double b = heap_.empty() ? never : heap_[0].time;
  if (b == never) return a + std::max(1.0, std::fabs(a));
  const double t = a + 0.5 * (b - a);
  if (t > a && t < b) return t;
  return std::nullopt;
}

void HardSphereWorld::first_of_instant(double t) {
  // Every queued event at this instant comes out of the heap (stale ones are recomputed
  // and crossings processed on the way): the one processed first is the one whose exact
  // time is earliest (ties by tie key), as the reference's queue pops it before rounding
  // the clock; the others follow in tie-key order.
  gathered_.clear();
  while (!heap_.empty()) {
    const SphereId i = heap_[0].id;
    const Event& e = record_[i].event;
    if (heap_[0].time == never || heap_[0].time > t) break;
    if (e.crossing_first()) {
      cross(i);
      observe_event();  // between events of one instant: time_between_events() is nullopt (gathered_)
      continue;
    }
    if (!valid(i)) {
      ++stats_.stale;
      schedule(i);
      continue;
    }
    if (!e.exact) {
      resolve(i);
      continue;
    }
    gathered_.push_back(heap_[0]);
    heap_[0] = heap_.back();
    heap_.pop_back();
    record_[i].pos = npos;
    if (!heap_.empty()) sift_down(0);
    refill();
  }
  using Candidate = InstantCandidate;
  std::vector<Candidate>& candidates = instant_candidates_;
  candidates.clear();
  bool tied = false;
  for (const HeapEntry& g : gathered_) tied = tied || record_[g.id].event.tied;
  auto add = [&](const Candidate& c) {
    for (const Candidate& d : candidates)
      if (d.tie == c.tie) return;
    candidates.push_back(c);
  };
  auto event_candidate = [&](SphereId i) {
    const Event& e = record_[i].event;
    if (e.kind == Kind::pair)
      return Candidate{order_pair(i, e.partner), i, e.partner, false, Wall::x_lo};
    return Candidate{order_wall(i, static_cast<Wall>(e.partner)), i, i, true, static_cast<Wall>(e.partner)};
  };
  for (const HeapEntry& g : gathered_) {
    const SphereId i = g.id;
    if (!record_[i].event.tied) {
      add(event_candidate(i));
      continue;
    }
    // Several contacts of this sphere fall at the instant: all of them compete.
    for (int w = 0; w < wall_count; ++w) {
      const hard_spheres::Window win = wall_window(i, w);
      if (win.fails() && win.lo <= t && wall_instant(i, w, win) == t)
        add(Candidate{order_wall(i, static_cast<Wall>(w)), i, i, true, static_cast<Wall>(w)});
    }
    std::vector<SphereId>& partners = tied_partners_;
    partners.clear();
    for_each_neighbour(i, [&](SphereId j) { partners.push_back(j); });
    for (SphereId j : partners) {
      const hard_spheres::Window win = pair_window(i, j, t);
      if (win.fails() && win.lo <= t && pair_instant(i, j, win) == t)
        add(Candidate{order_pair(i, j), i, j, false, Wall::x_lo});
    }
  }
  std::size_t first = 0;
  if (candidates.size() > 1) {
    // Exact failure times (their functions kept alive while the roots are compared).
    ++stats_.instants_exact;
    const std::uint64_t exact_before = solver_counters().comparisons_exact;
    std::vector<std::unique_ptr<hard_spheres::PairFunction>> pairs;
    std::vector<std::unique_ptr<hard_spheres::WallFunction>> walls;
    std::vector<Root> roots;
    for (const Candidate& c : candidates) {
      if (c.with_wall) {
        const Wall w = c.wall;
        walls.push_back(std::make_unique<hard_spheres::WallFunction>(kin_[c.a], radius(c.a), wall_axis(w),
                                                                     wall_plane(box_, w), wall_is_low(w) ? 1 : -1,
                                                                     allowance(tie_key::wall(c.a, w), c.a, c.a)));
        roots.push_back(hard_spheres::wall_root(*walls.back(), kin_[c.a].start));
      } else {
        const SphereId a = std::min(c.a, c.b), b = std::max(c.a, c.b);
        pairs.push_back(std::make_unique<hard_spheres::PairFunction>(kin_[a], radius(a), kin_[b], radius(b),
                                                                     allowance(tie_key::pair(a, b), a, b)));
        roots.push_back(hard_spheres::pair_root(*pairs.back(), std::max(kin_[a].start, kin_[b].start)));
      }
    }
    for (std::size_t k = 1; k < candidates.size(); ++k) {
      const int order = compare(roots[k], roots[first]);
      if (order < 0 || (order == 0 && candidates[k].tie < candidates[first].tie)) first = k;
    }
    stats_.exact_comparisons += solver_counters().comparisons_exact - exact_before;
  }
  for (const HeapEntry& g : gathered_) heap_update(g.id);
  gathered_.clear();  // none waits off the queue (time_between_events)
  ++stats_.instants;
  now_ = t;
  begin_instant(t);
  check_progress();
  const Candidate c = candidates.at(first);  // a copy: encounter may start another instant
  encounter(c.a, c.b, c.with_wall, c.wall);
}

void HardSphereWorld::check_progress() {
  ++events_at_instant_;
  const std::uint64_t bound = 10'000 + 1'000 * static_cast<std::uint64_t>(size());
  if (events_at_instant_ <= bound) return;
  std::ostringstream os;
  os.precision(17);
  os << "no progress in time: " << events_at_instant_ << " events at t = " << now_
     << " (the bound of SimulatorSettings::max_events_at_one_instant and _per_body)";
  throw NoProgress(os.str(), {});
}

// ---------------------------------------------------------------- the contact pipeline

void HardSphereWorld::begin_instant(double t) {
  if (t == instant_) return;
  instant_ = t;
  touching_now_.clear();
  events_at_instant_ = 0;
}

void HardSphereWorld::encounter(SphereId a, SphereId b, bool with_wall, Wall w) {
  // The pair in the user's order (the reference responds to the sphere of smaller id first).
  if (!with_wall && ext_[a] > ext_[b]) std::swap(a, b);
  // The spheres' cells are read by the scans after the response (at large N a cache miss
  // each): requested now.
  __builtin_prefetch(&cell_[a]);
  __builtin_prefetch(&cell_[b]);
  const double t = now_;
  begin_instant(t);
  ++stats_.events;
  touching_now_.push_back(with_wall ? tie_key::wall(a, w) : tie_key::pair(a, b));
  const std::array<SphereId, 2> ids{a, b};
  const std::size_t count = with_wall ? 1 : 2;
  std::array<SphereState, 2> s;
  for (std::size_t i = 0; i < count; ++i) {
    s[i] = SphereState{kin_[ids[i]].position(t), kin_[ids[i]].v};
    max_speed_ = std::max(max_speed_, norm(s[i].velocity));
  }
  const Contact c{t, ext_[a], ext_[b], with_wall, w};
  if (with_wall) {
    const int k = wall_axis(w);
    const bool low = wall_is_low(w);
    if (low ? s[0].velocity[k] < 0 : s[0].velocity[k] > 0) {
      s[0].velocity = wall_response(w, s[0].velocity, settings_.restitution);
      if (low ? s[0].velocity[k] < 0 : s[0].velocity[k] > 0)
        throw InvalidInput("wall response for sphere " + std::to_string(ext_[a]) + " at t = " + shortest(t) +
                           " left it moving into the wall");
      const double x = touching_coordinate(wall_plane(box_, w), radius(a), low);
      if (low ? s[0].position[k] < x : s[0].position[k] > x) s[0].position[k] = x;
      record(c);
    }
  } else if (approach_beyond_rounding(s[0], s[1])) {
    auto [va, vb] = collision_response(s[0].position, s[0].velocity, mass(a), s[1].position, s[1].velocity, mass(b),
                                       settings_.restitution);
    s[0].velocity = va;
    s[1].velocity = vb;
    if (approach_beyond_rounding(s[0], s[1]))
      throw InvalidInput("contact response for spheres " + std::to_string(ext_[a]) + " and " + std::to_string(ext_[b]) +
                         " at t = " + shortest(t) + " left them approaching");
    std::array<bool, 3> movable{};
    for (int k = 0; k < 3; ++k) movable[k] = s[0].velocity[k] != 0 || s[1].velocity[k] != 0;
    separate_pair(s[0].position, radius(a), mass(a), s[1].position, radius(b), mass(b), movable);
    record(c);
  }
  restart({ids.data(), count}, t, {s.data(), count});
}

void HardSphereWorld::record(const Contact& c) {
  if (keep_contacts_) contacts_.push_back(c);
  if (c.with_wall) ++wall_contacts_;
  else ++sphere_contacts_;
  for (const auto& f : contact_observers_) f(c);
}

void HardSphereWorld::restart(std::span<const SphereId> ids, double t, std::span<const SphereState> states) {
  // As CollisionWorld::restart: note the pairs and walls failing at this instant (their
  // certificates would be destroyed now), change the motions, decide the new
  // certificates' allowances, then schedule.
  // One scan of the neighbours serves all three: note_failing_now lists the neighbours
  // near contact, and only those can need an allowance (the others are far apart), and it
  // lists every neighbour for the new schedule. (ids: the one or two spheres of a contact.)
  if (ids.size() > scanned_.size()) throw std::logic_error("HardSphereWorld::restart: more than two spheres");
  near_.clear();
  for (std::size_t i = 0; i < ids.size(); ++i) note_failing_now(ids[i], t, scanned_[i]);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    set_motion(ids[i], Kinematics{states[i].position, states[i].velocity, t});
    ++kin_[ids[i]].count;
    kin_[ids[i]].allowance_partner = no_allowance;  // its allowances were for its old motion
    max_speed_ = std::max(max_speed_, norm(states[i].velocity));
  }
  // Only the walls its cell touches can be near it (wall_in_reach); the others need no allowance.
  for (SphereId id : ids)
    for (int w = 0; w < wall_count; ++w)
      if (wall_in_reach(id, static_cast<Wall>(w))) decide_wall_allowance(id, static_cast<Wall>(w));
  // A pair of two spheres that both change motion is listed by each of them (the near
  // test is symmetric): decided once, from the first (the colliding pair, every time).
  auto listed_before = [&](SphereId id, SphereId j) {
    for (SphereId other : ids) {
      if (other == id) return false;
      if (other == j) return true;
    }
    return false;
  };
  for (const auto& [id, j] : near_)
    if (!listed_before(id, j)) decide_pair_allowance(id, j, t);
  // (The pairs already failing at this instant are near too; decided again if listed twice: idempotent.)
  for (SphereId id : ids)
    for (const std::uint64_t key : touching_now_) {
      const SphereId a = static_cast<SphereId>(key >> 32), b = static_cast<SphereId>(key & 0xFFFFFFFFu);
      if (b >= 0xFFFFFFF0u || (a != id && b != id)) continue;  // a wall, or not this sphere's
      if (std::find(near_.begin(), near_.end(), std::pair<SphereId, SphereId>{id, a == id ? b : a}) == near_.end())
        decide_pair_allowance(a, b, t);
    }
  // The cells have not changed since note_failing_now listed each sphere's neighbours.
  for (std::size_t i = 0; i < ids.size(); ++i) schedule(ids[i], false, &scanned_[i]);
  if (allowances_.size() > 4 * size() + 64) {
    for (auto it = allowances_.begin(); it != allowances_.end();) {
      const SphereId a = static_cast<SphereId>(it->first >> 32);
      const bool wall = (it->first & 0xFFFFFFFFu) >= 0xFFFFFFF0u;
      const SphereId b = wall ? a : static_cast<SphereId>(it->first & 0xFFFFFFFFu);
      if (it->second.count_a != kin_[a].count || it->second.count_b != kin_[b].count) it = allowances_.erase(it);
      else ++it;
    }
  }
}

void HardSphereWorld::note_failing_now(SphereId id, double t, SphereList& neighbours) {
  auto noted = [&](std::uint64_t key) {
    return std::find(touching_now_.begin(), touching_now_.end(), key) != touching_now_.end();
  };
  // Neighbours nearer than this (relative, in d^2 - R^2) are listed in near_ for the
  // allowances that restart decides after the motion change: a generous margin over the
  // allowances' own test (1e-9), since the response may move the spheres apart by up to
  // the contact tolerance.
  const double near = 1e-3 + 8 * settings_.contact_tolerance;
  const Vec<3> x = kin_[id].position(t);
  list_neighbours(id, neighbours);
  for (const SphereId j : neighbours.ids()) {
    const Vec<3> d = sub(x, kin_[j].position(t));
    const double R = radius(id) + radius(j), d2 = dot(d, d);
    if (d2 - R * R > near * (d2 + R * R)) continue;
    near_.emplace_back(id, j);
    if (d2 - R * R > 1e-6 * (d2 + R * R)) continue;  // far from touching: not failing at t
    const std::uint64_t key = tie_key::pair(id, j);
    if (noted(key)) continue;
    const hard_spheres::Window w = pair_window(id, j, t);
    if (w.fails() && w.lo <= t && pair_instant(id, j, w) <= t) touching_now_.push_back(key);
  }
  for (int w = 0; w < wall_count; ++w) {
    const Wall wall = static_cast<Wall>(w);
    const int k = wall_axis(wall), side = wall_is_low(wall) ? 1 : -1;
    const double plane = wall_plane(box_, wall);
    if (side * (x[k] - plane) - radius(id) > 1e-6 * (std::fabs(x[k]) + std::fabs(plane) + radius(id))) continue;
    const std::uint64_t key = tie_key::wall(id, wall);
    if (noted(key)) continue;
    const hard_spheres::Window win = wall_window(id, w);
    if (win.fails() && win.lo <= t && wall_instant(id, w, win) <= t) touching_now_.push_back(key);
  }
}

void HardSphereWorld::decide_pair_allowance(SphereId a, SphereId b, double t0) {
  // CollisionWorld::create_pair, step for step.
  if (a > b) std::swap(a, b);
  const std::uint64_t key = tie_key::pair(a, b);
  const bool instant = t0 == instant_ && std::find(touching_now_.begin(), touching_now_.end(), key) != touching_now_.end();
  const SphereState sa{kin_[a].position(t0), kin_[a].v}, sb{kin_[b].position(t0), kin_[b].v};
  const Vec<3> d = sub(sa.position, sb.position);
  const double R = radius(a) + radius(b), d2 = dot(d, d);
  if (!instant && d2 - R * R > 1e-9 * (d2 + R * R)) return;
  // The pair's function is built only where exact arithmetic decides: the interval value
  // and slope allowance_at reads come from pair_value_and_slope, bit for bit.
  std::optional<hard_spheres::PairFunction> f;
  auto function = [&]() -> const Function& {
    if (!f) f.emplace(kin_[a], radius(a), kin_[b], radius(b), 0.0);
    return f->certificate;
  };
  auto store = [&](double value) { store_allowance(key, a, b, value); };
  if (approach_beyond_rounding(sa, sb)) {
    const Rational f0 = function().exact_value_at(t0);
    if (instant || sgn(f0) <= 0) store(-ceil_to_double(f0));
    return;
  }
  const hard_spheres::ValueAndSlope at_t0 = hard_spheres::pair_value_and_slope(kin_[a], radius(a), kin_[b], radius(b), t0);
  const double value = allowance_at(at_t0.value, at_t0.slope, t0, 2 * response_rounding(sa, sb, d), function);
  const double depth = value / (2 * R);
  const double rounding = 2 * std::max(max_speed_, norm(sa.velocity) + norm(sb.velocity)) *
                          (std::nextafter(t0, HUGE_VAL) - t0);
  if (depth > settings_.contact_tolerance + rounding)
    throw std::logic_error(std::string(structure_name) + ": spheres " + std::to_string(std::min(ext_[a], ext_[b])) + " and " +
                           std::to_string(std::max(ext_[a], ext_[b])) +
                           " overlap by " + shortest(depth) + " at t = " + shortest(t0) +
                           ", beyond the contact tolerance");
  if (value != 0) store(value);
}

void HardSphereWorld::decide_wall_allowance(SphereId id, Wall w) {
  // CollisionWorld::create_wall, step for step.
  const int k = wall_axis(w);
  const double plane = wall_plane(box_, w);
  const int side = wall_is_low(w) ? +1 : -1;
  const std::uint64_t key = tie_key::wall(id, w);
  const double t0 = kin_[id].start;
  const bool instant = t0 == instant_ && std::find(touching_now_.begin(), touching_now_.end(), key) != touching_now_.end();
  const double x = kin_[id].position(k, t0);
  const double clearance = side * (x - plane) - radius(id);
  if (!instant && clearance > 1e-9 * (std::fabs(x) + std::fabs(plane) + radius(id))) return;
  const hard_spheres::WallFunction f(kin_[id], radius(id), k, plane, side, 0.0);
  auto store = [&](double value) { store_allowance(key, id, id, value); };
  if (side * kin_[id].v[k] < 0) {
    const Rational f0 = f.certificate.exact_value_at(t0);
    if (instant || sgn(f0) <= 0) store(-ceil_to_double(f0));
    return;
  }
  const double value = allowance_at(f.certificate, t0);
  const double rounding = 2 * std::max(max_speed_, norm(kin_[id].v)) * (std::nextafter(t0, HUGE_VAL) - t0);
  if (value > settings_.contact_tolerance + rounding)
    throw std::logic_error(std::string(structure_name) + ": sphere " + std::to_string(ext_[id]) + " is " + shortest(value) +
                           " beyond a wall at t = " + shortest(t0) + ", more than the contact tolerance");
  if (value != 0) store(value);
}

// ---------------------------------------------------------------- output

SphereState HardSphereWorld::state(SphereId id, double t) const {
  const SphereId i = int_.at(id);
  SphereState s{kin_[i].position(t), kin_[i].v};
  for (int k = 0; k < 3; ++k) s.position[k] += origin_[k];
  return s;
}

double HardSphereWorld::kinetic_energy(double t) const {
  double e = 0;
  for (SphereId id = 0; id < size(); ++id) {  // summed in the user's order, as the reference sums
    const Vec<3> v = state(id, t).velocity;
    e += 0.5 * mass(int_[id]) * dot(v, v);
  }
  return e;
}

}  // namespace kds
