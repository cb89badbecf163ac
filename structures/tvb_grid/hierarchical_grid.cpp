#include "structures/tvb_grid/hierarchical_grid.hpp"

#include <algorithm>
#include <stdexcept>

#include "kds/errors.hpp"

namespace kds {

HierarchicalGrid::HierarchicalGrid(double finest_side, int levels, const Vec<3>& origin) : levels_(levels), origin_(origin) {
  if (!(finest_side > 0) || !std::isfinite(finest_side))
    throw InvalidInput("HierarchicalGrid: finest cell side must be positive and finite");
  if (levels < 1 || levels > max_levels)
    throw InvalidInput("HierarchicalGrid: between 1 and " + std::to_string(max_levels) + " levels, got " +
                       std::to_string(levels));
  for (int l = 0; l < levels; ++l) sides_.push_back(std::ldexp(finest_side, l));
}

int HierarchicalGrid::level_for(double radius, double ratio) const {
  for (int l = 0; l < levels_; ++l)
    if (sides_[l] >= ratio * 2 * radius) return l;
  throw InvalidInput("HierarchicalGrid: a sphere of radius " + std::to_string(radius) + " is too large for the grid");
}

CellRange HierarchicalGrid::cells_of(int level, const Vec<3>& lo, const Vec<3>& hi) const {
  CellRange r;
  const double s = sides_[level];
  for (int k = 0; k < 3; ++k) {
    double a = std::floor((lo[k] - origin_[k]) / s), b = std::floor((hi[k] - origin_[k]) / s);
    if (!(std::fabs(a) < max_index && std::fabs(b) < max_index))
      throw InvalidInput("HierarchicalGrid: a bound reaches beyond 2^18 cells from the origin");
    // The quotient is rounded: correct it by one cell if needed, so that membership agrees
    // exactly with plane() (x is in cell i iff plane(i) <= x < plane(i + 1)).
    auto exact_cell = [&](double x, double guess) {
      auto i = static_cast<std::int32_t>(guess);
      if (plane(level, k, i) > x) --i;
      else if (plane(level, k, i + 1) <= x) ++i;
      if (i < -max_index || i >= max_index)
        throw InvalidInput("HierarchicalGrid: a bound reaches beyond 2^18 cells from the origin");
      return i;
    };
    r.lo[k] = exact_cell(lo[k], a);
    r.hi[k] = exact_cell(hi[k], b);
  }
  return r;
}

CellRange HierarchicalGrid::coarsen(const CellRange& r, int from_level, int to_level) const {
  if (to_level == from_level) return r;
  const int shift = to_level - from_level;
  CellRange c;
  for (int k = 0; k < 3; ++k) {
    // floor division by 2^shift (arithmetic shift floors negative indices too)
    c.lo[k] = r.lo[k] >> shift;
    c.hi[k] = r.hi[k] >> shift;
  }
  return c;
}

bool HierarchicalGrid::regions_overlap(int level_a, const CellRange& a, int level_b, const CellRange& b) const {
  // Compare in units of the finer of the two levels, exactly.
  const int fine = std::min(level_a, level_b);
  for (int k = 0; k < 3; ++k) {
    const std::int64_t alo = std::int64_t(a.lo[k]) << (level_a - fine);
    const std::int64_t ahi = ((std::int64_t(a.hi[k]) + 1) << (level_a - fine)) - 1;
    const std::int64_t blo = std::int64_t(b.lo[k]) << (level_b - fine);
    const std::int64_t bhi = ((std::int64_t(b.hi[k]) + 1) << (level_b - fine)) - 1;
    if (ahi < blo || bhi < alo) return false;
  }
  return true;
}

void HierarchicalGrid::each_cell(int level, const CellRange& r, bool native, std::uint32_t id, bool add,
                                 const CellRange* skip) {
  auto in = [](const CellRange& c, std::int32_t i, std::int32_t j, std::int32_t k) {
    return c.lo[0] <= i && i <= c.hi[0] && c.lo[1] <= j && j <= c.hi[1] && c.lo[2] <= k && k <= c.hi[2];
  };
  for (std::int32_t i = r.lo[0]; i <= r.hi[0]; ++i)
    for (std::int32_t j = r.lo[1]; j <= r.hi[1]; ++j)
      for (std::int32_t k = r.lo[2]; k <= r.hi[2]; ++k) {
        if (skip != nullptr && in(*skip, i, j, k)) continue;
        const std::uint64_t h = key(level, i, j, k);
        if (add) {
          Cell& cell = cells_[h];
          std::vector<std::uint32_t>& v = cell.entries;
          v.push_back(id);
          if (native) std::swap(v[cell.leading++], v.back());  // after the natives, before the others
          continue;
        }
        Cell* cell = cells_.find(h);
        if (cell == nullptr) throw std::logic_error("HierarchicalGrid: erase from an empty cell");
        std::vector<std::uint32_t>& v = cell->entries;
        const auto first = v.begin() + (native ? 0 : cell->leading);
        const auto last = native ? v.begin() + cell->leading : v.end();
        const auto e = std::find(first, last, id);
        if (e == last) throw std::logic_error("HierarchicalGrid: erase of an unregistered sphere");
        if (native) {  // the last native fills the hole, the last entry the last native's place
          *e = v[--cell->leading];
          v[cell->leading] = v.back();
        } else {
          *e = v.back();
        }
        v.pop_back();
        if (v.empty()) cells_.erase(h);
      }
}

void HierarchicalGrid::check(int level, const CellRange& r) const {
  // A key holds 19 bits per index: an index outside [-max_index, max_index) would name
  // another cell (or the table's free key). cells_of never gives one; a caller's own range might.
  if (level < 0 || level >= levels_) throw InvalidInput("HierarchicalGrid: level " + std::to_string(level) + " out of range");
  for (int k = 0; k < 3; ++k)
    if (r.lo[k] < -max_index || r.hi[k] >= max_index || r.lo[k] > r.hi[k])
      throw InvalidInput("HierarchicalGrid: a cell range beyond 2^18 cells from the origin, or empty");
}

void HierarchicalGrid::insert(std::uint32_t id, int level, const CellRange& r) {
  check(level, r);
  for (int l = level; l < levels_; ++l) each_cell(l, coarsen(r, level, l), l == level, id, true);
}

void HierarchicalGrid::erase(std::uint32_t id, int level, const CellRange& r) {
  check(level, r);
  for (int l = level; l < levels_; ++l) each_cell(l, coarsen(r, level, l), l == level, id, false);
}

void HierarchicalGrid::move(std::uint32_t id, int level, const CellRange& from, const CellRange& to) {
  check(level, from);
  check(level, to);
  for (int l = level; l < levels_; ++l) {
    const CellRange a = coarsen(from, level, l), b = coarsen(to, level, l);
    if (a == b) continue;
    each_cell(l, a, l == level, id, false, &b);  // the cells it leaves
    each_cell(l, b, l == level, id, true, &a);   // the cells it enters
  }
}

}  // namespace kds
