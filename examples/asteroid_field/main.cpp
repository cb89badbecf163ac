// kds_example_asteroid_field: small bodies falling onto large ones, radii three orders of
// magnitude apart (examples/common/asteroid_field.hpp), with guards and cones as the broad
// phase (structures/guards_cones). It prints what the structure keeps (guards, cones,
// memberships of guards in boxes, closest objects, candidate pairs), the contacts, and what
// it cost; then runs the same field with box overlap (for its candidate pairs) and with
// the all-pairs reference, and checks that the contacts are the same, to the bit (exit
// status 1 otherwise). With --dice, every body is a convex polytope inscribed in its ball
// (cubes and octahedra, moving by translation): guards and cones then read each one's own
// inner radius, outer radius and box (structures/guards_cones/fat_object.hpp).
//
//   kds_example_asteroid_field                   # 2 bodies of radius 200, 60 of radius 0.2 to 0.3
//   kds_example_asteroid_field --small 200 --seconds 20 --shown 0
//   kds_example_asteroid_field --dice            # the same field of cubes and octahedra
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "examples/common/all_pairs_check.hpp"
#include "examples/common/asteroid_field.hpp"
#include "examples/common/command_line.hpp"
#include "kds/simulator.hpp"
#include "structures/box_overlap/box_overlap.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/polytope.hpp"
#include "structures/guards_cones/guards_cones.hpp"

namespace {

struct Options {
  kds::examples::AsteroidFieldSpec field;
  double seconds = 15;
  std::size_t shown = 8;  ///< contacts printed (all are counted)
  std::uint64_t seed = 3;
  bool dice = false;
};

Options parse(int argc, char** argv) {
  using namespace kds::programs;
  Options o;
  CommandLine line("kds_example_asteroid_field",
                   "Small bodies falling onto large ones (radii 1000 times apart) with guards and cones as the broad "
                   "phase, checked against all-pairs.");
  line.add_option("--small", o.field.small, "small bodies")->check(integer_in(1, 2000))->capture_default_str();
  line.add_option("--large", o.field.large, "large bodies")->check(integer_in(1, 20))->capture_default_str();
  line.add_option("--seconds", o.seconds, "simulated time")->check(positive())->capture_default_str();
  line.add_option("--shown", o.shown, "contacts to print")->check(integer_in(0))->capture_default_str();
  line.add_option("--seed", o.seed, "seed of the field")->check(integer_in(0))->capture_default_str();
  line.add_flag("--dice", o.dice, "convex polytopes (cubes and octahedra) inscribed in the bodies' balls");
  line.parse_or_exit(argc, argv);
  return o;
}

struct Outcome {
  std::vector<kds::Contact> contacts;
  std::size_t max_pairs = 0;  ///< the largest number of candidate pairs seen (sampled)
};

std::size_t candidate_pairs(const kds::CollisionWorld& world) {
  std::size_t pairs = 0;
  for (kds::SphereId i = 0; i < world.size(); ++i)
    for (kds::SphereId j = i + 1; j < world.size(); ++j)
      pairs += world.pair_certificate(i, j) != nullptr || world.facet_certificate(i, j) != nullptr;
  return pairs;
}

Outcome run(const kds::examples::AsteroidField& f, const Options& o, const std::string& broad_phase, bool verbose) {
  kds::CollisionWorldSettings settings;
  settings.box = f.box;
  settings.broad_phase = broad_phase;
  kds::Simulator sim;
  kds::CollisionWorld world(sim, settings, f.spheres);
  Outcome out;
  std::size_t contacts = 0;
  if (verbose)
    world.on_contact([&](const kds::Contact& c) {
      if (contacts++ < o.shown && !c.with_wall)
        std::printf("  t = %-22.17g bodies %u (radius %.3g) and %u (radius %.3g) collide\n", c.time, c.a,
                    f.spheres[c.a].radius, c.b, f.spheres[c.b].radius);
    });
  // Ten samples of the candidate pairs over the run.
  for (int k = 1; k <= 10; ++k) {
    out.max_pairs = std::max(out.max_pairs, candidate_pairs(world));
    sim.run_until(o.seconds * k / 10);
  }
  out.contacts = world.contacts();
  if (!verbose) return out;
  const auto& gc = dynamic_cast<const kds::GuardsCones&>(world.broad_phase());
  std::size_t closest = 0;
  for (kds::GuardId g = 0; g < gc.guards(); ++g) closest += gc.closest(g).size();
  const kds::Statistics& st = sim.statistics();
  std::printf("\nAfter %g s: %llu body-body and %llu wall contacts\n", o.seconds,
              static_cast<unsigned long long>(world.sphere_contacts()),
              static_cast<unsigned long long>(world.wall_contacts()));
  std::printf("Guards and cones: %zu guards (%zu per body), %zu cones per guard, %zu guard planes in 3 sorted lists\n",
              gc.guards(), gc.guards() / f.spheres.size(), gc.cones().size(), gc.guard_planes());
  std::printf("  fatness rho = %g (the guards' grid); body 0: inner radius %g, outer radius %g, box half widths %g %g %g\n",
              gc.rho(), gc.object(0).inner_radius, gc.object(0).outer_radius, gc.object(0).box_half_width[0],
              gc.object(0).box_half_width[1], gc.object(0).box_half_width[2]);
  std::printf("  now: %zu guards lie in other bodies' boxes, %zu cones have a closest body, %zu candidate pairs\n",
              gc.memberships(), closest, gc.candidate_pairs());
  std::printf("  events: %llu box, %llu center, %llu swaps in all; %llu members scanned for Lemma 11's query\n",
              static_cast<unsigned long long>(gc.box_events()), static_cast<unsigned long long>(gc.center_events()),
              static_cast<unsigned long long>(gc.swaps()), static_cast<unsigned long long>(gc.query_scans()));
  std::printf("  %llu events in all, %llu certificates live, at most %zu candidate pairs (sampled)\n",
              static_cast<unsigned long long>(st.events), static_cast<unsigned long long>(st.certificates_live),
              out.max_pairs);
  return out;
}

/// Every body replaced by a polytope inscribed in its ball (a little inside it, so that
/// the rounding of the shape's bounding radius keeps the bodies apart): the large ones
/// cubes, the small ones cubes and octahedra in turn.
void make_dice(kds::examples::AsteroidField& f) {
  for (std::size_t i = 0; i < f.spheres.size(); ++i) {
    kds::Sphere& s = f.spheres[i];
    const double r = s.radius * (1 - 1e-9);
    auto shape = s.radius > 1 || i % 2 == 0 ? kds::ConvexPolytope::cube(r / std::sqrt(3.0)) : kds::ConvexPolytope::octahedron(r);
    s = kds::polytope_body(std::move(shape), s.position, s.velocity, s.mass);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    auto field = kds::examples::asteroid_field(o.field, o.seed);
    if (o.dice) make_dice(field);
    std::printf("Asteroid field: %zu bodies of radius %g and %zu of radii %g to %g%s, in a box %g x %g x %g\n",
                o.field.large, o.field.large_radius, o.field.small, o.field.small_radius, 1.5 * o.field.small_radius,
                o.dice ? " (dice: cubes and octahedra inscribed in those balls)" : "", field.box.hi[0], field.box.hi[1],
                field.box.hi[2]);
    const Outcome guarded = run(field, o, "guards-cones", true);
    const Outcome boxed = run(field, o, "box-overlap", false);
    std::printf("Box overlap on the same field: at most %zu candidate pairs (sampled)\n", boxed.max_pairs);
    const Outcome reference = run(field, o, "all-pairs", false);
    return kds::examples::same_as_all_pairs("kds_example_asteroid_field", "guards-cones", guarded.contacts,
                                            reference.contacts)
               ? 0
               : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kds_example_asteroid_field: %s\n", e.what());
    return 1;
  }
}
