#pragma once
/// \file
/// Sphere worlds by name (structures/collision/sphere_world.hpp): what `kds run
/// --structure NAME`, the scenario field "structure", `kds_spheres --broad-phase NAME` and
/// the hard-sphere benchmark accept. Every registered broad phase
/// (structures/collision/broad_phase_registry.hpp) names the collision world over it;
/// "hard-spheres" names HardSphereWorld (structures/hard_spheres), which is not a broad
/// phase. Like broad_phases.cpp, this file knows the structure folders so that the
/// collision layer does not.

#include <memory>
#include <string>
#include <vector>

#include "structures/collision/collision_world.hpp"
#include "structures/collision/sphere_world.hpp"

namespace kds {

/// Every name make_sphere_world accepts, sorted: the registered broad phases and
/// "hard-spheres".
std::vector<std::string> sphere_world_names();

/// The names as a list for messages and help texts: "all-pairs, box-overlap, ...".
std::string sphere_world_list();

/// A world of that structure over the spheres, its first events computed. `settings`
/// holds the scene (box, gravity, restitution, contact tolerance) and the broad phase's
/// tuning (cell_ratio, the probe of unknown trajectories); its broad_phase is replaced by
/// `structure`. InvalidInput naming the known structures if there is none of that name,
/// or as the structure's constructor (the spheres, a setting the structure cannot honour).
std::unique_ptr<SphereWorld> make_sphere_world(const std::string& structure, const CollisionWorldSettings& settings,
                                               const std::vector<Sphere>& spheres, const SphereWorldOptions& options = {});

}  // namespace kds
