#pragma once
/// \file
/// The plane the balls roll on: the floor of the collision world's box, z = box.lo.z. A
/// ball rolls on it when its centre stays at height floor + r exactly: the z-coordinate of
/// its motion is the constant floor + r (checked in exact rationals), so its tangency
/// point (x(t), y(t)) moves in the plane with the motion's polynomial x and y. Two such
/// balls touch exactly when their tangency points are 2 sqrt(r_i r_j) apart, which the
/// threshold boxes rely on; a ball a little above or below the floor would break that.

#include <string>

#include "kds/motion.hpp"
#include "structures/collision/box.hpp"

namespace kds {

/// Why a ball of radius r with this centre motion does not roll on the floor of `box`
/// (empty when it does): not tangent to it, or a vertical velocity or acceleration. The
/// motion and the box are in the world's local frame (CollisionWorld::box(), whose origin
/// is `origin_z` on the z axis); the message gives heights in the user's frame.
std::string rolling_problem(const Motion<3>& centre, double radius, const Box3& box, double origin_z);

}  // namespace kds
