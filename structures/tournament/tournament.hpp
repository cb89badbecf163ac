#pragma once
/// \file
/// The kinetic tournament: the largest (or smallest) of a set of keys of moving bodies.
///
/// A balanced binary tree over the entries, each internal node holding the winner of its
/// two children's winners, the root holding the overall winner. Each internal node with
/// two contenders has one certificate, "the winner is not beaten by the loser": an
/// `Order<Tournament>` whose `upper` is the winner for a largest-key tournament and the
/// loser for a smallest-key one. When it fails, the loser becomes the winner at that
/// node and the change climbs towards the root as long as winners change, the
/// certificates whose contenders changed being replaced: O(log n) work per event, and an
/// external event when the root's winner changes. Keys are any `kds::Key`: coordinates,
/// the gaps of a sorted list (a kinetic closest pair, examples/closest_pair), squared
/// distances. See structures/tournament/README.md.
///
/// Callbacks (`on_winner_change`) run after the tree is repaired, with the same contract
/// as the sorted list's: anything but inserting, erasing or re-keying in this tournament.

#include <cstddef>
#include <vector>

#include "certificates/order.hpp"
#include "kds/key_table.hpp"
#include "kds/signal.hpp"
#include "kds/simulator.hpp"
#include "kds/structure.hpp"

namespace kds {

/// Which end a tournament keeps.
enum class Extremum : std::uint8_t { largest, smallest };

class Tournament final : public Structure {
 public:
  using Certificate = Order<Tournament>;

  explicit Tournament(Simulator& sim, Extremum extremum = Extremum::largest);
  /// Destroys the tournament's certificates and releases its bodies; never throws.
  ~Tournament() override;
  Tournament(const Tournament&) = delete;
  Tournament& operator=(const Tournament&) = delete;

  /// Adds a key at the current time. InvalidInput (nothing changed) if it names a stale,
  /// erased or foreign body.
  EntryId insert(const Key& key);
  /// Removes an entry; InvalidInput if it is not in this tournament.
  void erase(EntryId entry);
  /// Replaces the key of an entry at the current time (the gap of a sorted list now
  /// between other neighbours, say). The key may jump: the tree is repaired at once.
  void set_key(EntryId entry, const Key& key);

  /// The entry with the largest (smallest) key just after the current time (among keys
  /// with identical futures, the one nearest the left of the tree); no_entry when empty.
  EntryId winner() const { return size_ == 0 ? no_entry : winner_[1]; }
  Extremum extremum() const { return extremum_; }
  bool contains(EntryId entry) const { return keys_.contains(entry); }
  const Key& key(EntryId entry) const;
  std::size_t size() const { return size_; }
  /// Height of the tree (0 for at most one entry): the number of certificates an event
  /// may replace is at most twice this.
  int height() const;
  /// Changes of the overall winner caused by events (the structure's external events).
  std::uint64_t leader_changes() const { return leader_changes_; }

  /// Every change of the overall winner, whatever caused it (an event, an insert, an
  /// erase, a new key, a motion change); `previous` or `current` is no_entry when the
  /// tournament was or became empty.
  Signal<EntryId, EntryId>& on_winner_change() { return winner_changed_; }

  // Structure
  const char* name() const override { return "tournament"; }
  void audit(const AuditContext& ctx) const override;

  // Owner interface of the order certificate.
  const KeyTable& key_table() const { return keys_; }
  void order_failed(Certificate& c, Simulator& sim);

 private:
  void require_not_in_callback(const char* operation) const;
  /// Node index of the leaf holding slot s (nodes in heap layout: root 1, children 2k, 2k + 1).
  std::size_t leaf(std::size_t s) const { return capacity_ + s; }
  /// Positive if a beats b just after now, negative if b beats a, zero for identical futures.
  Sign beats(EntryId a, EntryId b) const;
  /// The certificate that `winner` keeps beating `loser`.
  /// The certificate "winner beats loser" at a node: `reuse` (the node's previous
  /// certificate, or nullptr) is renewed in place unless the clock reads it.
  Certificate* certify(EntryId winner, EntryId loser, Birth birth, Certificate* reuse = nullptr);
  EntryId certificate_winner(const Certificate& c) const;
  /// Recomputes node k from its children's winners, replacing its certificate only if its
  /// pair of contenders changed. Returns whether the winner of k changed.
  bool refresh(std::size_t k);
  /// Refreshes k and its ancestors as long as winners change.
  void climb(std::size_t k);
  void drop_certificate(std::size_t k);
  /// Rebuilds the whole tree over `capacity` leaves (a power of two), e.g. after growing.
  void rebuild(std::size_t capacity);
  /// Tells the callbacks (and, after an event, the simulator) that the winner changed.
  void announce(EntryId previous, bool external);

  Simulator& sim_;
  Extremum extremum_;
  KeyTable keys_;
  std::vector<std::size_t> slot_;  // by entry: its leaf position in slots_
  std::vector<EntryId> slots_;  // leaf slot -> entry, the first size_ in use
  std::size_t size_ = 0;
  std::size_t capacity_ = 1;                // number of leaves, a power of two
  std::vector<EntryId> winner_;             // per node (2 * capacity_), no_entry if its subtree is empty
  std::vector<Certificate*> certificates_;  // per internal node (capacity_), nullptr without two contenders
  Signal<EntryId, EntryId> winner_changed_;
  std::uint64_t leader_changes_ = 0;
};

}  // namespace kds
