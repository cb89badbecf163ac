#include "structures/collision/bound.hpp"

#include <string>

#include "kds/errors.hpp"
#include "kds/interval.hpp"
#include "kds/line.hpp"
#include "structures/collision/geometry.hpp"
#include "structures/collision/io/number_text.hpp"

namespace kds {

void check_within_bound(SphereId id, const Bound& bound, const Motion<3>& centre, double t, const SphereState& s) {
  using text::shortest;
  const double dt = t - bound.reset_time;
  const Vec<3> predicted = centre.position(t);
  const double allowed = 0.5 * bound.acceleration * dt * dt;
  const double drift = norm(sub(s.position, predicted));
  // The slack covers the integrator's own rounding, nothing more.
  const double slack = 1e-9 * (1 + norm(predicted)) + 1e-12 * allowed;
  if (drift > allowed + slack)
    throw InvalidInput("sphere " + std::to_string(id) + " broke its acceleration bound A = " +
                       shortest(bound.acceleration) + ": at t = " + shortest(t) + " its centre is " + shortest(drift) +
                       " from the predicted centre, " + shortest(drift - allowed) + " more than A/2 (t - t0)^2 = " +
                       shortest(allowed));
  const double dv = norm(sub(s.velocity, centre.velocity(t)));
  const double allowed_v = bound.acceleration * dt;
  if (dv > allowed_v + 1e-9 * (1 + norm(s.velocity)))
    throw InvalidInput("sphere " + std::to_string(id) + " broke its acceleration bound A = " +
                       shortest(bound.acceleration) + ": at t = " + shortest(t) + " its velocity changed by " +
                       shortest(dv) + " since t0, more than A (t - t0) = " + shortest(allowed_v));
}

bool restarts_inside(const Bound& bound, const Motion<3>& centre, double t, const SphereState& s) {
  constexpr double u = 0x1p-53;
  // A below 2^-1000 would make the products below subnormal, where the error bounds
  // are absolute: it proves nothing (and such a bound never grows in practice).
  if (!(bound.acceleration >= 0x1p-1000) || !(t > bound.reset_time)) return false;
  const double tau = next_down(t - bound.reset_time);  // t - t0 from below
  if (!(tau > 0)) return false;
  // A/2 tau^2 and A tau from below, squared from below: products rounded to nearest,
  // each stepped down once (a subnormal result too: its rounding error is at most half
  // the step).
  const double reach_x = next_down(next_down(0.5 * bound.acceleration * tau) * tau);
  const double reach_v = next_down(bound.acceleration * tau);
  const double limit_x = next_down(reach_x * reach_x), limit_v = next_down(reach_v * reach_v);
  double dx2 = 0, dv2 = 0;  // |s.position - centre(t)|^2 and |s.velocity - v|^2 from above
  for (int k = 0; k < 3; ++k) {
    StoredLine line;
    if (!centre.stored_line(k, line)) return false;
    // centre(t) = x + v (t - t_line) in doubles: h, m = v h, x + m and the difference each
    // rounded once (relative u each), so the computed difference is within
    // 4u (|x| + |m| + |p|) of the exact one (|h|'s rounding enters m's as u |m|), and
    // 2^-1070 covers a product that fell below the normal range.
    const double p = s.position[k], h = t - line.t0, m = line.v * h, c = line.x + m;
    const double e = 8 * u * (std::fabs(line.x) + std::fabs(m) + std::fabs(p)) + 0x1p-1070;
    const double dx = next_up(std::fabs(p - c) + e);
    dx2 = next_up(dx2 + next_up(dx * dx));
    const double dv = next_up(next_up(std::fabs(s.velocity[k] - line.v)) * (1 + 4 * u));
    dv2 = next_up(dv2 + next_up(dv * dv));
  }
  return std::isfinite(dx2) && std::isfinite(dv2) && dx2 <= limit_x && dv2 <= limit_v;
}

}  // namespace kds
