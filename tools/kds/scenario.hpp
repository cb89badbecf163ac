#pragma once
/// \file
/// A scenario: everything `kds run` needs to run a simulation of spheres in a box, as
/// read from (and written to) a JSON scenario file. docs/scenario-json.md specifies the
/// file: units, every field, defaults.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::cli {

/// The version of the scenario format this kds reads and writes (field "kds_scenario").
inline constexpr std::uint64_t scenario_version = 1;

/// Who moves the spheres with max_acceleration > 0 (unknown trajectories): an integrator
/// that kds does not see and only probes (structures/collision/trajectories/).
struct Trajectories {
  enum class Kind {
    ballistic,      ///< no integrator: every sphere must have max_acceleration 0
    random_forces,  ///< the paper's random forces: a new one of random direction and magnitude every `interval`
    circulation,    ///< the circulating velocity field of the paper's section 4.3
  };
  Kind kind = Kind::ballistic;
  double interval = 0.1;      ///< random_forces: seconds between force changes
  std::uint64_t seed = 1;     ///< random_forces: seed of the forces
  double speed = 40;          ///< circulation: the field's largest speed
  double rate = 2;            ///< circulation: how fast a particle relaxes to the field (1/s)
  double piece_length = 0.05; ///< circulation: seconds between the integrator's steps
};

/// "ballistic", "random-forces", "circulation": the names in scenario files.
const char* trajectories_name(Trajectories::Kind kind);

/// How two spheres that touch change their velocities.
enum class Response {
  elastic,  ///< the collision world's default: an impulse along the line of centres (with restitution)
  planar,   ///< the impulse along the line of centres projected into the plane z = const
            ///< (structures/rolling_balls/planar_response.hpp): balls of different radii
            ///< rolling on a floor stay on it
};

/// "elastic", "planar": the names in scenario files.
const char* response_name(Response response);

struct Scenario {
  std::string name;          ///< short name (optional)
  std::string description;   ///< one sentence for people (optional)
  std::string generated_by;  ///< the command that wrote the file, if one did
  Box3 box;
  Vec<3> gravity{0, 0, 0};
  double restitution = 1;
  Response response = Response::elastic;
  std::optional<double> contact_tolerance;  ///< empty: the collision world's default
  double until = 1;                         ///< how long `kds run` simulates by default
  std::string structure = "tvb-grid";       ///< a name of sphere_world_names(): a broad phase or hard-spheres
  double cell_ratio = 0;                    ///< 0: chosen by the cost model
  Trajectories trajectories;
  std::vector<Sphere> spheres;
};

}  // namespace kds::cli
