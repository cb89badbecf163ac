// Sphere worlds by name (structures/sphere_worlds.hpp): the structures that are not
// broad phases, one line each, and the collision world over every registered broad phase.
#include "structures/sphere_worlds.hpp"

#include <algorithm>

#include "kds/errors.hpp"
#include "structures/collision/broad_phase_registry.hpp"
#include "structures/collision/collision_world_model.hpp"
#include "structures/hard_spheres/hard_sphere_world_model.hpp"

namespace kds {
namespace {

using Make = std::unique_ptr<SphereWorld> (*)(const CollisionWorldSettings&, const std::vector<Sphere>&,
                                              const SphereWorldOptions&);

template <class Model>
std::unique_ptr<SphereWorld> make(const CollisionWorldSettings& settings, const std::vector<Sphere>& spheres,
                                  const SphereWorldOptions& options) {
  return std::make_unique<Model>(settings, spheres, options);
}

struct Standalone {
  const char* name;
  Make make;
};

/// The structures with an event loop of their own, found before the broad phases.
constexpr Standalone kStandalone[] = {
    {HardSphereWorldModel::name, make<HardSphereWorldModel>},  // one event per sphere: ballistic, no gravity
};

}  // namespace

std::vector<std::string> sphere_world_names() {
  std::vector<std::string> names = broad_phase_names();
  for (const Standalone& s : kStandalone)
    if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
  std::sort(names.begin(), names.end());
  return names;
}

std::string sphere_world_list() {
  std::string list;
  for (const std::string& n : sphere_world_names()) list += (list.empty() ? "" : ", ") + n;
  return list;
}

std::unique_ptr<SphereWorld> make_sphere_world(const std::string& structure, const CollisionWorldSettings& settings,
                                               const std::vector<Sphere>& spheres, const SphereWorldOptions& options) {
  for (const Standalone& s : kStandalone)
    if (structure == s.name) return s.make(settings, spheres, options);
  const std::vector<std::string> broad = broad_phase_names();
  if (std::find(broad.begin(), broad.end(), structure) == broad.end())
    throw InvalidInput("unknown structure '" + structure + "' (known: " + sphere_world_list() + ")");
  CollisionWorldSettings s = settings;
  s.broad_phase = structure;
  return make<CollisionWorldModel>(s, spheres, options);
}

}  // namespace kds
