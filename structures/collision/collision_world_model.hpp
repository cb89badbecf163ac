#pragma once
/// \file
/// The collision world over a registered broad phase as a SphereWorld (sphere_world.hpp):
/// it owns the kds::Simulator that drives it, so that a program names a broad phase and
/// gets a running world.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kds/observer.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/sphere_world.hpp"

namespace kds {

class CollisionWorldModel final : public SphereWorld {
 public:
  /// A simulator with the options' exactness and audit, and a collision world over the
  /// broad phase `settings.broad_phase`, whose first failure times are computed here
  /// (InvalidInput as CollisionWorld's constructor).
  CollisionWorldModel(const CollisionWorldSettings& settings, const std::vector<Sphere>& spheres,
                      const SphereWorldOptions& options);
  ~CollisionWorldModel() override;

  const std::string& structure() const override { return world_->settings().broad_phase; }
  std::size_t size() const override { return world_->size(); }
  double now() const override { return sim_.now_approx(); }
  /// Simulator::run_until; a NoProgress is thrown again with the spheres of its bodies
  /// named in the message ("(spheres 0, 1 and 4)").
  void run_until(double t) override;
  SphereState state(SphereId id, double t) const override { return world_->state(id, t); }
  double kinetic_energy(double t) const override { return world_->kinetic_energy(t); }
  const std::vector<Contact>& contacts() const override { return world_->contacts(); }
  std::uint64_t sphere_contacts() const override { return world_->sphere_contacts(); }
  std::uint64_t wall_contacts() const override { return world_->wall_contacts(); }
  std::uint64_t probes() const override { return world_->probes(); }
  std::uint64_t events() override { return sim_.statistics().events; }
  void on_contact(std::function<void(const Contact&)> f) override { world_->on_contact(std::move(f)); }
  void on_progress(ProgressObserver f) override;
  /// The simulator's events by certificate kind.
  void write_events(std::ostream& out) override;
  /// The solver's exact fallbacks, the audits and the four KDS quality criteria.
  void write_statistics(std::ostream& out) override;
  Simulator* simulator() override { return &sim_; }
  CollisionWorld* collision_world() override { return &*world_; }

 private:
  /// Forwards every event to the progress observers.
  class Forward final : public Observer {
   public:
    explicit Forward(CollisionWorldModel& model) : model_(model) {}
    void on_event(const EventRecord& e) override;

   private:
    CollisionWorldModel& model_;
  };

  Simulator sim_;
  std::optional<CollisionWorld> world_;  // after sim_: it holds bodies of the simulator
  Forward forward_{*this};
  std::vector<ProgressObserver> progress_;
};

}  // namespace kds
