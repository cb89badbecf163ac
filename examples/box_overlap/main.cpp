// kds_example_box_overlap: similarly sized balls flying in a box, with kinetic box overlap
// as the broad phase (structures/box_overlap). It prints the box pairs as they start and
// stop overlapping (the swaps of box extremes that matter), the contacts, and what the
// structure cost; then runs the same scene with the all-pairs reference and checks that
// the contacts are the same, to the bit (exit status 1 otherwise). With --dice, the
// objects are dice-like convex polytopes (cubes, tetrahedra, octahedra, random hulls)
// moving by translation: the broad phase sees their bounding spheres' boxes, the world
// certifies overlapping pairs by separating planes of their Minkowski differences.
//
//   kds_example_box_overlap                 # 27 balls for 10 s
//   kds_example_box_overlap --n 125 --seconds 5 --shown 0
//   kds_example_box_overlap --dice          # 27 polytopes
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "examples/common/all_pairs_check.hpp"
#include "examples/common/command_line.hpp"
#include "kds/simulator.hpp"
#include "structures/box_overlap/box_overlap.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/polytope.hpp"

namespace {

struct Options {
  std::size_t n = 27;
  double seconds = 10;
  std::size_t shown = 12;  ///< overlap changes and contacts printed (all are counted)
  std::uint64_t seed = 7;
  bool dice = false;
};

Options parse(int argc, char** argv) {
  using namespace kds::programs;
  Options o;
  CommandLine line("kds_example_box_overlap",
                   "Similarly sized balls in a box with kinetic box overlap as the broad phase, checked against "
                   "all-pairs.");
  line.add_option("--n", o.n, "number of balls")->check(integer_in(2, 4096))->capture_default_str();
  line.add_option("--seconds", o.seconds, "simulated time")->check(positive())->capture_default_str();
  line.add_option("--shown", o.shown, "overlap changes and contacts to print")->check(integer_in(0))->capture_default_str();
  line.add_option("--seed", o.seed, "seed of the velocities and sizes")->check(integer_in(0))->capture_default_str();
  line.add_flag("--dice", o.dice, "convex polytopes moving by translation instead of balls");
  line.parse_or_exit(argc, argv);
  return o;
}

/// Dice-like shapes of bounding radius at most 1.25: a cube, a tetrahedron, an octahedron
/// and two random hulls.
std::vector<std::shared_ptr<const kds::ConvexPolytope>> dice_shapes(std::uint64_t seed) {
  return {kds::ConvexPolytope::cube(0.7), kds::ConvexPolytope::tetrahedron(1.2), kds::ConvexPolytope::octahedron(1.2),
          kds::ConvexPolytope::random_hull(12, 1.2, seed), kds::ConvexPolytope::random_hull(8, 1.2, seed + 1)};
}

/// Balls of radius 1 to 1.25 (or dice, each with its bounding radius) on a jittered cubic
/// lattice of spacing 4 (volume fraction about 8%), velocities uniform in [-2, 2] per
/// component.
std::vector<kds::Sphere> scene(std::size_t n, std::uint64_t seed, bool dice, double& side) {
  std::mt19937_64 rng(seed);
  const auto shapes = dice ? dice_shapes(seed) : std::vector<std::shared_ptr<const kds::ConvexPolytope>>{};
  auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  std::size_t m = 1;
  while (m * m * m < n) ++m;
  side = 4.0 * static_cast<double>(m);
  std::vector<kds::Sphere> balls;
  for (std::size_t i = 0; i < m && balls.size() < n; ++i)
    for (std::size_t j = 0; j < m && balls.size() < n; ++j)
      for (std::size_t k = 0; k < m && balls.size() < n; ++k) {
        kds::Sphere s;
        s.radius = 1 + 0.25 * unit();
        if (dice) s = kds::polytope_body(shapes[balls.size() % shapes.size()], {}, {});
        const double jitter = 2 - s.radius - 0.01;  // stays inside its lattice cell
        const std::size_t ijk[3] = {i, j, k};
        for (int a = 0; a < 3; ++a) {
          s.position[a] = 4.0 * static_cast<double>(ijk[a]) + 2 + jitter * (2 * unit() - 1);
          s.velocity[a] = 4 * unit() - 2;
        }
        s.mass = s.radius * s.radius * s.radius;  // a die's: its bounding sphere's
        balls.push_back(s);
      }
  return balls;
}

std::vector<kds::Contact> run(const std::vector<kds::Sphere>& balls, double side, const Options& o,
                              const std::string& broad_phase, bool verbose) {
  kds::CollisionWorldSettings settings;
  settings.box = {{0, 0, 0}, {side, side, side}};
  settings.broad_phase = broad_phase;
  kds::Simulator sim;
  kds::CollisionWorld world(sim, settings, balls);
  if (!verbose) {
    sim.run_until(o.seconds);
    return world.contacts();
  }
  const auto& boxes = dynamic_cast<const kds::BoxOverlap&>(world.broad_phase());
  const char* what = o.dice ? "dice" : "balls";
  std::printf("%zu %s in a cube of side %g; %zu box pairs overlap at the start\n", balls.size(), what, side,
              boxes.overlaps().size());
  std::size_t changes = 0, contacts = 0;
  boxes.on_overlap_change().subscribe([&](kds::SphereId a, kds::SphereId b, bool overlap) {
    if (changes++ < o.shown)
      std::printf("  t = %-22.17g boxes of %u and %u %s\n", sim.now().approx(), a, b,
                  overlap ? "start to overlap: the world certifies the pair" : "are apart again: certificate dropped");
  });
  world.on_contact([&](const kds::Contact& c) {
    if (contacts++ < o.shown && !c.with_wall)
      std::printf("  t = %-22.17g %s %u and %u collide\n", c.time, what, c.a, c.b);
  });
  sim.run_until(o.seconds);
  const kds::Statistics& st = sim.statistics();
  std::printf("\nAfter %g s: %llu contacts between %s and %llu with walls\n", o.seconds,
              static_cast<unsigned long long>(world.sphere_contacts()), what,
              static_cast<unsigned long long>(world.wall_contacts()));
  std::printf("Box overlap: %llu swaps of box extremes (3 sorted lists of %zu keys), %llu changes of the overlap "
              "set, %zu pairs overlapping now\n",
              static_cast<unsigned long long>(boxes.swaps()), 2 * balls.size(),
              static_cast<unsigned long long>(boxes.overlap_changes()), boxes.overlaps().size());
  if (o.dice)
    std::printf("Separating planes: %llu replaced by another facet without a contact\n",
                static_cast<unsigned long long>(world.facet_switches()));
  std::printf("Events: %llu in all, %.1f per contact between objects; %llu certificates live\n",
              static_cast<unsigned long long>(st.events),
              static_cast<double>(st.events) / static_cast<double>(std::max<std::uint64_t>(world.sphere_contacts(), 1)),
              static_cast<unsigned long long>(st.certificates_live));
  return world.contacts();
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    double side = 0;
    const std::vector<kds::Sphere> balls = scene(o.n, o.seed, o.dice, side);
    const auto boxed = run(balls, side, o, "box-overlap", true);
    const auto reference = run(balls, side, o, "all-pairs", false);
    return kds::examples::same_as_all_pairs("kds_example_box_overlap", "box-overlap", boxed, reference) ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kds_example_box_overlap: %s\n", e.what());
    return 1;
  }
}
