#pragma once
/// \file
/// The integrator kds does not see, in its simplest exact form: every sphere moves with a
/// constant acceleration on pieces [start + k h, start + (k + 1) h), chosen by a subclass
/// at the start of each piece, and kds's velocity changes (collisions, wall bounces) start
/// a new piece at their time. Trajectories are realized lazily, sphere by sphere, as kds
/// probes them, and recorded (trajectory()) for the checker.

#include <cstdint>
#include <vector>

#include "structures/collision/sphere.hpp"
#include "structures/collision/trajectory_probe.hpp"
#include "structures/collision/trajectories/trajectory_piece.hpp"

namespace kds {

class PiecewiseProbe : public TrajectoryProbe {
 public:
  /// The spheres' positions and velocities at time `start`; `piece_length` h > 0.
  PiecewiseProbe(const std::vector<Sphere>& spheres, double piece_length, double start = 0);

  /// The state at t >= start. Any time may be asked (the past is read from the record).
  SphereState state(SphereId sphere, double t) override;
  /// Starts a new piece at t with velocity v (the same piece boundaries afterwards). t must
  /// not precede the start of the sphere's last piece: history is not rewritten.
  void set_velocity(SphereId sphere, double t, const Vec<3>& velocity) override;

  /// Realizes every trajectory up to t, so that the checker sees all of them to there.
  void realize_until(double t);
  /// The pieces realized so far (at least the first one).
  const Trajectory& trajectory(SphereId sphere);
  std::size_t size() const { return spheres_.size(); }
  double piece_length() const { return h_; }
  double start() const { return start_; }
  double max_acceleration(SphereId sphere) const { return spheres_[sphere].max_acceleration; }

 protected:
  /// The acceleration of a new piece of `sphere` starting at time t in state s; `slot` is k
  /// for the interval [start + k h, start + (k + 1) h) that contains t (pieces started by
  /// set_velocity share the slot of the piece they interrupt). Slots of a sphere are asked
  /// in non-decreasing order.
  virtual Vec<3> acceleration(SphereId sphere, std::uint64_t slot, double t, const SphereState& s) = 0;

 private:
  struct Record {
    Trajectory pieces;
    std::uint64_t slot = 0;  ///< slot of the last piece
  };
  double boundary(std::uint64_t slot) const { return start_ + static_cast<double>(slot) * h_; }
  Record& record(SphereId sphere);
  /// Appends regular pieces until the last one contains t.
  void extend(SphereId sphere, double t);

  std::vector<Sphere> spheres_;
  std::vector<Record> records_;
  double h_;
  double start_;
};

}  // namespace kds
