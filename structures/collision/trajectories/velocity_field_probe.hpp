#pragma once
/// \file
/// Particles driven by a velocity field (the paper's section 4.3): they rise along the
/// box's central vertical axis, spread under the top face, sink along the side faces and
/// gather again over the bottom face.
///
/// The field, with z up, (cx, cy) the centre of the box's horizontal section, R half its
/// smaller horizontal side, H its height, rho the horizontal distance from the central
/// axis, q = min(rho / R, 1) and z' = (z - z0) / H clamped to [0, 1]:
///     u_z   =  U cos(pi q) sin(pi z')                  up near the axis, down at the sides
///     u_rho = -U (R / H) sin(pi q) cos(pi z')          inwards at the bottom, out at the top
/// i.e. the planar stream function psi = U R / pi sin(pi q) sin(pi z') in the (rho, z)
/// half-plane: one roll, turning about the central axis. Beyond q = 1 (the box's corners)
/// the field sinks straight down. It vanishes on the top and bottom faces' centre lines.
///
/// A particle's acceleration is a relaxation towards the field, k (u(x) - v), clamped to
/// its bound A (the paper uses A = 30 for every particle), and held constant on each piece
/// of length h (see PiecewiseProbe): exact piecewise-quadratic motion within the bound.

#include "structures/collision/box.hpp"
#include "structures/collision/trajectories/piecewise_probe.hpp"

namespace kds {

struct CirculationField {
  Box3 box;
  double speed = 40;  ///< U, the field's largest speed
};

/// The field's velocity at x.
Vec<3> circulation_velocity(const CirculationField& field, const Vec<3>& x);

class VelocityFieldProbe final : public PiecewiseProbe {
 public:
  /// `rate` k > 0 (1/s): how fast a particle's velocity relaxes towards the field.
  VelocityFieldProbe(const std::vector<Sphere>& spheres, const CirculationField& field, double piece_length = 0.05,
                     double rate = 2.0, double start = 0);
  const CirculationField& field() const { return field_; }

 protected:
  Vec<3> acceleration(SphereId sphere, std::uint64_t slot, double t, const SphereState& s) override;

 private:
  CirculationField field_;
  double rate_;
  std::vector<double> bound_;
};

}  // namespace kds
