#pragma once
/// \file
/// The frame-based baseline (seed 002, and what Bullet, ODE or Box2D do by default): time
/// advances in fixed frames of length dt; in each frame a uniform grid over the spheres'
/// swept boxes proposes pairs, 002's swept-sphere test (safe form) finds their contact
/// times within the frame, and the spheres respond. It is fast and simple, and it misses
/// collisions: that is what it is here for. Benchmarks compare its contact log with the
/// exact event-driven one and count the misses.
///
/// The policy of one frame [t, t + dt], exactly:
///  1. Every sphere's motion over the frame is its ballistic parabola from its state at t.
///  2. Candidate pairs are those whose swept boxes (the box around the sphere's whole path
///     in the frame) overlap; each pair is tested once, from the grid cell holding the
///     lower corner of the two boxes' intersection.
///  3. Pair contacts: swept_sphere_contact of the frame-start motions. Wall contacts: the
///     first time a sphere reaches a face of the box moving into it.
///  4. Events are sorted by (time, first sphere, second sphere or wall). Each sphere takes
///     part in at most one event per frame, its earliest: an event whose sphere already
///     responded in this frame is dropped (counted as `dropped`). An accepted event moves
///     its spheres to its time, applies kds::collision_response or kds::wall_response, and
///     the spheres fly the rest of the frame on their new velocity, through anything.
///  5. Spheres without an event fly the whole frame. The clock becomes t + dt (computed as
///     frames * dt, so that it does not drift).
/// A collision missed so (a second contact in the same frame) is lost unless the spheres
/// still overlap and approach at the next frame's start, when it is logged at that time.

#include <cstdint>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/contact.hpp"
#include "structures/collision/sphere.hpp"

namespace kds {

struct FrameBaselineSettings {
  Box3 box;
  double dt = 1.0 / 60;
  Vec<3> gravity{0, 0, 0};
  double restitution = 1;
  /// Side of the grid's cells; 0: the largest extent of any swept box in the frame, so
  /// that a sphere's box meets at most 8 cells.
  double cell_size = 0;
};

class FrameBaseline {
 public:
  struct Counters {
    std::uint64_t frames = 0;
    std::uint64_t candidate_pairs = 0;  ///< pairs whose swept boxes overlap
    std::uint64_t sphere_contacts = 0;
    std::uint64_t wall_contacts = 0;
    std::uint64_t dropped = 0;          ///< events dropped by the one-event-per-sphere rule
  };

  /// Validates the spheres (validate_spheres) and the settings; throws InvalidInput, also
  /// for a sphere with max_acceleration > 0 (the baseline knows ballistic motion only).
  FrameBaseline(const FrameBaselineSettings& settings, const std::vector<Sphere>& spheres);

  /// One frame.
  void step();
  /// Frames until the clock reaches t.
  void run_until(double t);

  double time() const { return static_cast<double>(counters_.frames) * settings_.dt; }
  std::size_t size() const { return spheres_.size(); }
  SphereState state(SphereId id) const { return state_[id]; }
  const std::vector<SphereState>& states() const { return state_; }
  /// Contacts in the order processed: time, then ids.
  const std::vector<Contact>& contacts() const { return contacts_; }
  const Counters& counters() const { return counters_; }
  const FrameBaselineSettings& settings() const { return settings_; }

 private:
  struct Event {
    double time;
    SphereId a;
    SphereId b;     ///< other sphere, or the wall's number
    bool with_wall;
  };
  void find_pair_events(std::vector<Event>& events);
  void find_wall_events(std::vector<Event>& events) const;
  /// State of sphere i at time s into the frame along its frame-start parabola.
  SphereState at(SphereId i, double s) const;
  /// The state at the frame's end after flying from `from` at time s into the frame.
  SphereState fly(const SphereState& from, double s) const;

  FrameBaselineSettings settings_;
  std::vector<Sphere> spheres_;
  std::vector<SphereState> state_;
  std::vector<Contact> contacts_;
  Counters counters_;
};

}  // namespace kds
