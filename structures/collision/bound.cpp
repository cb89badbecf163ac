#include "structures/collision/bound.hpp"

#include <string>

#include "kds/errors.hpp"
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

}  // namespace kds
