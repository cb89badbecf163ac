#include "structures/collision/all_pairs.hpp"

#include "structures/collision/collision_world.hpp"

namespace kds {

void AllPairs::start(CollisionWorld& world) { spheres_ = static_cast<SphereId>(world.size()); }

void AllPairs::candidates(SphereId id, std::vector<SphereId>& out) {
  for (SphereId j = 0; j < spheres_; ++j)
    if (j != id) out.push_back(j);
}

}  // namespace kds
