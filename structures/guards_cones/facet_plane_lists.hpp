#pragma once
/// \file
/// The center events of guards and cones as the paper detects them (section 3.2.1, proof
/// of Lemma 10): one kinetic sorted list (structures/sorted_list) per orientation u of a
/// cone facet, holding every object's centre u . c and, for every guard g, the plane
/// through g with normal u (every cone of g with a facet of that orientation has it on
/// this plane). A swap of a centre and a plane is the centre crossing the plane: it may
/// leave a cone of that guard and enter another one (center event).
///
/// The guards of one object whose offsets have exactly the same u . offset share one
/// plane and one entry (as the box lists share guard planes): their planes coincide, the
/// same centres cross them at the same times. The grouping is exact (offsets as integer
/// multiples of a power of two, summed in 128 bits).
///
/// Size: orientations() lists of n centres plus the distinct planes (planes() in all);
/// one order certificate per adjacent pair. Swaps of two planes, or two centres, change
/// nothing and are ignored (they are the price of the paper's design: O(rho^13 n^2)
/// events in Lemma 10).

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "structures/collision/collision_world.hpp"
#include "structures/guards_cones/cones.hpp"
#include "structures/guards_cones/guards.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds {

class FacetPlaneLists {
 public:
  /// The centre of k crossed the common plane of `guards` (all guards of `owner`, k != owner),
  /// whose normal is `normal`. `on_plane`: the centre is known to be exactly on the plane
  /// now (SortedList::swap_keys_equal_now); false when not known.
  using Crossing = std::function<void(std::span<const GuardId> guards, SphereId owner, SphereId k,
                                      const IntVec& normal, bool on_plane)>;

  /// Builds one list per facet orientation of `cones` at the current time: guard g
  /// belongs to the object o with first_guard[o] <= g < first_guard[o + 1], at its centre
  /// plus offset[g].
  void build(CollisionWorld& world, const ConeSet& cones, const std::vector<GuardId>& first_guard,
             const std::vector<Vec<3>>& offset);
  /// Subscribes to the center events (after build; once).
  void on_crossing(Crossing f);

  std::size_t orientations() const { return normal_.size(); }
  const IntVec& normal(std::size_t o) const { return normal_[o]; }
  const SortedList& list(std::size_t o) const { return *lists_[o]; }
  /// Plane entries over all lists.
  std::size_t planes() const;
  /// Plane entries of one object over all lists (the same for objects of one radius).
  std::size_t planes_of(SphereId k) const { return planes_of_[k]; }
  /// The plane entry of guard g in list o, and the centre entry of object k.
  EntryId plane_entry(std::size_t o, GuardId g) const;
  EntryId centre_entry(std::size_t o, SphereId k) const { return centre_[o][k]; }
  std::uint64_t swaps() const;

  /// The entries of k in list o: its centre and its planes.
  std::vector<EntryId> entries_of(std::size_t o, SphereId k) const;
  /// The object an entry of list o belongs to (the centre's, or the plane's owner).
  SphereId owner_of(std::size_t o, EntryId e) const;
  /// How many entries k's entries must pass to be in order now (list_reinsertion.hpp),
  /// over all lists; counting stops above `budget`.
  std::size_t passes_to_order(SphereId k, std::size_t budget) const;
  /// After a jump of k's motion: erases k's entries from every list and inserts them
  /// where they belong now. No center event is reported (the caller recomputes what the
  /// jump changed). Returns the entries reinserted.
  std::size_t reinsert(SphereId k);

 private:
  struct Entry {
    std::uint32_t index = 0;  // plane id (of its list) or sphere id
    bool centre = false;
  };
  /// A plane of one orientation: guards guards_[o][first .. first + count) of one owner.
  struct Plane {
    SphereId owner = no_sphere;
    std::uint32_t first = 0, count = 0;
    EntryId entry = no_entry;
  };
  void swapped(std::size_t o, EntryId left, EntryId right);

  std::vector<IntVec> normal_;
  std::vector<std::unique_ptr<SortedList>> lists_;
  std::vector<std::vector<Entry>> entry_;             // by list, by entry
  std::vector<std::vector<Plane>> planes_;            // by list, by plane id
  std::vector<std::vector<GuardId>> guards_;          // by list: the guards of its planes, plane after plane
  std::vector<std::vector<std::uint32_t>> plane_of_;  // by list, by guard
  std::vector<std::vector<EntryId>> centre_;          // by list, by sphere
  std::vector<std::vector<std::uint32_t>> first_plane_;  // by list, by sphere (n + 1): its planes' ids
  Simulator* sim_ = nullptr;
  std::vector<std::size_t> planes_of_;                // by sphere
  Crossing crossing_;
};

}  // namespace kds
