#pragma once
/// \file
/// Random forces within the bound (the paper's first experiment, section 4.2): on every
/// piece of length h each sphere gets an acceleration of random direction and random
/// magnitude in [0, A_i), from a std::mt19937_64 per sphere seeded from (seed, sphere id),
/// so that a sphere's forces do not depend on the order in which kds probes the spheres.
///
/// For the error test, a Misbehaviour makes one sphere break its promise: from a given
/// time on, its accelerations have a given magnitude above its bound.

#include <cstdint>
#include <optional>
#include <random>

#include "structures/collision/trajectories/piecewise_probe.hpp"

namespace kds {

struct Misbehaviour {
  SphereId sphere = 0;
  double from_time = 0;  ///< pieces starting at or after this time misbehave
  double magnitude = 0;  ///< |a| of those pieces (above the sphere's bound, to be useful)
};

class PiecewiseAccelerationProbe final : public PiecewiseProbe {
 public:
  PiecewiseAccelerationProbe(const std::vector<Sphere>& spheres, double piece_length, std::uint64_t seed,
                             std::optional<Misbehaviour> misbehaviour = std::nullopt, double start = 0);

 protected:
  Vec<3> acceleration(SphereId sphere, std::uint64_t slot, double t, const SphereState& s) override;

 private:
  struct Draw {
    std::mt19937_64 engine;
    bool seeded = false;
    bool has_slot = false;
    std::uint64_t slot = 0;
    Vec<3> direction{};   ///< unit vector of the current slot
    double fraction = 0;  ///< |a| / A of the current slot, in [0, 1)
  };
  /// The slot's direction and fraction: drawn once per slot, reused by the pieces that
  /// set_velocity starts inside it, so that the forces do not depend on the collisions.
  Draw& draw(SphereId sphere, std::uint64_t slot);

  std::vector<Draw> draws_;
  std::vector<double> bound_;
  std::uint64_t seed_;
  std::optional<Misbehaviour> misbehaviour_;
};

}  // namespace kds
