#include "structures/collision/trajectories/piecewise_probe.hpp"

#include <cmath>
#include <string>

#include "kds/errors.hpp"

namespace kds {

PiecewiseProbe::PiecewiseProbe(const std::vector<Sphere>& spheres, double piece_length, double start)
    : spheres_(spheres), records_(spheres.size()), h_(piece_length), start_(start) {
  if (!(piece_length > 0) || !std::isfinite(piece_length))
    throw InvalidInput("probe: piece length must be positive and finite, got " + std::to_string(piece_length));
  if (!std::isfinite(start)) throw InvalidInput("probe: start time must be finite");
}

PiecewiseProbe::Record& PiecewiseProbe::record(SphereId sphere) {
  if (sphere >= records_.size())
    throw InvalidInput("probe: unknown sphere " + std::to_string(sphere) + " (" + std::to_string(records_.size()) +
                       " spheres)");
  Record& r = records_[sphere];
  // The first piece is made on first use, not in the constructor: it needs the subclass.
  if (r.pieces.empty()) {
    const Sphere& s = spheres_[sphere];
    r.pieces.push_back({start_, s.position, s.velocity, acceleration(sphere, 0, start_, {s.position, s.velocity})});
  }
  return r;
}

void PiecewiseProbe::extend(SphereId sphere, double t) {
  Record& r = record(sphere);
  while (boundary(r.slot + 1) <= t) {
    const double b = boundary(++r.slot);
    const Motion<3> m = r.pieces.back().motion();
    const SphereState s{m.position(b), m.velocity(b)};
    r.pieces.push_back({b, s.position, s.velocity, acceleration(sphere, r.slot, b, s)});
  }
}

SphereState PiecewiseProbe::state(SphereId sphere, double t) {
  if (!(t >= start_))
    throw InvalidInput("probe: state of sphere " + std::to_string(sphere) + " asked at t = " + std::to_string(t) +
                       ", before the start " + std::to_string(start_));
  extend(sphere, t);
  const Motion<3> m = piece_at(records_[sphere].pieces, t).motion();
  return {m.position(t), m.velocity(t)};
}

void PiecewiseProbe::set_velocity(SphereId sphere, double t, const Vec<3>& velocity) {
  for (double c : velocity)
    if (!std::isfinite(c)) throw InvalidInput("probe: non-finite velocity set for sphere " + std::to_string(sphere));
  if (!(t >= start_)) throw InvalidInput("probe: velocity of sphere " + std::to_string(sphere) + " set before the start");
  extend(sphere, t);
  Record& r = records_[sphere];
  TrajectoryPiece& last = r.pieces.back();
  if (t < last.start)
    throw InvalidInput("probe: velocity of sphere " + std::to_string(sphere) + " set at t = " + std::to_string(t) +
                       ", before its last piece at " + std::to_string(last.start) + " (history is not rewritten)");
  if (t == last.start) {
    last.velocity = velocity;
    last.acceleration = acceleration(sphere, r.slot, t, {last.position, velocity});
    return;
  }
  const Vec<3> x = last.position_at(t);
  r.pieces.push_back({t, x, velocity, acceleration(sphere, r.slot, t, {x, velocity})});
}

void PiecewiseProbe::realize_until(double t) {
  for (SphereId i = 0; i < records_.size(); ++i) extend(i, t);
}

const Trajectory& PiecewiseProbe::trajectory(SphereId sphere) { return record(sphere).pieces; }

}  // namespace kds
