#include "structures/rolling_balls/rolling_plane.hpp"

#include "kds/number_types.hpp"
#include "structures/collision/io/number_text.hpp"

namespace kds {

std::string rolling_problem(const Motion<3>& centre, double radius, const Box3& box, double origin_z) {
  using text::shortest;
  const auto& z = centre.coefficients(2);
  // The local frame's shift is exact (local_origin), so the test in it is the test in the
  // user's frame, and adding the origin back gives the user's coordinates exactly.
  const double floor = box.lo[2] + origin_z;
  if (!(radius > 0)) return "its radius " + shortest(radius) + " is not positive";
  // z0 - r == lo exactly, without rationals (this runs at every collision): s + e is
  // z0 - r exactly (Knuth's two-sum), so the difference is lo exactly when s is lo and the
  // rounding lost nothing.
  const double s = z[0] - radius;
  const double back = s - z[0];
  const double e = (z[0] - (s - back)) + (-radius - back);
  if (!(s == box.lo[2] && e == 0))
    return "it is not tangent to the plane z = " + shortest(floor) + ": its centre is at height " +
           shortest(z[0] + origin_z) + " with radius " + shortest(radius) +
           " (the centre must be at exactly z = floor + radius)";
  if (z[1] != 0) return "it leaves the plane z = " + shortest(floor) + ": vertical velocity " + shortest(z[1]);
  if (z[2] != 0 || z[3] != 0)
    return "it leaves the plane z = " + shortest(floor) + ": vertical acceleration " + shortest(2 * z[2]) +
           " (gravity must lie in the plane)";
  return {};
}

}  // namespace kds
