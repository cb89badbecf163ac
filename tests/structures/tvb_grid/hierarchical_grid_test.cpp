// HierarchicalGrid on its own: level choice, cell ranges, coarsening (negative indices
// included), overlap of regions across levels, and candidate search against brute force.
#include "structures/tvb_grid/hierarchical_grid.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "kds/errors.hpp"
#include "structures/collision/cell_sides.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

TEST(HierarchicalGrid, SidesDoubleFromLevelToLevel) {
  HierarchicalGrid g(1.5, 4, {-10, 0, 3});
  EXPECT_EQ(g.levels(), 4);
  EXPECT_EQ(g.side(0), 1.5);
  EXPECT_EQ(g.side(1), 3.0);
  EXPECT_EQ(g.side(3), 12.0);
  EXPECT_EQ(g.plane(0, 0, 0), -10.0);
  EXPECT_EQ(g.plane(2, 2, -3), 3.0 - 18.0);
  EXPECT_THROW(HierarchicalGrid(0, 3), InvalidInput);
  EXPECT_THROW(HierarchicalGrid(-1, 3), InvalidInput);
  EXPECT_THROW(HierarchicalGrid(std::numeric_limits<double>::quiet_NaN(), 3), InvalidInput);
  EXPECT_THROW(HierarchicalGrid(1, 0), InvalidInput);
  EXPECT_NO_THROW(HierarchicalGrid(1, 16));  // more than the 15 levels of old
  EXPECT_NO_THROW(HierarchicalGrid(1, HierarchicalGrid::max_levels));
  EXPECT_THROW(HierarchicalGrid(1, HierarchicalGrid::max_levels + 1), InvalidInput);
}

TEST(HierarchicalGrid, LevelForIsTheFinestLevelWideEnough) {
  HierarchicalGrid g(4, 4);  // sides 4, 8, 16, 32
  // ratio 2: side >= 4 r.
  EXPECT_EQ(g.level_for(0.5, 2), 0);
  EXPECT_EQ(g.level_for(1.0, 2), 0);  // exactly 4 r = 4: fits
  EXPECT_EQ(g.level_for(std::nextafter(1.0, 2.0), 2), 1);
  EXPECT_EQ(g.level_for(2.0, 2), 1);
  EXPECT_EQ(g.level_for(3.9, 2), 2);  // 16 >= 15.6
  EXPECT_EQ(g.level_for(8.0, 2), 3);
  EXPECT_EQ(g.level_for(0.5, 4), 0);   // side 4 >= 4 * 2 * 0.5
  EXPECT_EQ(g.level_for(0.75, 4), 1);  // 6 > 4
  EXPECT_THROW(g.level_for(8.5, 2), InvalidInput);
  const std::string what = [&] {
    try {
      g.level_for(100, 2);
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  EXPECT_NE(what.find("radius 100"), std::string::npos) << what;
}

TEST(HierarchicalGrid, CellsOfFollowsHalfOpenCells) {
  HierarchicalGrid g(2, 3, {-1, -1, -1});  // level 0 planes at -1 + 2 i
  CellRange r = g.cells_of(0, {0, 0, 0}, {0.5, 0.5, 0.5});
  EXPECT_EQ(r, (CellRange{{0, 0, 0}, {0, 0, 0}}));
  // On a plane: the point belongs to the cell above it ([i L, (i + 1) L)).
  r = g.cells_of(0, {1, -1, -3}, {1, 1, 3});
  EXPECT_EQ(r, (CellRange{{1, 0, -1}, {1, 1, 2}}));
  // Negative indices, and a coarser level.
  r = g.cells_of(0, {-7.5, -1.0000001, -100}, {-3, 0, -99});
  EXPECT_EQ(r, (CellRange{{-4, -1, -50}, {-1, 0, -49}}));
  r = g.cells_of(2, {-7.5, -9.5, 6.9}, {-3, 7, 7});
  EXPECT_EQ(r, (CellRange{{-1, -2, 0}, {-1, 1, 1}}));
  // Far away: refused rather than wrapped around.
  EXPECT_THROW(g.cells_of(0, {0, 0, 0}, {4e6, 0, 0}), InvalidInput);
  EXPECT_THROW(g.cells_of(0, {-4e6, 0, 0}, {0, 0, 0}), InvalidInput);
}

// cells_of and plane() agree exactly: x in cell i iff plane(i) <= x < plane(i + 1),
// with the planes as plane() computes them, whatever the origin and side.
TEST(HierarchicalGrid, CellsOfAgreesWithPlanesExactly) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  int disagreements = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const double side = 0.01 + 10 * u(rng);
    const Vec<3> origin{-1000 * u(rng), 1000 * u(rng) - 500, 0.3 * u(rng)};
    HierarchicalGrid g(side, 3, origin);
    for (int level = 0; level < 3; ++level)
      for (int axis = 0; axis < 3; ++axis) {
        const std::int32_t i = static_cast<std::int32_t>(std::floor(2000 * u(rng))) - 1000;
        const double p = g.plane(level, axis, i);
        // The plane itself, and the doubles just around it.
        for (double x : {p, std::nextafter(p, -INFINITY), std::nextafter(p, INFINITY)}) {
          Vec<3> lo{origin[0], origin[1], origin[2]};
          lo[axis] = x;
          const std::int32_t c = g.cells_of(level, lo, lo).lo[axis];
          const bool ok = g.plane(level, axis, c) <= x && x < g.plane(level, axis, c + 1);
          if (!ok) {
            if (++disagreements <= 5)
              ADD_FAILURE() << "level " << level << " axis " << axis << " side " << side << " origin " << origin[axis]
                            << ": x = " << x << " (plane " << i << ") put in cell " << c;
          }
        }
      }
  }
  EXPECT_EQ(disagreements, 0);
}

TEST(HierarchicalGrid, CoarsenFloorsNegativeIndices) {
  HierarchicalGrid g(1, 5);
  const CellRange r{{-5, -1, 0}, {-4, 3, 7}};
  EXPECT_EQ(g.coarsen(r, 0, 0), r);
  EXPECT_EQ(g.coarsen(r, 0, 1), (CellRange{{-3, -1, 0}, {-2, 1, 3}}));
  EXPECT_EQ(g.coarsen(r, 0, 2), (CellRange{{-2, -1, 0}, {-1, 0, 1}}));
  EXPECT_EQ(g.coarsen(r, 1, 3), (CellRange{{-2, -1, 0}, {-1, 0, 1}}));
  EXPECT_EQ(g.coarsen(r, 0, 4), (CellRange{{-1, -1, 0}, {-1, 0, 0}}));
  // Against floor division, on random indices, and consistent with the planes:
  // the coarse cell contains the fine cell.
  std::mt19937_64 rng(test_seed());
  std::uniform_int_distribution<std::int32_t> idx(-100000, 100000);
  for (int trial = 0; trial < 1000; ++trial) {
    CellRange a;
    for (int k = 0; k < 3; ++k) {
      a.lo[k] = idx(rng);
      a.hi[k] = a.lo[k] + std::abs(idx(rng)) % 5;
    }
    const int from = static_cast<int>(rng() % 4), to = from + static_cast<int>(rng() % (5 - from));
    const CellRange c = g.coarsen(a, from, to);
    const double f = std::ldexp(1.0, to - from);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(c.lo[k], static_cast<std::int32_t>(std::floor(a.lo[k] / f)));
      EXPECT_EQ(c.hi[k], static_cast<std::int32_t>(std::floor(a.hi[k] / f)));
      EXPECT_LE(g.plane(to, k, c.lo[k]), g.plane(from, k, a.lo[k]));
      EXPECT_GE(g.plane(to, k, c.hi[k] + 1), g.plane(from, k, a.hi[k] + 1));
    }
  }
}

/// Brute force: do the regions overlap as sets of points? (Exact in doubles: the grid
/// has origin 0 and a power-of-two side, so every plane is exact.)
bool regions_overlap_by_planes(const HierarchicalGrid& g, int la, const CellRange& a, int lb, const CellRange& b) {
  for (int k = 0; k < 3; ++k) {
    const double alo = g.plane(la, k, a.lo[k]), ahi = g.plane(la, k, a.hi[k] + 1);
    const double blo = g.plane(lb, k, b.lo[k]), bhi = g.plane(lb, k, b.hi[k] + 1);
    if (!(alo < bhi && blo < ahi)) return false;  // half-open cells: touching is not overlapping
  }
  return true;
}

CellRange random_range(std::mt19937_64& rng, int span) {
  std::uniform_int_distribution<std::int32_t> idx(-span, span);
  CellRange r;
  for (int k = 0; k < 3; ++k) {
    r.lo[k] = idx(rng);
    r.hi[k] = r.lo[k] + static_cast<std::int32_t>(rng() % 2);  // a bound meets at most 2 cells per axis
  }
  return r;
}

TEST(HierarchicalGrid, RegionsOverlapAcrossLevelsAgainstBruteForce) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  HierarchicalGrid g(0.5, 5);
  int overlapping = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int la = static_cast<int>(rng() % 5), lb = static_cast<int>(rng() % 5);
    const CellRange a = random_range(rng, 8 >> la), b = random_range(rng, 8 >> lb);
    const bool expected = regions_overlap_by_planes(g, la, a, lb, b);
    overlapping += expected;
    ASSERT_EQ(g.regions_overlap(la, a, lb, b), expected) << "levels " << la << ", " << lb << " trial " << trial;
    ASSERT_EQ(g.regions_overlap(lb, b, la, a), expected) << "symmetry, trial " << trial;
  }
  // The test is worth something only if both answers occur often.
  EXPECT_GT(overlapping, 2000);
  EXPECT_LT(overlapping, 18000);
}

TEST(HierarchicalGrid, CandidatesIncludeEveryOverlappingRegion) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  HierarchicalGrid g(1, 4, {-3.25, 0.5, -100});
  struct Item {
    int level;
    CellRange cells;
    bool alive;
  };
  std::vector<Item> items;
  auto check_all = [&](const char* when) {
    for (std::uint32_t i = 0; i < items.size(); ++i) {
      if (!items[i].alive) continue;
      std::set<std::uint32_t> found;
      g.for_each_candidate(items[i].level, items[i].cells, [&](std::uint32_t j) {
        found.insert(j);
        ASSERT_LT(j, items.size());
        ASSERT_TRUE(items[j].alive) << "erased sphere " << j << " still a candidate (" << when << ")";
      });
      for (std::uint32_t j = 0; j < items.size(); ++j) {
        if (!items[j].alive || j == i) continue;
        if (g.regions_overlap(items[i].level, items[i].cells, items[j].level, items[j].cells)) {
          ASSERT_TRUE(found.count(j)) << "sphere " << j << " (level " << items[j].level << ") overlaps sphere " << i
                                      << " (level " << items[i].level << ") but is not a candidate (" << when << ")";
        }
      }
      EXPECT_TRUE(found.count(i)) << "a sphere finds itself";
    }
  };
  // Insert 300 spheres in a small region (many overlaps, negative indices included).
  for (std::uint32_t i = 0; i < 300; ++i) {
    const int level = static_cast<int>(rng() % 4);
    items.push_back({level, random_range(rng, 12 >> level), true});
    g.insert(i, level, items.back().cells);
  }
  check_all("after inserting");
  // Move and erase at random, like a world does: by erase and insert, or by move() to a
  // random region or to the region grown or shrunk by a row of cells (an entering or
  // leaving event), which touches only the cells that change.
  for (int round = 0; round < 1200; ++round) {
    const std::uint32_t i = static_cast<std::uint32_t>(rng() % items.size());
    Item& it = items[i];
    if (it.alive && rng() % 2 == 0) {
      CellRange to = random_range(rng, 12 >> it.level);
      if (rng() % 2 == 0) {
        to = it.cells;
        const int k = static_cast<int>(rng() % 3);
        std::int32_t& end = rng() % 2 == 0 ? to.lo[k] : to.hi[k];
        end += rng() % 2 == 0 ? 1 : -1;
        if (to.lo[k] > to.hi[k]) to = it.cells;
      }
      g.move(i, it.level, it.cells, to);
      it.cells = to;
      if (round % 100 == 0) check_all("after a move");
      continue;
    }
    if (it.alive) {
      g.erase(i, it.level, it.cells);
      if (rng() % 3 == 0) {
        it.alive = false;
        continue;
      }
    }
    it.alive = true;
    it.cells = random_range(rng, 12 >> it.level);
    g.insert(i, it.level, it.cells);
  }
  check_all("after moving and erasing");
  // Erase everything: no cell is left.
  for (std::uint32_t i = 0; i < items.size(); ++i)
    if (items[i].alive) g.erase(i, items[i].level, items[i].cells);
  EXPECT_EQ(g.cell_count(), 0u);
}

TEST(HierarchicalGrid, RangesBeyondTheKeysAreRefused) {
  // A key holds 19 bits per index: -2^18 - 1 would have named another cell, or the cell
  // table's free key (found by review). Nothing is changed by a refused call.
  HierarchicalGrid g(1, 3);
  const std::int32_t m = HierarchicalGrid::max_index;
  g.insert(1, 0, CellRange{{m - 1, 0, 0}, {m - 1, 0, 0}});
  EXPECT_THROW(g.insert(2, 0, CellRange{{-m - 1, 0, 0}, {-m, 0, 0}}), InvalidInput);
  EXPECT_THROW(g.insert(2, 0, CellRange{{0, 0, m - 1}, {0, 0, m}}), InvalidInput);
  EXPECT_THROW(g.insert(2, 0, CellRange{{1, 0, 0}, {0, 0, 0}}), InvalidInput) << "an empty range";
  EXPECT_THROW(g.insert(2, 3, CellRange{}), InvalidInput) << "no level 3";
  EXPECT_THROW(g.move(1, 0, CellRange{{m - 1, 0, 0}, {m - 1, 0, 0}}, CellRange{{m - 1, 0, 0}, {m, 0, 0}}), InvalidInput);
  EXPECT_EQ(g.cell_count(), 3u) << "sphere 1 at each of the three levels, nothing else";
  g.erase(1, 0, CellRange{{m - 1, 0, 0}, {m - 1, 0, 0}});
  EXPECT_EQ(g.cell_count(), 0u);
}

TEST(HierarchicalGrid, EraseOfAnUnregisteredSphereIsALogicError) {
  HierarchicalGrid g(1, 2);
  const CellRange r{{0, 0, 0}, {1, 0, 0}};
  g.insert(7, 0, r);
  EXPECT_THROW(g.erase(8, 0, r), std::logic_error);
  EXPECT_THROW(g.erase(7, 0, CellRange{{5, 5, 5}, {5, 5, 5}}), std::logic_error);
  g.erase(7, 0, r);
  EXPECT_EQ(g.cell_count(), 0u);
}

// The levels of cell sides for any radii (issue 12, item 3): radii 1 and 5e-5 in a box
// of 100 needed 16 levels, one more than the grid had, and were refused. Now the finest
// side has floors (2^-17 of the box, 2^-36 of its corners, 2^-31 of the largest side), every sphere has a
// level, and the grid accepts the count.
TEST(CellSides, EveryRadiusHasALevelWithinTheFloors) {
  const Box3 box{{0, 0, 0}, {100, 100, 100}};
  auto sphere = [](double r) {
    Sphere s;
    s.radius = r;
    return s;
  };
  const CellSides issue({sphere(1), sphere(5e-5)}, 2, box);
  EXPECT_EQ(issue.side(0), 100 * 0x1p-17);  // the box's floor, above 4 * 5e-5
  EXPECT_EQ(issue.levels(), 14);            // 100 * 2^-17 * 2^13 = 6.25 >= 4
  EXPECT_NO_THROW(HierarchicalGrid(issue.side(0), issue.levels()));
  EXPECT_EQ(issue.level_of(5e-5), 0);
  EXPECT_EQ(issue.level_of(1), 13);
  const CellSides fine({sphere(1), sphere(5e-3)}, 2, box);
  EXPECT_EQ(fine.side(0), 4 * 5e-3);  // the smallest sphere's own side, above the floor
  // Far smaller spheres share the finest level, whose side the box bounds from below.
  const CellSides tiny({sphere(1), sphere(1e-12), sphere(3e-9)}, 2, box);
  EXPECT_EQ(tiny.side(0), CellSides::min_side_per_box_side * 100);
  EXPECT_EQ(tiny.level_of(1e-12), 0);
  EXPECT_EQ(tiny.level_of(3e-9), 0);
  EXPECT_GE(tiny.side(tiny.level_of(1)), 4.0);
  // The number of levels is bounded whatever the ratio and the box.
  const Box3 huge{{0, 0, 0}, {1e40, 1e40, 1e40}};
  const CellSides wide({sphere(1e39), sphere(1e-30)}, 2, huge);
  EXPECT_LE(wide.levels(), CellSides::max_levels);
  EXPECT_GE(wide.side(wide.levels() - 1), 4e39);
  EXPECT_EQ(wide.level_of(1e-30), 0);
  EXPECT_NO_THROW(HierarchicalGrid(wide.side(0), wide.levels()));
  // A tiny box far out: cells stay far above the spacing of its coordinates (a bound was
  // registered in 10^15 cells of 7.6e-12 in this box, its margin being 1e-12 of 1e6).
  const Box3 far{{-1e6, -1e6, -1e6}, {-999999.999999, -999999.999999, -999999.999999}};
  const CellSides out({sphere(1e-12), sphere(2e-7)}, 2, far);
  EXPECT_EQ(out.side(0), CellSides::min_side_per_coordinate * 1e6);
  EXPECT_GE(out.side(0), 1e-12 * 1e6);
  // A finest cell never makes more than 2^17 cells across the box (within the cell keys).
  for (const CellSides& c : {issue, tiny, wide}) EXPECT_GE(c.side(0) * 0x1p17, 100.0);
}

}  // namespace
}  // namespace kds::testing
