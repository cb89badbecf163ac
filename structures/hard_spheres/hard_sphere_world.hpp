#pragma once
/// \file
/// Ballistic hard spheres in a walled box at the speed of event-driven molecular dynamics,
/// with kds's exact answers (issue 8, item 3; docs/structures/hard-spheres.md).
///
/// The collision world (structures/collision/collision_world.hpp) certifies every
/// candidate pair and rebuilds every certificate of both spheres at each collision. This
/// structure schedules **one event per sphere**: the earlier of its earliest contact
/// candidate, among its pairs with the spheres of the 27 cells around it (cells at least
/// one largest diameter wide) and the six walls, and its next cell crossing (which scans
/// only the 9 cells that become adjacent). Events are invalidated lazily: a sphere's
/// event with a partner stays queued after the partner's motion changes, and is recomputed
/// when it surfaces and the partner's event counter no longer matches.
///
/// It answers as CollisionWorld over the all-pairs broad phase does, contact for contact:
/// the same certificate functions (allowances included), the same instants (the exact
/// failure time rounded up to a double, event_times.hpp), the same order of the events of
/// one instant (the exactly earliest first, then by tie key, structures/collision/
/// tie_keys.hpp), the same response (response.hpp), the same rules for contacts at one
/// instant. Ballistic spheres without gravity only (the quadratic of the closed form):
/// InvalidInput otherwise.

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/contact.hpp"
#include "structures/collision/sphere.hpp"
#include "structures/collision/tie_keys.hpp"
#include "structures/collision/wall.hpp"
#include "kds/calendar.hpp"
#include "kds/huge_pages.hpp"
#include "structures/hard_spheres/event_times.hpp"
#include "structures/tvb_grid/cell_table.hpp"

namespace kds {

/// What a HardSphereWorld counted since it was built.
struct HardSphereStats {
  std::uint64_t events = 0;           ///< contact events processed (pairs and walls, contacts or not)
  std::uint64_t cell_crossings = 0;   ///< cell-crossing events
  std::uint64_t stale = 0;            ///< events found stale when they surfaced (recomputed)
  std::uint64_t reschedules = 0;      ///< a sphere's earliest event recomputed
  std::uint64_t instants = 0;         ///< instants begun (the clock moved to a new double)
  std::uint64_t instants_exact = 0;   ///< ... whose first event needed exact roots to be told
  std::uint64_t resolved = 0;         ///< events whose instant was computed from their window
  std::uint64_t resolved_tied = 0;    ///< ... by rescheduling with every close candidate resolved
  std::uint64_t exact_comparisons = 0;  ///< root comparisons decided by the exact path there
  hard_spheres::TimeCounters times;   ///< the failure-time computations (event_times.hpp)
};

class HardSphereWorld {
 public:
  /// Its name in the programs (`--structure hard-spheres`, HardSphereWorldModel::name):
  /// what its refusals name, the word the user typed.
  static constexpr const char* structure_name = "hard-spheres";

  /// Validates exactly as CollisionWorld does (the same messages), then requires
  /// ballistic spheres and no gravity (InvalidInput naming the setting or the sphere, and
  /// structure_name).
  /// settings.broad_phase, cell_ratio and probe are not used.
  HardSphereWorld(const CollisionWorldSettings& settings, const std::vector<Sphere>& spheres);
  /// The same, releasing `spheres` (left empty) once their motions are copied, before the
  /// rest of the structure is allocated: the input and the world do not both sit in
  /// memory at the peak.
  HardSphereWorld(const CollisionWorldSettings& settings, std::vector<Sphere>&& spheres);

  std::size_t size() const { return kin_.size(); }
  const CollisionWorldSettings& settings() const { return settings_; }
  /// The current time: that of the last event, or the last run_until target.
  double now() const { return now_; }
  /// Processes the next event (a contact event of the collision world, or a cell
  /// crossing). False if there is none.
  bool step();
  /// Processes every event at or before t, then sets the clock to t.
  void run_until(double t);

  /// State at time t >= the sphere's last motion change, in the user's coordinates; `id` is the
  /// user's (the index in the spheres given). std::out_of_range for an id it does not have.
  SphereState state(SphereId id, double t) const;
  double kinetic_energy(double t) const;
  const std::vector<Contact>& contacts() const { return contacts_; }
  /// Drops the contact log (long runs); the counters and observers go on.
  void clear_contacts() { contacts_.clear(); }
  void keep_contacts(bool keep) { keep_contacts_ = keep; }
  std::uint64_t sphere_contacts() const { return sphere_contacts_; }
  std::uint64_t wall_contacts() const { return wall_contacts_; }
  void on_contact(std::function<void(const Contact&)> f) { contact_observers_.push_back(std::move(f)); }
  /// Called after every event (a contact event or a cell crossing: each adds one to
  /// stats().events + stats().cell_crossings), in the order of registration, with now()
  /// at the event's time. For progress lines, event budgets and audits after every event
  /// (time_between_events). It may throw to abandon the run; the world is then to be
  /// discarded (an event of an instant may be half processed).
  void on_event(std::function<void()> f) { event_observers_.push_back(std::move(f)); }
  /// A double strictly after now() and strictly before the next event, where nothing is
  /// in flux (as Simulator::time_between_events): for an audit between events. nullopt
  /// when no double lies between them, or when an event of this instant is still to be
  /// processed (a cell crossing processed while the instant's contacts are gathered).
  /// Without a next event: one unit of time later.
  std::optional<double> time_between_events() const;
  const HardSphereStats& stats() const { return stats_; }
  /// Cells per axis and their sides.
  const std::array<int, 3>& cells() const { return cells_; }

  /// Checks, at now() (after run_until or step), every sphere
  /// inside the box and overlapping no other beyond the contact tolerance; every sphere in
  /// the cell that contains its centre (up to the cells' slack); every scheduled event
  /// that is still valid is its sphere's earliest over **all** spheres and walls; every
  /// pair's and wall's failure is covered by the schedule (no event missed); before the
  /// first step, every sphere's event is the one its own scan would schedule. O(n^2):
  /// for tests. Throws AuditFailure.
  void audit() const { audit(now_); }
  /// The same checks at t: now() or a time_between_events() (the positions at t).
  void audit(double t) const;

 private:
  enum class Kind : std::uint8_t { none, pair, wall };
  // A sphere's schedule: its earliest contact candidate (kept across cell crossings, as
  // long as its partner's motion is unchanged) and its next cell crossing. It is queued
  // at the earlier of the two; at equal times the contact comes first (smaller tie key).
  struct Event {
    double time = hard_spheres::never;   // contact: a lower bound of its failure time, or its instant if exact
    double hi = hard_spheres::never;     // contact: an upper bound of the failure time
    double cross = hard_spheres::never;  // the next cell crossing (a double near its exact time)
    std::uint32_t partner = 0;           // sphere (pair) or wall index (wall)
    std::uint32_t partner_count = 0;     // the partner's event counter when scheduled
    Kind kind = Kind::none;
    bool tied = false;   // another contact of this sphere may fall at the same instant
    bool exact = false;  // time is the instant itself
    std::uint8_t cross_face = 0;  // axis * 2 + up
    bool crossing_first() const { return cross < time || kind == Kind::none; }
    double queued() const { return crossing_first() ? cross : time; }
  };
  struct HeapEntry {
    double time;
    SphereId id;
  };
  // Spheres listed from the cells (list_cells), in a buffer of two slots per cell listed
  // and the overflow members met (grown when a listing needs more, never shrunk): the
  // listing writes both slots of a cell past the end of what it keeps.
  struct SphereList {
    std::vector<SphereId> buffer;
    std::size_t size = 0;
    std::span<const SphereId> ids() const { return {buffer.data(), size}; }
  };
  // The earliest contact found so far while scanning candidates.
  struct Best {
    Event contact;
  };

  void take(const std::vector<Sphere>& spheres);  // validation, motions, radii, masses
  void build();                                  // the rest: cells, allowances, schedule
  bool step_before(double limit);

  // Scheduling.
  /// Tie keys (the order of events at one instant) in the user's ids: the reference's
  /// order, whatever this world's own numbering.
  std::uint64_t order_pair(SphereId i, SphereId j) const { return tie_key::pair(ext_[i], ext_[j]); }
  std::uint64_t order_wall(SphereId i, Wall w) const { return tie_key::wall(ext_[i], w); }
  std::uint64_t tie_of(SphereId i) const;
  bool before(const HeapEntry& x, const HeapEntry& y) const;
  /// Queues sphere i at its event's queued time: in the heap if that falls in the
  /// calendar's current bin (or earlier), else in the calendar.
  void heap_update(SphereId i);
  void heap_erase(SphereId i);
  /// Asks the memory for the records of the event likely to come after the heap's first.
  void request_next() const;
  /// While the heap holds no event, takes the calendar's next bin into it.
  void refill();
  void sift_up(std::size_t pos);
  void sift_down(std::size_t pos);
  bool valid(SphereId i) const;
  /// The sphere's earliest event over its walls and neighbours (the spheres of the 27
  /// cells around it, or `neighbours` when the caller has just listed them).
  void schedule(SphereId i, bool resolve_all = false, const SphereList* neighbours = nullptr);
  void consider(SphereId i, Best& best, hard_spheres::Window w, Kind kind, std::uint32_t partner, bool resolve_all);
  void resolve(SphereId i);
  /// f(j) for each sphere j of `list` (neighbours of i) that pair_window's first tests do
  /// not decide "never" (those are decided four at a time, and counted as pair_window
  /// counts them): the same calls of f in the same order as calling pair_window on all.
  template <class F>
  void for_each_candidate(SphereId i, std::span<const SphereId> list, F&& f);
  template <class F>
  void for_each_neighbour(SphereId i, F&& f) const;
  /// `list` := the spheres of the cells from lo to hi but `skip`, cell by cell;
  /// list_neighbours: those of the 27 cells around i.
  void list_cells(const std::array<int, 3>& lo, const std::array<int, 3>& hi, SphereId skip,
                  SphereList& list) const;
  void list_neighbours(SphereId i, SphereList& list) const;
  template <class F>
  void for_each_in_cells(const std::array<int, 3>& lo, const std::array<int, 3>& hi, SphereId skip, F&& f) const;
  hard_spheres::Window pair_window(SphereId i, SphereId j, double bound);
  hard_spheres::Window wall_window(SphereId i, int w);
  double pair_instant(SphereId i, SphereId j, const hard_spheres::Window& w);
  double wall_instant(SphereId i, int w, const hard_spheres::Window& win);
  double allowance(std::uint64_t key, SphereId a, SphereId b) const {
    // a is the sphere of smaller id (a == b for a wall, whose code is the key's low half).
    // Most pairs have none: the spheres' marks, on the cache line of their motions, tell
    // it without reading the slot (at large N a cache miss per neighbour: 8% of the time
    // at 10^6 when the marks only said "some allowance").
    const std::uint32_t for_a = static_cast<std::uint32_t>(key), for_b = a;
    if (!may_hold(kin_[a].allowance_partner, for_a) || (a != b && !may_hold(kin_[b].allowance_partner, for_b))) return 0;
    return stored_allowance(key, a, b);
  }
  static bool may_hold(std::uint32_t mark, std::uint32_t partner) { return mark == partner || mark == several_allowances; }
  double stored_allowance(std::uint64_t key, SphereId a, SphereId b) const;
  void store_allowance(std::uint64_t key, SphereId a, SphereId b, double value);
  void set_crossing(SphereId i, Event& e) const;
  /// Whether the sphere's cell is the one next to the wall (walls are candidates only there).
  bool wall_in_reach(SphereId i, Wall w) const;

  // Cells.
  int cell_coordinate(int k, double x) const;
  std::uint32_t cell_index(const std::array<int, 3>& c) const { return (c[2] * cells_[1] + c[1]) * cells_[0] + c[0]; }
  std::array<int, 3> cell_coords(SphereId i) const {
    const std::uint32_t c = cell_[i], x = static_cast<std::uint32_t>(cells_[0]), y = static_cast<std::uint32_t>(cells_[1]);
    return {static_cast<int>(c % x), static_cast<int>(c / x % y), static_cast<int>(c / x / y)};
  }
  void cell_insert(SphereId i);
  void cell_remove(SphereId i);
  void cross(SphereId i);

  // The contact pipeline (as CollisionWorld's encounter).
  void begin_instant(double t);
  void first_of_instant(double t);
  void encounter(SphereId a, SphereId b, bool with_wall, Wall w);
  void restart(std::span<const SphereId> ids, double t, std::span<const SphereState> states);
  /// Also lists the sphere's neighbours in `neighbours` (for schedule(), after the motion change).
  void note_failing_now(SphereId id, double t, SphereList& neighbours);
  void decide_pair_allowance(SphereId a, SphereId b, double t0);
  void decide_wall_allowance(SphereId id, Wall w);
  void record(const Contact& c);
  void check_progress();

  CollisionWorldSettings settings_;
  Vec<3> origin_{};
  Box3 box_;
  double max_speed_ = 0;
  double now_ = 0;
  // A sphere's motion with its counters, one cache line: a neighbour scan reads the
  // motion, and the allowance check the counters, of each neighbour.
  struct alignas(64) Body : hard_spheres::Kinematics {
    std::uint32_t count = 0;  // event counter: bumped at each motion change
    // Whose allowance it may hold since its motion last changed: no_allowance; the
    // partner of the one pair or wall stored (its id, or the wall's code 0xFFFFFFF0 + w as
    // in tie keys); or several_allowances. Its pairs and walls have no allowance but
    // those (whose values are valid while both event counters match: store_allowance).
    std::uint32_t allowance_partner = no_allowance;
  };
  static constexpr std::uint32_t no_allowance = ~std::uint32_t{0};
  static constexpr std::uint32_t several_allowances = ~std::uint32_t{0} - 1;
  void set_motion(SphereId i, const hard_spheres::Kinematics& k) {
    static_cast<hard_spheres::Kinematics&>(kin_[i]) = k;
    magnitudes_.include(k);
  }
  // The largest position and velocity coordinates ever set (pair_window's first tests).
  hard_spheres::Magnitudes magnitudes_{0, 0};
  double radius(SphereId i) const { return radius_.empty() ? r_ : radius_[i]; }
  double mass(SphereId i) const { return mass_.empty() ? m_ : mass_[i]; }
  // The arrays by sphere and by cell, read at random places by every event, are
  // LargeVectors: on huge pages once large (kds/huge_pages.hpp).
  LargeVector<Body> kin_;
  double r_ = 0, m_ = 0;            // every sphere's radius and mass, when they share them
  LargeVector<double> radius_, mass_;  // else each one's
  // This world numbers the spheres by cell at the start (counting sort of the cell
  // indices), so that the spheres of a row of cells sit side by side in every array by
  // sphere, whatever the order the user gave them in. ext_: the user's id of each sphere;
  // int_: the inverse. Everything inside uses its own numbers (allowance keys and slots,
  // partners, the queue); what the user sees uses the user's (contacts, state(), the
  // messages), and so do the tie keys that order the events of one instant.
  LargeVector<SphereId> ext_, int_;
  LargeVector<std::uint32_t> cell_;  // cell_index of each sphere's cell
  // A cell's members: the first two in place, the others (a cell holds 0.76 spheres on
  // average at volume fraction 0.4) in cell_overflow_. A scan reads a row of three cells
  // as 24 contiguous bytes and copies each cell's two slots without a branch on how many
  // it holds, where linked lists made it follow a dependent load and run a loop of
  // unpredictable length per cell. (16-byte cells of three slots and a count were 0.91x
  // the time at 10^4 but 1.06x at 10^5, where the table no longer stayed in cache.)
  struct Cell {
    // no_sphere where empty (member[1] too when member[0] is); member[1] carries
    // more_members when the cell holds more, in cell_overflow_.
    std::array<SphereId, 2> member{no_sphere, no_sphere};
  };
  static constexpr SphereId more_members = SphereId{1} << 31;
  static bool flagged(SphereId m) { return m != no_sphere && (m & more_members) != 0; }
  LargeVector<Cell> cell_table_;                                            // by cell index
  // By cell index: the members past the slots. An open-addressing table whose emptied lists
  // keep their buffers for the next cell to overflow (std::unordered_map allocated a node
  // and a buffer each time a cell overflowed: a sphere crossing into a full cell).
  CellTable<SphereId> cell_overflow_;
  std::array<int, 3> cells_{1, 1, 1};
  Vec<3> side_{};
  // The queue: the spheres whose events fall in the calendar's current bin (or before),
  // and those never failing, in an indexed 4-ary heap that orders them exactly; the
  // others in the calendar (kds/calendar.hpp), by bins of time.
  std::vector<HeapEntry> heap_;
  Calendar calendar_;
  std::vector<SphereId> pulled_;  // refill: a bin's spheres (reused)
  // Allowances (certificates/bound_separation.hpp) of pairs and walls created touching,
  // by tie key; valid while both spheres keep the event counters they had.
  struct Allowance {
    double value;
    std::uint32_t count_a, count_b;
  };
  // Most allowances are those of the pair that just collided: one slot per sphere (the
  // sphere of smaller id of the pair) holds it; the rest go to the map.
  // A sphere's event, its allowance slot and its heap position share a cache line: a
  // collision writes all three (at 10^5 spheres a separate slot array cost a cache miss
  // per collision, 4% of the time).
  struct alignas(64) Record {
    Event event;
    // The slot: its key is (this sphere << 32) | slot_partner (the partner's id, or the
    // wall's code); slot_partner = no_slot: empty.
    std::uint32_t slot_partner = no_slot;
    std::uint32_t pos = ~std::uint32_t{0};  // in heap_ (npos: not there)
    Allowance slot_allowance{0, 0, 0};
  };
  static_assert(sizeof(Record) == 64);
  static constexpr std::uint32_t no_slot = ~std::uint32_t{0};
  LargeVector<Record> record_;  // by sphere
  std::unordered_map<std::uint64_t, Allowance> allowances_;
  // Contacts at one instant (CollisionWorld's touching_now_).
  double instant_ = -std::numeric_limits<double>::infinity();
  std::vector<std::uint64_t> touching_now_;
  std::uint64_t events_at_instant_ = 0;
  std::vector<HeapEntry> gathered_;  // reused
  // first_of_instant: the contacts competing at the instant, and a tied sphere's
  // neighbours (reused: an event allocates nothing once they have grown).
  struct InstantCandidate {
    std::uint64_t tie;  // in the user's ids (order_pair, order_wall)
    SphereId a, b;      // b == a for a wall
    bool with_wall;
    Wall wall;
  };
  std::vector<InstantCandidate> instant_candidates_;
  std::vector<SphereId> tied_partners_;
  std::array<SphereList, 2> scanned_;  // restart: each sphere's neighbours, listed once
  SphereList candidates_;              // schedule and cross: the neighbours listed (reused)
  bool prefetch_motions_ = false;      // list_cells requests rows and motions (above 4 MB of motions)
  std::vector<std::pair<SphereId, SphereId>> near_;  // (sphere, neighbour) near contact at a motion change (restart)
  std::vector<Contact> contacts_;
  bool keep_contacts_ = true;
  std::uint64_t sphere_contacts_ = 0, wall_contacts_ = 0;
  std::vector<std::function<void(const Contact&)>> contact_observers_;
  std::vector<std::function<void()>> event_observers_;
  void observe_event() const {
    for (const auto& f : event_observers_) f();
  }
  HardSphereStats stats_;
  // True from build() until the first step: the audit then checks each sphere's first
  // event against schedule()'s scan from scratch.
  bool as_built_ = false;
};

}  // namespace kds
