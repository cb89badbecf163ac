#pragma once
/// \file
/// The scenes of the event-cost benchmark that more than one file runs: the timed runs
/// (runs.cpp) and the validation against the all-pairs reference (validation.cpp).

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "bench/tvb_grid/lattice_scene.hpp"

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

/// The hard-sphere scene: the lattice start (bench/tvb_grid/lattice_scene.hpp), its spheres
/// numbered along the lattice's rows, or, `shuffled`, in a random order (seeded by `seed`),
/// as a scene read from elsewhere may be: the same spheres, which the codes hold in
/// memory in the order of their ids (kds's hard-sphere path renumbers them by cell).
inline LatticeScene hard_sphere_scene(std::size_t n, double phi, std::uint64_t seed, bool shuffled) {
  LatticeScene scene = lattice_spheres(n, phi, seed);
  if (shuffled) {
    std::mt19937_64 rng(seed ^ 0x5348554646ull);
    for (std::size_t i = scene.spheres.size(); i > 1; --i)  // Fisher-Yates, the same on every library
      std::swap(scene.spheres[i - 1], scene.spheres[static_cast<std::size_t>(rng() % i)]);
  }
  return scene;
}

}  // namespace kds::bench
