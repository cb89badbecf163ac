#pragma once
/// \file
/// The entries of a keyed structure (a sorted list, a tournament, the sorted lists of box
/// overlap to come): dense entry ids reused after erase, each holding a key, and the
/// bodies its key names held for as long as the entry lives. Each structure keeps what it
/// needs per entry beside it (a rank, a leaf slot), indexed by the same ids.

#include <string>
#include <vector>

#include "kds/key.hpp"

namespace kds {

class KeyTable {
 public:
  /// `structure` and `noun` name the owner in error messages ("SortedList", "list").
  KeyTable(Bodies& bodies, const char* structure, const char* noun)
      : bodies_(&bodies), structure_(structure), noun_(noun) {}
  KeyTable(const KeyTable&) = delete;
  KeyTable& operator=(const KeyTable&) = delete;
  /// Releases the bodies of every entry still present; never throws.
  ~KeyTable() {
    for (std::size_t e = 0; e < keys_.size(); ++e)
      if (present_[e]) release(keys_[e]);
  }

  /// Throws InvalidInput "<structure>::<operation>: ..." unless the key's bodies are live
  /// here and its axes exist. Changes nothing.
  void check(const Key& key, const char* operation) const { key.require(*bodies_, where(operation)); }
  /// A new entry for a checked key (holds its bodies). Entry ids are dense and reused.
  EntryId add(const Key& key) {
    EntryId e;
    if (!free_.empty()) {
      e = free_.back();
      free_.pop_back();
    } else {
      e = static_cast<EntryId>(keys_.size());
      keys_.push_back(Key::coordinate(BodyId::none()));
      present_.push_back(false);
    }
    hold(key);
    keys_[e] = key;
    present_[e] = true;
    return e;
  }
  /// Forgets an entry (releases its bodies; its id may be reused).
  void remove(EntryId e) {
    release(keys_[e]);
    keys_[e] = Key::coordinate(BodyId::none());  // drops a user's key source now
    present_[e] = false;
    free_.push_back(e);
  }
  /// Gives an entry a new, checked key (holds the new bodies before releasing the old).
  void replace(EntryId e, const Key& key) {
    hold(key);
    release(keys_[e]);
    keys_[e] = key;
  }

  bool contains(EntryId e) const { return e < keys_.size() && present_[e]; }
  /// Throws InvalidInput "<structure>::<operation>: entry N is not in the <noun>".
  void require(EntryId e, const char* operation) const {
    if (!contains(e))
      throw InvalidInput(where(operation) + ": entry " + std::to_string(e) + " is not in the " + noun_);
  }
  /// The key of an entry (unchecked: hot path).
  const Key& operator[](EntryId e) const { return keys_[e]; }
  /// One more than the largest entry id in use.
  std::size_t id_bound() const { return keys_.size(); }
  const Bodies& bodies() const { return *bodies_; }

 private:
  std::string where(const char* operation) const { return std::string(structure_) + "::" + operation; }
  void hold(const Key& key) {
    for (BodyId b : key.bodies()) bodies_->hold(b);
  }
  void release(const Key& key) noexcept {
    for (BodyId b : key.bodies()) bodies_->release(b);
  }

  Bodies* bodies_;
  const char* structure_;
  const char* noun_;
  std::vector<Key> keys_;  // by entry
  std::vector<bool> present_;
  std::vector<EntryId> free_;
};

}  // namespace kds
