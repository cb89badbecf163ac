#pragma once
/// \file
/// The non-empty cells of a hierarchical grid: a hash table from a cell's 64-bit key to the
/// spheres registered in it, with open addressing (linear probing in a power-of-two table,
/// a multiplicative hash, deletion by shifting the following entries back) and a pool of
/// emptied lists.
///
/// It replaced a std::unordered_map, whose cells were nodes allocated when a cell gained
/// its first sphere and freed when it lost its last, each with its list's buffer besides,
/// and whose every lookup divided by a prime and followed a pointer to the node: the grid
/// took about a fifth of the ballistic Kim-Guibas-Shin scene through the collision world.
/// Here a lookup is a multiplication and a probe of adjacent slots, and a cell's list keeps
/// its buffer when the cell empties (it goes to the pool and serves the next new cell), so
/// that once running the grid allocates only when a cell's list outgrows the buffer it got
/// (at least four entries), when more cells hold entries at once than ever before, or when
/// the table doubles.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace kds {

template <class Entry>
class CellTable {
 public:
  /// No key may be all ones (the mark of a free slot).
  static constexpr std::uint64_t free_key = ~std::uint64_t{0};
  /// A cell's entries, and how many of them the owner keeps first (the grid: the spheres
  /// native to the cell's level, before those of finer levels registered upward).
  struct Cell {
    std::vector<Entry> entries;
    std::uint32_t leading = 0;
  };

  CellTable() { slots_.resize(min_slots); }

  std::size_t size() const { return count_; }

  /// The cell, or nullptr when it has no entries.
  const Cell* find(std::uint64_t key) const {
    for (std::size_t i = home(key);; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.key == key) return &s.cell;
      if (s.key == free_key) return nullptr;
    }
  }
  Cell* find(std::uint64_t key) { return const_cast<Cell*>(static_cast<const CellTable&>(*this).find(key)); }

  /// The cell, made (empty) if it had no entries.
  Cell& operator[](std::uint64_t key) {
    std::size_t i = home(key);
    for (;; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (s.key == key) return s.cell;
      if (s.key == free_key) break;
    }
    if (2 * (count_ + 1) > slots_.size()) {  // at most half full: short probes
      grow();
      return (*this)[key];
    }
    Slot& s = slots_[i];
    s.key = key;
    s.cell.leading = 0;
    if (!pool_.empty()) {
      s.cell.entries = std::move(pool_.back());
      pool_.pop_back();
    } else {
      // Room for a few entries from the start (and so in every pooled list): a cell's list
      // that grew one entry at a time reallocated at 1, 2 and 4, and a pooled buffer of one
      // entry handed to a cell that needs two did so again.
      s.cell.entries.reserve(initial_capacity);
    }
    ++count_;
    return s.cell;
  }

  /// Removes a cell whose list is empty; its list's buffer goes to the pool (which so holds
  /// at most as many lists as there were cells at the most). std::logic_error if the table
  /// has no such cell.
  void erase(std::uint64_t key) {
    std::size_t i = home(key);
    while (slots_[i].key != key) {
      if (slots_[i].key == free_key) throw std::logic_error("CellTable: erase of a cell it does not hold");
      i = (i + 1) & mask();
    }
    pool_.push_back(std::move(slots_[i].cell.entries));
    pool_.back().clear();
    // Backward shift: every later entry of the run that may move into the hole (its home
    // is not in the cyclic range (hole, its place]) moves back, so that no probe for it
    // stops at a free slot before reaching it.
    std::size_t hole = i;
    for (std::size_t j = (i + 1) & mask(); slots_[j].key != free_key; j = (j + 1) & mask()) {
      const std::size_t h = home(slots_[j].key);
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays) continue;
      slots_[hole].key = slots_[j].key;
      slots_[hole].cell = std::move(slots_[j].cell);
      hole = j;
    }
    slots_[hole].key = free_key;
    slots_[hole].cell = Cell{};
    --count_;
  }

 private:
  static constexpr std::size_t min_slots = 1024;
  static constexpr std::size_t initial_capacity = 4;
  struct Slot {
    std::uint64_t key = free_key;
    Cell cell;
  };

  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t home(std::uint64_t key) const {
    // Fibonacci hashing: the high bits of key * 2^64 / golden ratio.
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.clear();
    slots_.resize(2 * old.size());
    --shift_;
    for (Slot& s : old) {
      if (s.key == free_key) continue;
      std::size_t i = home(s.key);
      while (slots_[i].key != free_key) i = (i + 1) & mask();
      slots_[i].key = s.key;
      slots_[i].cell = std::move(s.cell);
    }
  }

  std::vector<Slot> slots_;
  unsigned shift_ = 64 - 10;  // 64 - log2(slots_.size())
  std::size_t count_ = 0;
  std::vector<std::vector<Entry>> pool_;  // emptied lists, buffers kept
};

}  // namespace kds
