#pragma once
/// \file
/// The scenes of the event-cost benchmark that more than one file runs: the timed runs
/// (runs.cpp) and the validation against the all-pairs reference (validation.cpp).

#include <cstdint>
#include <utility>
#include <vector>

#include "examples/paper_experiment/paper_scene.hpp"
#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::bench {

/// Kim, Guibas and Shin's scene at n spheres (the box grown beyond 3500 spheres, as in
/// bench/tvb_grid), with unknown trajectories or with A = 0 on the same spheres.
inline std::pair<std::vector<Sphere>, Box3> paper_scene(std::size_t n, std::uint64_t seed, bool ballistic) {
  paper::PaperScene scene;
  scene.n = n;
  scene.seed = seed;
  scene.box_side = n <= 3500 ? 200.0 : paper::box_side_at_paper_density(n);
  std::vector<Sphere> spheres = paper::paper_spheres(scene);
  if (ballistic)
    for (Sphere& sp : spheres) sp.max_acceleration = 0;
  return {spheres, paper::cube(scene.box_side)};
}

}  // namespace kds::bench
