#pragma once
/// \file
/// A plain floating-point event-driven hard-sphere simulator, written for comparison with
/// kds (issue 8): equal or unequal spheres in a walled box, elastic collisions, a cell
/// list of side at least the largest diameter, every predicted event in one binary heap,
/// stale events recognised lazily by per-sphere event counters. No exactness and no kds
/// type: it is the "plain code" the benchmark measures kds against, and it deliberately
/// has none of the refinements of the fastest codes (one event per sphere, neighbour
/// lists, calendar queues).
///
/// Each sphere has a counter that grows whenever its velocity changes. An event records
/// the counters of its spheres when it was predicted; when popped, it is processed only if
/// they still match. Positions are kept at the time of the last velocity change (`t`) and
/// extrapolated when needed. A sphere's events: a collision with each sphere of the 27
/// cells around it whose closest approach is a contact, the first wall it would reach,
/// and the first face of its cell its centre crosses. A collision predicted later than
/// either sphere's next wall or cell crossing is not pushed (the heap would fill up with
/// events that almost never happen): the wall changes the velocity, and a crossing moves
/// the sphere to the next cell and predicts its collisions with all 27 cells around it
/// again, so such a collision is predicted again by then.
/// Stale events stay in the heap until their time comes (a sphere's crossing of a far face
/// is pushed again after each of its collisions), so when the heap has doubled since it
/// was last cleaned, the stale events are dropped and the heap rebuilt: amortised O(1) per
/// push, and memory bounded by twice the live events.

#include <array>
#include <cstdint>
#include <vector>

#include "bench/baselines/lazy_event_heap.hpp"
#include "kds/huge_pages.hpp"

namespace kds::baseline {

using Vec3 = std::array<double, 3>;

/// A sphere as the user gives it at time 0.
struct Ball {
  Vec3 position{};
  Vec3 velocity{};
  double radius = 1;
  double mass = 1;
};

/// A processed collision: spheres a and b, or sphere a and wall `wall` (0, 1: x low and
/// high; 2, 3: y; 4, 5: z), the numbering of kds::Wall.
struct BallContact {
  double time = 0;
  std::uint32_t a = 0, b = 0;
  bool with_wall = false;
  int wall = 0;
};

struct CellListCounters {
  std::uint64_t sphere_collisions = 0, wall_collisions = 0, cell_crossings = 0;
  std::uint64_t stale_events = 0;  ///< popped and skipped (a counter had moved on)
  std::uint64_t predicted = 0;     ///< events pushed onto the heap
  std::uint64_t pair_tests = 0;    ///< pairs whose collision time was computed
};

class CellListSpheres {
 public:
  /// The box [lo, hi] has walls on all six sides. Throws std::invalid_argument naming the
  /// sphere and the problem: a non-finite value, a non-positive radius or mass, a sphere
  /// not inside the box, two spheres overlapping.
  CellListSpheres(const Vec3& lo, const Vec3& hi, const std::vector<Ball>& balls);

  /// Processes the next valid event (skipping stale ones); false when nothing is left.
  bool step();
  /// The time of the last processed event.
  double time() const { return now_; }
  std::size_t size() const { return spheres_.size(); }
  const CellListCounters& counters() const { return counters_; }
  /// When set, every collision (sphere or wall) is appended to `log`.
  void log_contacts(std::vector<BallContact>* log) { log_ = log; }
  /// The position of sphere i at time t >= its last velocity change.
  Vec3 position(std::uint32_t i, double t) const;
  const Vec3& velocity(std::uint32_t i) const { return spheres_[i].v; }
  /// Total kinetic energy, 0.5 m |v|^2 summed.
  double kinetic_energy() const;
  /// Events in the heap now, stale ones included.
  std::size_t queued() const { return heap_.size(); }

 private:
  struct State {
    Vec3 x;  // position at time t
    Vec3 v;
    double t;
    double radius, mass;
    double wall_time, crossing_time;  // of the pushed wall and crossing events
    std::uint32_t cell;
    std::uint32_t counter;  // grows with every velocity change
  };
  /// `other` is a sphere index, or wall_event + w, or crossing_event + 2 axis + (1 if upwards).
  using Event = PredictedEvent;
  static constexpr std::uint32_t wall_event = PredictedEvent::own_event, crossing_event = wall_event + 0x10;

  std::array<int, 3> cell_coords(std::uint32_t cell) const;
  std::uint32_t cell_index(int i, int j, int k) const;
  void insert_in_cell(std::uint32_t s, std::uint32_t cell);
  void remove_from_cell(std::uint32_t s);

  void push(const Event& e);
  /// Sphere i's event counter (the heap's test of stale events).
  auto counter_of() const {
    return [this](std::uint32_t i) { return spheres_[i].counter; };
  }
  /// Collision of a and b predicted from now, pushed if there is one.
  void predict_pair(std::uint32_t a, std::uint32_t b);
  /// Collisions of s with every sphere of the 27 cells around it.
  void predict_neighbours(std::uint32_t s);
  /// The first time the centre of p reaches, on an axis k it moves along, the plane at
  /// coordinate plane(k, upwards) (NaN: none on that axis); `which` = 2 k + (1 if upwards).
  template <class Plane>
  static double first_plane(const State& p, Plane plane, std::uint32_t& which);
  void predict_wall(std::uint32_t s);
  void predict_crossing(std::uint32_t s);
  /// All events of s after its velocity changed.
  void predict_all(std::uint32_t s);

  void collide(const Event& e);
  void bounce(const Event& e);
  void cross(const Event& e);
  void advance(State& s) const;

  Vec3 lo_, hi_;
  std::array<int, 3> cells_{};
  Vec3 cell_side_{};
  // On huge pages once large, as kds's arrays are (kds/huge_pages.hpp): the comparison
  // is then not one of page sizes.
  kds::LargeVector<State> spheres_;
  kds::LargeVector<std::int32_t> head_;         // first sphere of each cell, -1 if none
  kds::LargeVector<std::int32_t> next_, prev_;  // doubly linked cell lists
  LazyEventHeap heap_;
  double now_ = 0;
  CellListCounters counters_;
  std::vector<BallContact>* log_ = nullptr;
};

}  // namespace kds::baseline
