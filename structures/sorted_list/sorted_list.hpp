#pragma once
/// \file
/// The kinetic sorted list: keys of moving bodies (kds/key.hpp) kept in increasing order.
///
/// One order certificate per adjacent pair (n - 1 in all). When the certificate between
/// ranks i and i + 1 fails, the two entries swap, the failed certificate is replaced and
/// its two neighbours are renewed in place: O(1) work per event, and each swap is an external event (the order
/// changed). The list orders keys, not bodies: the x-coordinates of points, the left and
/// right extremes of balls (three lists over the same boxes make the box-overlap
/// structure), any polynomial key. See structures/sorted_list/README.md.
///
/// **Callbacks** (`on_swap`, `on_insert`, `on_erase`; kds/signal.hpp for subscribing and
/// unsubscribing) run after the list is fully repaired: order, ranks and certificates are
/// up to date and the audit would pass. A callback may read the list, create and destroy
/// certificates, change other structures (a tournament over the gaps updates its keys
/// there) and change body motions; it must not insert into or erase from this list
/// (InvalidInput).

#include <span>
#include <vector>

#include "certificates/order.hpp"
#include "kds/huge_pages.hpp"
#include "kds/key_table.hpp"
#include "kds/signal.hpp"
#include "kds/simulator.hpp"
#include "kds/structure.hpp"

namespace kds {

class SortedList final : public Structure {
 public:
  using Certificate = Order<SortedList>;

  explicit SortedList(Simulator& sim);
  /// Destroys the list's certificates and releases its bodies; never throws.
  ~SortedList() override;
  SortedList(const SortedList&) = delete;
  SortedList& operator=(const SortedList&) = delete;

  /// Adds a key at the current time, where it belongs in the order (after any key with
  /// the same value and the same future). The list holds its bodies until it is erased.
  /// InvalidInput (nothing changed) if the key names a stale, erased or foreign body.
  EntryId insert(const Key& key);
  /// Removes an entry; InvalidInput if it is not in this list.
  void erase(EntryId entry);

  /// Adds many keys at once, where inserting them one by one in the given order would put
  /// them (equal keys: those already in the list first, then in the given order). Costs
  /// O(m log m) comparisons of the new keys among themselves (m - 1 when they come in
  /// order) plus O(n + m) for the merge, against O(m log n) comparisons and O(m n) moves
  /// for m inserts; certificates of pairs that stay adjacent are kept. on_insert runs for
  /// each new entry, in the order of their ranks, once the list is repaired. Returns the
  /// new entries in the order of `keys`. InvalidInput (nothing changed) as insert().
  std::vector<EntryId> insert_all(std::span<const Key> keys);
  /// Removes many entries at once in O(n) (each erase() is O(n)); certificates of pairs
  /// that stay adjacent are kept. on_erase runs for each, from the highest old rank down
  /// (the ranks erase() would report erasing them in that order). InvalidInput (nothing
  /// changed) if one is not in this list or is named twice.
  void erase_all(std::span<const EntryId> entries);

  bool contains(EntryId entry) const { return keys_.contains(entry); }
  const Key& key(EntryId entry) const;
  /// The entries in increasing order of their keys (just after the current time).
  std::span<const EntryId> order() const { return order_; }
  std::size_t size() const { return order_.size(); }
  /// Index of an entry in order().
  std::size_t rank(EntryId entry) const;
  std::uint64_t swaps() const { return swaps_; }

  /// Every swap: `left` was just before `right` and is now just after it.
  Signal<EntryId, EntryId>& on_swap() { return swapped_; }
  /// Read from an on_swap callback: whether the two keys are known to be exactly equal
  /// now, because the failed certificate's time, not pinned, is a root of its own
  /// function or a copy of the clock whose source is that function up to sign
  /// (Order::vanishes_at_failure_time; not so for a pair found out of order after a
  /// motion change). false when not known, and outside on_swap. A structure that must
  /// decide signs at the crossing (a centre on a plane) can take them from the slope
  /// instead of an exact evaluation at an algebraic time.
  bool swap_keys_equal_now() const { return swap_keys_equal_now_; }
  /// An entry was inserted (its rank is rank(entry)).
  Signal<EntryId>& on_insert() { return inserted_; }
  /// An entry was erased; it had rank `rank` (the entries after it moved down by one).
  Signal<EntryId, std::size_t>& on_erase() { return erased_; }

  // Structure
  const char* name() const override { return "sorted list"; }
  void audit(const AuditContext& ctx) const override;

  // Owner interface of the order certificate.
  const KeyTable& key_table() const { return keys_; }
  void order_failed(Certificate& c, Simulator& sim);

 private:
  void require_not_in_callback(const char* operation) const;
  /// (Re)creates the certificate between ranks i and i + 1, destroying the old one.
  void link(std::size_t i, Birth birth = Birth::generic);
  void unlink(std::size_t i);
  /// Makes certificate i join ranks i and i + 1 again after a swap beside it: in place
  /// (Simulator::renew), or a new one if it is the clock's source.
  void slide(std::size_t i);
  /// Whether key a is below key b just after now (insert's binary search, as a comparison).
  bool below(EntryId a, EntryId b) const;
  /// The sign of key b - key a just after now where one interval evaluation of two linear
  /// coordinate keys decides it; Sign::unknown otherwise.
  Sign quick_sign(EntryId a, EntryId b) const;
  /// After order_ was rearranged: ranks renumbered, the certificate of every adjacent pair
  /// that was adjacent before (old_rank, old certificates) kept, the others destroyed or
  /// created.
  void relink(const std::vector<std::size_t>& old_rank, LargeVector<Certificate*> old_certificates);

  Simulator& sim_;
  KeyTable keys_;
  // rank_ and certificates_ are read at random by every swap: on huge pages once large
  // (kds/huge_pages.hpp).
  LargeVector<std::size_t> rank_;  // by entry
  LargeVector<EntryId> order_;
  LargeVector<Certificate*> certificates_;  // certificates_[i] sits between order_[i] and order_[i + 1]
  Signal<EntryId, EntryId> swapped_;
  Signal<EntryId> inserted_;
  Signal<EntryId, std::size_t> erased_;
  std::uint64_t swaps_ = 0;
  bool swap_keys_equal_now_ = false;  // of the swap being reported (on_swap)
};

}  // namespace kds
