#pragma once
/// \file
/// A plain floating-point code for spheres with unknown trajectories, written for
/// comparison with kds (issue 8, the Kim-Guibas-Shin row): the paper's time-varying bounds
/// (a bound's centre moves on the last probed velocity, its radius grows as r + A/2 s^2,
/// eqs. 5-6), reset to the sphere when two bounds meet, when a bound reaches a wall and
/// when its diameter fills its cell (eq. 8); hierarchical cells as the paper's (level l of
/// side L_0 2^l, a sphere at the finest level at least `cell_ratio` diameters wide). It does
/// the work kds's collision world does on the same scene with the same probe, in doubles,
/// without a framework: no exactness, no certificates.
///
/// What an engineer would write, and no more:
///   - each bound listed in the cells it meets at its own level (its region, at most two
///     cells per axis since a bound is at most its level's side across), and in that region
///     coarsened at every coarser level, in one open-addressing hash table (the paper's
///     section 3.1; kds's `CellTable`, the grid's own, so that neither side pays for a
///     slower table: a std::unordered_map took about 11% of this code's time). Two
///     spheres are candidates when a cell of the coarser one's level holds both; the region
///     changes at eq. 7's entering and leaving events, of which only a sphere's earliest is
///     queued;
///   - one binary heap of predicted events, stale ones recognised by per-sphere counters
///     (as cell_list_spheres.hpp); a pair's meeting is predicted only before both spheres'
///     next own event (reset deadline, wall, region change), after which it is predicted
///     again;
///   - the meeting of two bounds, the first root of the quartic |D(s)|^2 - R(s)^2 (eq. 10),
///     found in doubles: the quartic is split at the roots of its derivative (a cubic in
///     closed form) into monotone pieces, and the first piece where it falls to zero is
///     narrowed by Newton steps kept inside the bracket.
/// A contact is declared when two bounds meet (or a bound reaches a wall) and the probed
/// spheres are within the contact tolerance and approaching; the response is the elastic
/// impulse with masses, given back to the trajectories.

#include <array>
#include <cstdint>
#include <vector>

#include "bench/baselines/cell_list_spheres.hpp"
#include "bench/baselines/lazy_event_heap.hpp"
#include "structures/tvb_grid/cell_table.hpp"

namespace kds::baseline {

/// The spheres' real motions, which the code sees only by asking (kds's TrajectoryProbe
/// behind an adapter in the benchmark): the state at time t, and the velocity a sphere
/// takes after a contact at t.
class TrueMotions {
 public:
  virtual ~TrueMotions() = default;
  virtual void state(std::uint32_t sphere, double t, Vec3& position, Vec3& velocity) = 0;
  virtual void set_velocity(std::uint32_t sphere, double t, const Vec3& velocity) = 0;
};

/// A sphere at time 0 and its acceleration bound A (0: it moves on a straight line).
struct BoundBall {
  Vec3 position{};
  Vec3 velocity{};
  double radius = 1;
  double mass = 1;
  double max_acceleration = 0;
};

struct BoundSpheresCounters {
  std::uint64_t sphere_contacts = 0, wall_contacts = 0;
  std::uint64_t bound_meetings = 0;  ///< two bounds met (both probed and reset; contacts among them)
  std::uint64_t wall_reaches = 0;    ///< a bound reached a wall (probed and reset; contacts among them)
  std::uint64_t deadlines = 0;       ///< a bound filled its cell (probed and reset)
  std::uint64_t region_changes = 0;  ///< a bound entered a cell or left one (eq. 7)
  std::uint64_t stale_events = 0;    ///< popped and skipped (a counter had moved on)
  std::uint64_t predicted = 0;       ///< events pushed onto the heap
  std::uint64_t pair_tests = 0;      ///< pairs whose meeting was looked for
  std::uint64_t quartics = 0;        ///< ... of them, the quartic's pieces searched
  std::uint64_t events() const { return bound_meetings + wall_reaches + deadlines + region_changes; }
};

class BoundSpheres {
 public:
  /// The box [lo, hi] has walls on all six sides. Throws std::invalid_argument naming the
  /// sphere and the problem: a non-finite value, a non-positive radius or mass, a negative
  /// acceleration bound, a sphere not inside the box, two spheres overlapping; or a cell
  /// ratio below 2.
  BoundSpheres(const Vec3& lo, const Vec3& hi, const std::vector<BoundBall>& balls, TrueMotions& motions,
               double cell_ratio = 2, double contact_tolerance = 1e-6);

  /// Processes the next valid event (skipping stale ones); false when nothing is left.
  bool step();
  /// The time of the last processed event.
  double time() const { return now_; }
  std::size_t size() const { return spheres_.size(); }
  const BoundSpheresCounters& counters() const { return counters_; }
  /// When set, every contact (sphere or wall) is appended to `log`.
  void log_contacts(std::vector<BallContact>* log) { log_ = log; }
  int levels() const { return static_cast<int>(sides_.size()); }

 private:
  /// A box of cells at one level: lo[k] .. hi[k] on each axis.
  struct Region {
    std::array<std::int32_t, 3> lo, hi;
  };
  struct State {
    Vec3 x, v;  // the bound's centre at t0 and its velocity (the sphere's at its last probe)
    double t0;
    double radius, mass, accel;
    double deadline;  // t0 + sqrt((L - 2r) / A): the bound fills its cell
    double limit;     // the earliest of its own events (deadline, wall, crossing): pairs are predicted up to it
    Region region;  // the cells its bound meets at its own level
    int level;
    std::uint32_t counter;  // grows whenever its bound or cell changes
  };
  /// `other` is a sphere index, or wall_event + w, crossing_event + 4 axis + face (0, 1:
  /// entering below, above; 2, 3: leaving the lowest, the highest cell), or deadline_event.
  using Event = PredictedEvent;
  static constexpr std::uint32_t wall_event = PredictedEvent::own_event, crossing_event = wall_event + 0x10,
                                 deadline_event = wall_event + 0x20;

  /// A cell's spheres: first those of the cell's level (`leading` of them), then those of
  /// finer levels whose bound meets it.
  using Cells = CellTable<std::uint32_t>;
  static std::uint64_t key(int level, std::int32_t i, std::int32_t j, std::int32_t k);
  /// The cells of `level` a ball meets (with a margin of rounding).
  Region region_of(int level, const Vec3& centre, double radius) const;
  void list(std::uint32_t s, bool add);

  void push(const Event& e);
  /// Sphere i's event counter (the heap's test of stale events).
  auto counter_of() const {
    return [this](std::uint32_t i) { return spheres_[i].counter; };
  }

  Vec3 centre(const State& p, double t) const;
  double bound_radius(const State& p, double t) const;
  /// Calls f(j) for each sphere j listed where s's bound may meet it (each once).
  template <class F>
  void for_each_candidate(std::uint32_t s, F&& f);
  void predict_pair(std::uint32_t a, std::uint32_t b);
  void predict_neighbours(std::uint32_t s);
  void predict_all(std::uint32_t s);
  /// Makes the bound of s its sphere again, in the state probed at now_.
  void reset(std::uint32_t s, const Vec3& x, const Vec3& v);

  void meet(const Event& e);
  void reach_wall(const Event& e);
  void fill(const Event& e);
  void change_region(const Event& e);

  Vec3 lo_, hi_;
  TrueMotions* motions_;
  double tolerance_;
  std::vector<double> sides_;  // by level
  std::vector<std::size_t> natives_;  // spheres of each level
  std::vector<std::uint32_t> stamp_;  // for meeting each candidate once
  std::uint32_t stamp_now_ = 0;
  std::vector<State> spheres_;
  Cells cells_;
  LazyEventHeap heap_;
  double now_ = 0;
  std::size_t same_instant_ = 0;  // events processed at now_ in a row
  BoundSpheresCounters counters_;
  std::vector<BallContact>* log_ = nullptr;
};

/// The first s in [0, window] at which two bounds meet, |d0 + d1 s| = r0 + r1 s + r2 s^2
/// (r0, r1, r2 >= 0), entering each other: at 0 if they overlap there, unless
/// `both_reset` (both bounds are their spheres now) and they do not approach: then the
/// first time they overlap by more than `tolerance` (infinity if they overlap more than
/// that already). Infinity if none. In doubles: exposed for its test.
double first_meeting(const Vec3& d0, const Vec3& d1, double r0, double r1, double r2, double window,
                     bool both_reset = false, double tolerance = 0);

}  // namespace kds::baseline
