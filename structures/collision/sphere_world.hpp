#pragma once
/// \file
/// What the programs run (`kds run`, `kds_spheres`, the hard-sphere benchmark): spheres in
/// a walled box whose contacts are found exactly by a structure chosen by name
/// (structures/sphere_worlds.hpp). Two models of the interface:
///   - CollisionWorldModel (collision_world_model.hpp): the collision world over a
///     registered broad phase (all-pairs, tvb-grid, ...), driven by its own
///     kds::Simulator;
///   - HardSphereWorldModel (structures/hard_spheres/hard_sphere_world_model.hpp):
///     HardSphereWorld, one scheduled event per sphere and its own event loop
///     ("hard-spheres"): ballistic spheres without gravity, the elastic response.
/// On the scenes both accept they log the same contacts at the same times (the tests run
/// the programs with both and compare the files byte for byte).
///
/// A program asks the world for what it needs; what only a simulator-driven world has
/// (its simulator's events for traces and replays, the collision world itself for the
/// planar response and the viewer's drawings) comes through simulator() and
/// collision_world(), which are null for a world without them, so the program can name
/// the setting it cannot honour.

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "kds/config.hpp"
#include "kds/number_types.hpp"
#include "structures/collision/contact.hpp"
#include "structures/collision/sphere.hpp"

namespace kds {

class Simulator;
class CollisionWorld;

/// How a program wants a sphere world built, besides the collision world's settings.
struct SphereWorldOptions {
  /// Floating-point-only mode, to measure the cost of exactness: simulator-driven worlds
  /// only (hard-spheres refuses it: it has no such mode).
  Exactness exactness = Exactness::filtered;
  /// Check the structure against a static computation after every event (at a double
  /// strictly between it and the next; skipped where none lies between) and at the end
  /// of every run_until; hard-spheres also after the setup.
  bool audit = config::validating_build;
};

class SphereWorld {
 public:
  /// Told the time reached and the number of events processed so far, as the run goes:
  /// after every event (the count events() gives then, one more each time). For progress
  /// lines and event budgets; it may throw to abandon the run (the world is then to be
  /// discarded).
  using ProgressObserver = std::function<void(double time, std::uint64_t events)>;

  virtual ~SphereWorld() = default;

  /// The structure's name, as make_sphere_world takes it.
  virtual const std::string& structure() const = 0;
  virtual std::size_t size() const = 0;
  /// The time of the last event, or the last run_until target.
  virtual double now() const = 0;
  /// Processes every event at or before t, then sets the clock to t (t >= now()).
  virtual void run_until(double t) = 0;
  /// The state of a sphere at t >= its last motion change, in the user's coordinates: the
  /// exact motion of a ballistic sphere; for an unknown trajectory the centre of its bound
  /// (the program's integrator knows the true state).
  virtual SphereState state(SphereId id, double t) const = 0;
  /// 0.5 m |v|^2 summed over the ballistic spheres at t.
  virtual double kinetic_energy(double t) const = 0;
  /// Contacts so far, in the order processed.
  virtual const std::vector<Contact>& contacts() const = 0;
  virtual std::uint64_t sphere_contacts() const = 0;
  virtual std::uint64_t wall_contacts() const = 0;
  /// Probes of unknown trajectories (0 for a structure that takes ballistic spheres only).
  virtual std::uint64_t probes() const = 0;
  /// Events processed: certificate failures of a simulator; contact events and cell
  /// crossings of hard-spheres. Not const, nor are the statistics below: a simulator
  /// brings its counters up to date first.
  virtual std::uint64_t events() = 0;
  /// Called after each contact is resolved, in the order of registration.
  virtual void on_contact(std::function<void(const Contact&)> f) = 0;
  virtual void on_progress(ProgressObserver f) = 0;

  /// "Events by type:" then one line per kind, most frequent first, and the total.
  virtual void write_events(std::ostream& out) = 0;
  /// The structure's own figures after the run, a few lines: how often the exact path ran,
  /// the audits, and what the structure measures of itself (the KDS quality criteria for
  /// a simulator; stale events and cell crossings for hard-spheres).
  virtual void write_statistics(std::ostream& out) = 0;

  /// The simulator driving the world, or null (hard-spheres): traces, replays and other
  /// observers of events need one.
  virtual Simulator* simulator() { return nullptr; }
  /// The collision world, or null (hard-spheres): a user's response, the broad phase's
  /// drawings and the bodies' motions need one.
  virtual CollisionWorld* collision_world() { return nullptr; }
};

}  // namespace kds
