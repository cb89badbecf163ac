#pragma once
/// \file
/// The scenes of the papers as scenarios (`kds generate KIND`): the experiment of Kim,
/// Guibas and Shin (a box of spheres with unknown trajectories, or ballistic ones), their
/// circulating particles, a pool break, "bullet through paper", the asteroid field and
/// rolling marbles. Each generator is
/// deterministic: the same options give the same file on every platform.

#include <cstdint>
#include <string>

#include "tools/kds/scenario.hpp"

namespace kds::cli {

/// Kim, Guibas, Shin section 4.2 (examples/paper_experiment): n spheres in a 200^3 box,
/// radii in [0.1, 10], speeds in [2.5 sqrt 3, 25 sqrt 3], acceleration bounds in [10, 20]
/// under random forces (or none: ballistic).
struct PaperBoxOptions {
  std::size_t n = 500;
  std::uint64_t seed = 1;
  bool ballistic = false;
  double force_interval = 0.1;
  double until = 2;
};
Scenario paper_box(const PaperBoxOptions& o);

/// Kim, Guibas, Shin section 4.3 (examples/circulating_particles): particles of radii 1 to
/// 10 and |a| <= 30 carried by a circulating velocity field in a 200^3 box.
struct CirculatingOptions {
  std::size_t n = 1000;
  std::uint64_t seed = 1;
  double until = 2.8;
};
Scenario circulating(const CirculatingOptions& o);

/// A frictionless pool break (examples/pool_break, SI units): a cue ball and a triangle of
/// 15 balls on a 9-foot table, or a tetrahedron of 20 in a box (`space`).
struct PoolBreakOptions {
  bool space = false;
  double speed = 8;
  double offset = 0.001;
  double gap = 1e-5;
  double restitution = 1;
  double until = 1;
};
Scenario pool_break(const PoolBreakOptions& o);

/// Bullet through paper: sphere 0 is a small heavy bullet flying along +x at `speed`
/// towards a slab of `layers` layers of side x side spheres of radius 1/2 (the paper),
/// aimed head-on at the middle sphere of each layer. A fixed-step engine moves the bullet
/// through the slab between two frames; kds finds every contact at its exact time. All
/// coordinates are dyadic, so the first impact happens at exactly impact_time() when
/// `speed` is a power of two (the default): 1/128 s.
struct BulletOptions {
  double speed = 2048;
  int layers = 2;
  int side = 8;
  double bullet_radius = 0.125;
  double bullet_mass = 100;  ///< the paper's spheres weigh 1
  double until = 0.03;
};
Scenario bullet_through_paper(const BulletOptions& o);
/// When the bullet first touches the slab, as computed in doubles from the generated positions.
double impact_time(const BulletOptions& o);
/// The id of the slab sphere of `layer` (0 nearest the bullet) on the bullet's line.
std::uint32_t bullet_target(const BulletOptions& o, int layer);

/// The asteroid field (examples/asteroid_field, examples/common/asteroid_field.hpp): small
/// bodies falling onto a few large ones, radii three orders of magnitude apart, with
/// guards and cones as the structure.
struct AsteroidOptions {
  std::size_t large = 2;
  std::size_t small = 60;
  std::uint64_t seed = 3;
  double until = 15;
};
Scenario asteroid_field(const AsteroidOptions& o);

/// Nested boxes (examples/common/nested_boxes.hpp, Abam et al. 3.2, Fig. 6): chains of
/// balls growing geometrically behind each other around small bodies, so that kinetic
/// box overlap holds about 0.2 n^2 overlapping box pairs; sigma grows with n (2400 at
/// n = 96). Run with guards and cones.
struct NestedBoxesOptions {
  std::size_t n = 64;
  std::uint64_t seed = 1;
  double until = 4;
};
Scenario nested_boxes(const NestedBoxesOptions& o);

/// Rolling marbles (examples/rolling_marbles, Abam, de Berg, Poon, Speckmann section 2):
/// n glass marbles (density 2500 kg/m^3) of radii log-uniform from 6 mm to 25 mm resting
/// on the floor of a box (centre z = radius), rolling at up to 1 m/s in uniform random
/// directions, none touching another at the start (SI units). The table has 3:2 sides
/// and 0.016 m^2 per marble (1.2 m x 0.8 m for 60), so any n fits; the box is 5 cm high.
/// Run with the rolling-ball tree and the planar response, which keeps them on the floor.
struct RollingMarblesOptions {
  std::size_t n = 60;
  std::uint64_t seed = 7;
  double until = 10;
};
Scenario rolling_marbles(const RollingMarblesOptions& o);

}  // namespace kds::cli
