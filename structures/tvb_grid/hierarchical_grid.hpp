#pragma once
/// \file
/// Hierarchical uniform grids (Kim, Guibas, Shin, section 3.1): level l has cubic cells of
/// side L_l = L_0 * 2^l. A sphere lives at the level whose cells are at least `ratio`
/// times its diameter, so that its bound meets at most 2 cells per axis (8 in all).
/// Only non-empty cells exist: a hash table keyed by (level, i, j, k) (cell_table.hpp).
///
/// Pairs across levels (section 3.1: "all subspaces intersecting C, regardless of their
/// grids"): a sphere is registered in the cells of its own level *and* in the (at most 8)
/// cells of every coarser level that its region meets. Then a sphere finds every sphere
/// whose region may meet its own by looking at its own level's cells (same and finer
/// spheres) and at its cells of the coarser levels (natives of those levels only).

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kds/motion.hpp"
#include "structures/tvb_grid/cell_table.hpp"

namespace kds {

/// A box of cells at one level: indices lo[k]..hi[k] on each axis.
struct CellRange {
  std::array<std::int32_t, 3> lo{};
  std::array<std::int32_t, 3> hi{};
  friend bool operator==(const CellRange&, const CellRange&) = default;
};

class HierarchicalGrid {
 public:
  /// The most levels a grid can have (the cell keys hold 5 bits of level).
  static constexpr int max_levels = 32;
  /// Cell indices lie in [-max_index, max_index) on each axis (19 bits per index).
  static constexpr std::int32_t max_index = std::int32_t(1) << 18;

  /// Cells of level l are [origin + i L_l, origin + (i + 1) L_l) on each axis; 1 to
  /// max_levels levels. CellSides (structures/collision/cell_sides.hpp) chooses sides
  /// that keep a box's cells within max_index of the origin.
  HierarchicalGrid(double finest_side, int levels, const Vec<3>& origin = {0, 0, 0});

  int levels() const { return levels_; }
  double side(int level) const { return sides_[level]; }
  /// The plane between cells i - 1 and i of `level` on `axis`.
  double plane(int level, int axis, std::int32_t i) const { return origin_[axis] + double(i) * sides_[level]; }
  /// The finest level whose cells are at least `ratio` diameters: L_l >= ratio * 2 r.
  int level_for(double radius, double ratio) const;

  /// Cells of `level` met by the box [lo, hi] (a cell is [i L, (i + 1) L) on each axis).
  CellRange cells_of(int level, const Vec<3>& lo, const Vec<3>& hi) const;
  /// The same region seen at a coarser level.
  CellRange coarsen(const CellRange& r, int from_level, int to_level) const;
  /// Whether the regions of two spheres (each at its own level) overlap.
  bool regions_overlap(int level_a, const CellRange& a, int level_b, const CellRange& b) const;

  /// Registers a sphere of `level` in its region `r`, and at every coarser level in the
  /// region coarsened there. InvalidInput for a level out of range, or a range that is empty
  /// or reaches beyond max_index cells (nothing changed).
  void insert(std::uint32_t id, int level, const CellRange& r);
  /// Undoes insert(id, level, r); std::logic_error if it was not registered so.
  void erase(std::uint32_t id, int level, const CellRange& r);
  /// erase(id, level, from) then insert(id, level, to), touching only the cells that change:
  /// at most levels its coarsened region stays the same, and where it changes by a row of
  /// cells (an entering or leaving event) only that row is erased or added.
  void move(std::uint32_t id, int level, const CellRange& from, const CellRange& to);

  /// Calls f(id) for every sphere that may share space with a sphere of `level` whose
  /// region is `r` (each id possibly several times; the caller deduplicates).
  template <class F>
  void for_each_candidate(int level, const CellRange& r, F&& f) const {
    for (int l = level; l < levels_; ++l) {
      const CellRange c = coarsen(r, level, l);
      for (std::int32_t i = c.lo[0]; i <= c.hi[0]; ++i)
        for (std::int32_t j = c.lo[1]; j <= c.hi[1]; ++j)
          for (std::int32_t k = c.lo[2]; k <= c.hi[2]; ++k) {
            const Cell* cell = cells_.find(key(l, i, j, k));
            if (cell == nullptr) continue;
            // The natives first: at a coarser level only they are candidates.
            const std::size_t end = l == level ? cell->entries.size() : cell->leading;
            for (std::size_t e = 0; e < end; ++e) f(cell->entries[e]);
          }
    }
  }

  std::size_t cell_count() const { return cells_.size(); }

 private:
  // A cell's spheres: first those registered at their own level (natives; `leading` of
  // them), then the finer ones registered upward, so that a search from a finer level
  // reads only the natives.
  using Cell = CellTable<std::uint32_t>::Cell;
  static std::uint64_t key(int level, std::int32_t i, std::int32_t j, std::int32_t k) {
    // 5 bits of level and 19 bits per index (offset to be non-negative): [-2^18, 2^18) cells
    // per axis. 62 bits: never CellTable's free key (all ones).
    constexpr std::int64_t offset = std::int64_t(1) << (kIndexBits - 1);
    return (std::uint64_t(level) << (3 * kIndexBits)) | (std::uint64_t(i + offset) << (2 * kIndexBits)) |
           (std::uint64_t(j + offset) << kIndexBits) | std::uint64_t(k + offset);
  }
  /// Registers (add) or unregisters the sphere in every cell of `r` at `level`, except the
  /// cells of `skip` when given.
  void each_cell(int level, const CellRange& r, bool native, std::uint32_t id, bool add, const CellRange* skip = nullptr);
  void check(int level, const CellRange& r) const;
  static constexpr int kIndexBits = 19;
  static_assert(max_levels <= 32 && 3 * kIndexBits + 5 <= 64, "a cell key fits 64 bits");

  int levels_;
  Vec<3> origin_;
  std::vector<double> sides_;
  CellTable<std::uint32_t> cells_;
};

}  // namespace kds
