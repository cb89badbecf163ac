#include "tools/kds/generators.hpp"

#include "examples/common/asteroid_field.hpp"
#include "examples/common/nested_boxes.hpp"

#include <cmath>
#include <stdexcept>

#include "examples/paper_experiment/paper_scene.hpp"
#include "examples/common/rolling_scene.hpp"
#include "examples/pool_break/rack.hpp"
#include "kds/errors.hpp"
#include "structures/collision/trajectories/velocity_field_probe.hpp"

namespace kds::cli {

Scenario paper_box(const PaperBoxOptions& o) {
  paper::PaperScene scene;
  scene.n = o.n;
  scene.seed = o.seed;
  scene.ballistic = o.ballistic;
  Scenario s;
  s.name = o.ballistic ? "paper-box (ballistic)" : "paper-box";
  s.description = "Kim, Guibas, Shin section 4.2: spheres of radii 0.1 to 10 in a 200^3 box" +
                  std::string(o.ballistic ? ", on straight lines" : ", pushed by random forces |a| <= A in [10, 20]");
  s.box = paper::cube(scene.box_side);
  s.until = o.until;
  s.spheres = paper::paper_spheres(scene);
  if (!o.ballistic) {
    s.trajectories.kind = Trajectories::Kind::random_forces;
    s.trajectories.interval = o.force_interval;
    s.trajectories.seed = o.seed;
  }
  return s;
}

Scenario circulating(const CirculatingOptions& o) {
  // The paper's particles: radii uniform in [1, 10], |a| <= 30 for all, starting at the
  // field's velocity so that the flow is established from t = 0.
  paper::PaperScene scene;
  scene.n = o.n;
  scene.seed = o.seed;
  scene.radius_min = 1;
  scene.acceleration_min = scene.acceleration_max = 30;
  scene.speed_min = scene.speed_max = 0;
  Scenario s;
  s.name = "circulating";
  s.description = "Kim, Guibas, Shin section 4.3: particles carried up the axis and down the sides of a 200^3 box";
  s.box = paper::cube(scene.box_side);
  s.until = o.until;
  s.trajectories.kind = Trajectories::Kind::circulation;
  s.spheres = paper::paper_spheres(scene);
  const CirculationField field{s.box, s.trajectories.speed};
  for (Sphere& p : s.spheres) p.velocity = circulation_velocity(field, p.position);
  return s;
}

Scenario pool_break(const PoolBreakOptions& o) {
  const pool::Table table;
  const pool::Break b = o.space ? pool::space_break(table, o.speed, o.offset, o.gap)
                                : pool::flat_break(table, o.speed, o.offset, o.gap);
  Scenario s;
  s.name = o.space ? "pool-break (3d)" : "pool-break";
  s.description = o.space ? "A tetrahedral rack of 20 balls hit by the cue ball in a box (SI units)"
                          : "A frictionless break of 15 balls on a 9-foot table (SI units)";
  s.box = b.box;
  s.restitution = o.restitution;
  s.until = o.until;
  s.spheres = b.balls;
  return s;
}

namespace {

constexpr double kPaperRadius = 0.5;
constexpr double kSpacing = 1 + 1.0 / 64;  // a gap of 1/64 between neighbouring paper spheres
constexpr double kSlabX = 64;              // centre of the first layer
constexpr double kImpact = 1.0 / 128;      // the bullet reaches the slab then, at the default speed

double bullet_start(const BulletOptions& o) { return kSlabX - kPaperRadius - o.bullet_radius - o.speed * kImpact; }

}  // namespace

Scenario bullet_through_paper(const BulletOptions& o) {
  if (o.layers < 1 || o.layers > 60 || o.side < 1 || o.side > 1000)
    throw InvalidInput("bullet-through-paper: --layers must be from 1 to 60 and --side from 1 to 1000");
  const double start = bullet_start(o);
  if (!(o.speed > 0) || start < o.bullet_radius)
    throw InvalidInput("bullet-through-paper: --speed must be positive and at most " +
                       std::to_string((kSlabX - kPaperRadius - 2 * o.bullet_radius) / kImpact));
  const double cross = o.side * kSpacing;  // side of the box across the flight
  Scenario s;
  s.name = "bullet-through-paper";
  s.description = "A small heavy sphere at high speed against a thin slab of spheres: fixed-step engines let it "
                  "pass through layers untouched";
  s.box = Box3{{0, 0, 0}, {2 * kSlabX, cross, cross}};
  s.until = o.until;
  const double middle = kSpacing / 2 + (o.side / 2) * kSpacing;
  s.spheres.push_back(Sphere{{start, middle, middle}, {o.speed, 0, 0}, o.bullet_radius, o.bullet_mass, 0});
  for (int layer = 0; layer < o.layers; ++layer)
    for (int j = 0; j < o.side; ++j)
      for (int k = 0; k < o.side; ++k)
        s.spheres.push_back(Sphere{{kSlabX + layer * kSpacing, kSpacing / 2 + j * kSpacing, kSpacing / 2 + k * kSpacing},
                                   {0, 0, 0},
                                   kPaperRadius,
                                   1,
                                   0});
  return s;
}

double impact_time(const BulletOptions& o) {
  return (kSlabX - kPaperRadius - o.bullet_radius - bullet_start(o)) / o.speed;
}

std::uint32_t bullet_target(const BulletOptions& o, int layer) {
  return static_cast<std::uint32_t>(1 + layer * o.side * o.side + (o.side / 2) * o.side + o.side / 2);
}

Scenario asteroid_field(const AsteroidOptions& o) {
  examples::AsteroidFieldSpec spec;
  spec.large = o.large;
  spec.small = o.small;
  const examples::AsteroidField f = examples::asteroid_field(spec, o.seed);
  Scenario s;
  s.name = "asteroid-field";
  s.description = "Small bodies falling onto a few large ones, radii three orders of magnitude apart (guards and cones)";
  s.box = f.box;
  s.until = o.until;
  s.structure = "guards-cones";
  s.spheres = f.spheres;
  return s;
}

Scenario nested_boxes(const NestedBoxesOptions& o) {
  examples::NestedBoxesSpec spec;
  spec.n = o.n;
  examples::NestedBoxes f;
  try {
    f = examples::nested_boxes(spec, o.seed);
  } catch (const std::invalid_argument& e) {
    throw InvalidInput(std::string("nested-boxes: ") + e.what());
  }
  Scenario s;
  s.name = "nested-boxes";
  s.description = "Chains of balls growing geometrically behind each other around small bodies: every chain box holds "
                  "the common point, box overlap holds about 0.2 n^2 pairs (guards and cones)";
  s.box = f.box;
  s.until = o.until;
  s.structure = "guards-cones";
  s.spheres = std::move(f.spheres);
  return s;
}

Scenario rolling_marbles(const RollingMarblesOptions& o) {
  if (o.n < 1) throw InvalidInput("rolling-marbles: --n must be at least 1");
  // 0.016 m^2 per marble: the example's 60 marbles on its 1.2 m x 0.8 m table.
  const double area = 0.016 * static_cast<double>(o.n);
  const double length = std::sqrt(1.5 * area), width = std::sqrt(area / 1.5);
  Scenario s;
  s.name = "rolling-marbles";
  s.description = "Glass marbles of radii 6 mm to 25 mm rolling on the floor of a box (SI units): the rolling-ball "
                  "tree, and the planar response that keeps them on the floor";
  s.box = Box3{{0, 0, 0}, {length, width, 0.05}};
  s.until = o.until;
  s.structure = "rolling-tree";
  s.response = Response::planar;
  try {
    s.spheres = examples::scatter_rolling_balls({o.n, 0.006, 0.025, 1.0, 2500}, s.box, o.seed);
  } catch (const std::runtime_error& e) {
    throw InvalidInput(std::string("rolling-marbles: ") + e.what());
  }
  return s;
}

}  // namespace kds::cli
