#pragma once
/// \file
/// HardSphereWorld as a SphereWorld (structures/collision/sphere_world.hpp): the structure
/// "hard-spheres" of the programs. It calls only HardSphereWorld's public interface.
///
/// What it cannot do, it refuses with an InvalidInput naming the setting: the
/// floating-point-only mode (HardSphereWorld is exact only), and, through
/// HardSphereWorld's constructor, gravity, unknown trajectories and polytopes. It has no
/// simulator and no collision world (simulator() and collision_world() are null), so
/// programs refuse traces, replays and user responses for it. As a simulator-driven world
/// does, it tells progress observers of every event (HardSphereWorld::on_event: contact
/// events and cell crossings), so that a budget of N events stops the run at event N + 1,
/// and, when the options ask for audits, audits after every event (at a double strictly
/// between it and the next; skipped where none lies between) and at the end of every
/// run_until.

#include <string>
#include <vector>

#include "structures/collision/sphere_world.hpp"
#include "structures/hard_spheres/hard_sphere_world.hpp"

namespace kds {

class HardSphereWorldModel final : public SphereWorld {
 public:
  /// The name programs know it by.
  static constexpr const char* name = HardSphereWorld::structure_name;

  HardSphereWorldModel(const CollisionWorldSettings& settings, const std::vector<Sphere>& spheres,
                       const SphereWorldOptions& options);

  const std::string& structure() const override { return name_; }
  std::size_t size() const override { return world_.size(); }
  double now() const override { return world_.now(); }
  /// HardSphereWorld::run_until, then its audit if the options ask for audits.
  void run_until(double t) override;
  SphereState state(SphereId id, double t) const override { return world_.state(id, t); }
  double kinetic_energy(double t) const override { return world_.kinetic_energy(t); }
  const std::vector<Contact>& contacts() const override { return world_.contacts(); }
  std::uint64_t sphere_contacts() const override { return world_.sphere_contacts(); }
  std::uint64_t wall_contacts() const override { return world_.wall_contacts(); }
  std::uint64_t probes() const override { return 0; }
  /// Contact events (pairs and walls, contacts or not) and cell crossings.
  std::uint64_t events() override { return world_.stats().events + world_.stats().cell_crossings; }
  void on_contact(std::function<void(const Contact&)> f) override { world_.on_contact(std::move(f)); }
  /// Called after every event (contact events and cell crossings) with its time and the
  /// events so far.
  void on_progress(ProgressObserver f) override;
  void write_events(std::ostream& out) override;
  /// HardSphereStats: stale events, the failure windows and instants and how many needed
  /// kds's exact path, the audits.
  void write_statistics(std::ostream& out) override;

  const HardSphereWorld& world() const { return world_; }
  /// Audits passed (after the setup, after events, at the ends of run_until) and skipped
  /// (after an event with no double before the next).
  std::uint64_t audits() const { return audits_; }
  std::uint64_t audits_skipped() const { return audits_skipped_; }

 private:
  void after_event();  // audits and progress observers (HardSphereWorld::on_event)
  void observe_events();  // registers after_event once

  std::string name_ = name;
  HardSphereWorld world_;
  bool audit_ = false;
  bool observing_ = false;
  std::uint64_t audits_ = 0, audits_skipped_ = 0;
  std::vector<ProgressObserver> progress_;
};

}  // namespace kds
