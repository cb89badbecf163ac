#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"

#include <cmath>

#include "kds/errors.hpp"

namespace kds {
namespace {

/// A double uniform in [0, 1) from the engine's raw bits: the same on every standard
/// library (the std distributions are not specified bit for bit).
double unit(std::mt19937_64& e) { return static_cast<double>(e() >> 11) * 0x1.0p-53; }

/// SplitMix64's finalizer: decorrelates the seeds of neighbouring sphere ids.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Rounding of the product direction * magnitude may exceed the magnitude by a few ulps;
/// this factor keeps |a| strictly below the bound.
constexpr double kSafety = 1 - 1e-12;

}  // namespace

PiecewiseAccelerationProbe::PiecewiseAccelerationProbe(const std::vector<Sphere>& spheres, double piece_length,
                                                       std::uint64_t seed, std::optional<Misbehaviour> misbehaviour,
                                                       double start)
    : PiecewiseProbe(spheres, piece_length, start), draws_(spheres.size()), seed_(seed), misbehaviour_(misbehaviour) {
  bound_.reserve(spheres.size());
  for (const Sphere& s : spheres) {
    if (!(s.max_acceleration >= 0) || !std::isfinite(s.max_acceleration))
      throw InvalidInput("probe: acceleration bound of sphere " + std::to_string(bound_.size()) +
                         " must be finite and >= 0");
    bound_.push_back(s.max_acceleration);
  }
  if (misbehaviour_ && misbehaviour_->sphere >= spheres.size())
    throw InvalidInput("probe: misbehaving sphere " + std::to_string(misbehaviour_->sphere) + " does not exist");
}

PiecewiseAccelerationProbe::Draw& PiecewiseAccelerationProbe::draw(SphereId sphere, std::uint64_t slot) {
  Draw& d = draws_[sphere];
  if (!d.seeded) {
    d.engine.seed(mix(seed_ ^ mix(sphere)));
    d.seeded = true;
  }
  if (!d.has_slot || d.slot != slot) {
    // Uniform direction: rejection from the cube [-1, 1]^3 to the unit ball.
    double n2 = 0;
    Vec<3> u{};
    do {
      for (double& c : u) c = 2 * unit(d.engine) - 1;
      n2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    } while (n2 > 1 || n2 < 1e-6);
    const double n = std::sqrt(n2);
    for (int k = 0; k < 3; ++k) d.direction[k] = u[k] / n;
    d.fraction = unit(d.engine);
    d.slot = slot;
    d.has_slot = true;
  }
  return d;
}

Vec<3> PiecewiseAccelerationProbe::acceleration(SphereId sphere, std::uint64_t slot, double t, const SphereState&) {
  const Draw& d = draw(sphere, slot);
  double magnitude = bound_[sphere] * d.fraction * kSafety;
  if (misbehaviour_ && misbehaviour_->sphere == sphere && t >= misbehaviour_->from_time)
    magnitude = misbehaviour_->magnitude;
  return {d.direction[0] * magnitude, d.direction[1] * magnitude, d.direction[2] * magnitude};
}

}  // namespace kds
