// The grid's cell table (structures/tvb_grid/cell_table.hpp) against a std::unordered_map
// twin: random cells made, filled, emptied and erased (seed printed, KDS_TEST_SEED to
// replay), with keys chosen to collide in the table (runs of probes that wrap around its
// end, erasures in the middle of a run), and growth past a few doublings.
#include "structures/tvb_grid/cell_table.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "test_seed.hpp"

namespace {

using Table = kds::CellTable<std::uint32_t>;

void check(const Table& table, const std::unordered_map<std::uint64_t, std::vector<std::uint32_t>>& twin,
           const std::vector<std::uint64_t>& keys) {
  ASSERT_EQ(table.size(), twin.size());
  for (const std::uint64_t k : keys) {
    const Table::Cell* cell = table.find(k);
    const auto it = twin.find(k);
    if (it == twin.end()) {
      ASSERT_EQ(cell, nullptr) << "key " << k << " was erased";
    } else {
      ASSERT_NE(cell, nullptr) << "key " << k << " is lost";
      ASSERT_EQ(cell->entries, it->second) << "key " << k;
      ASSERT_EQ(cell->leading, it->second.size() % 5) << "key " << k << ": the owner's count moved with its cell";
    }
  }
}

/// Keys 0, 1, 2 ...; keys that all hash to the last few slots of the table at its first
/// size (1024 slots: runs of probes that wrap around its end, and erasures inside them);
/// or keys spread over 62 bits.
std::vector<std::uint64_t> key_set(std::mt19937_64& rng, int kind, std::size_t count) {
  // The table's hash is the top bits of key * C: the keys (h 2^54 + small) / C (mod 2^64)
  // have home h while the table has 1024 slots.
  constexpr std::uint64_t C = 0x9E3779B97F4A7C15ull;
  std::uint64_t inverse = C;  // Newton's iteration for the inverse of an odd number mod 2^64
  for (int i = 0; i < 6; ++i) inverse *= 2 - C * inverse;
  std::vector<std::uint64_t> keys;
  while (keys.size() < count) {
    std::uint64_t k = 0;
    switch (kind) {
      case 0: k = keys.size(); break;
      case 1: k = (((1020 + rng() % 4) << 54) + rng() % 4096) * inverse; break;
      default: k = rng();
    }
    if (k != Table::free_key) keys.push_back(k);
  }
  return keys;
}

TEST(CellTable, MatchesAnUnorderedMap) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  for (int kind = 0; kind < 3; ++kind)
    for (const std::size_t count : {10u, 700u, 5000u}) {
      SCOPED_TRACE("keys of kind " + std::to_string(kind) + ", " + std::to_string(count) + " of them");
      const std::vector<std::uint64_t> keys = key_set(rng, kind, count);
      Table table;
      std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> twin;
      for (int step = 0; step < 40000; ++step) {
        const std::uint64_t k = keys[rng() % keys.size()];
        const auto it = twin.find(k);
        if (it == twin.end() || rng() % 3 != 0) {
          // A sphere joins the cell (made if it had none).
          const auto id = static_cast<std::uint32_t>(rng() % 1000);
          Table::Cell& cell = table[k];
          cell.entries.push_back(id);
          twin[k].push_back(id);
          cell.leading = static_cast<std::uint32_t>(twin[k].size() % 5);  // any count the owner keeps
        } else {
          // A sphere leaves it; the cell goes when it is empty, as the grid does.
          Table::Cell* found = table.find(k);
          ASSERT_NE(found, nullptr) << "key " << k << " is lost";
          std::vector<std::uint32_t>& mine = found->entries;
          std::vector<std::uint32_t>& theirs = it->second;
          const std::size_t at = rng() % theirs.size();
          mine[at] = mine.back();
          mine.pop_back();
          theirs[at] = theirs.back();
          theirs.pop_back();
          found->leading = static_cast<std::uint32_t>(theirs.size() % 5);
          if (theirs.empty()) {
            ASSERT_TRUE(mine.empty());
            table.erase(k);
            twin.erase(it);
          }
        }
        if (step % 997 == 0) {
          check(table, twin, keys);
          if (HasFatalFailure()) return;
        }
      }
      check(table, twin, keys);
      if (HasFatalFailure()) return;
      // Emptied completely, then filled again: every cell found, none left over.
      for (const std::uint64_t k : keys)
        if (Table::Cell* cell = table.find(k)) {
          cell->entries.clear();
          table.erase(k);
        }
      twin.clear();
      check(table, twin, keys);
      for (const std::uint64_t k : keys) {  // (a key may come twice in the set)
        const bool fresh = twin.find(k) == twin.end();
        Table::Cell& cell = table[k];
        if (fresh) EXPECT_EQ(cell.leading, 0u) << "a new cell counts nothing";
        cell.entries.push_back(7);
        twin[k].push_back(7);
        cell.leading = static_cast<std::uint32_t>(twin[k].size() % 5);
      }
      check(table, twin, keys);
      if (HasFatalFailure()) return;
    }
}

TEST(CellTable, ANewCellIsEmptyEvenFromThePool) {
  Table table;
  table[5].entries.assign({1, 2, 3});
  table[5].leading = 2;
  table.find(5)->entries.clear();
  table.erase(5);  // its list goes to the pool
  EXPECT_EQ(table.find(5), nullptr);
  EXPECT_TRUE(table[9].entries.empty()) << "a list from the pool comes back cleared";
  EXPECT_EQ(table[9].leading, 0u);
  EXPECT_EQ(table.size(), 1u);
  EXPECT_THROW(table.erase(5), std::logic_error) << "a cell it does not hold";
}

}  // namespace
