// kds_example_rolling_marbles: marbles of mixed sizes rolling on a table with cushions,
// collisions detected by the rolling-ball collision tree (Abam, de Berg, Poon, Speckmann)
// and answered by the planar response, so that every marble stays on the table. With
// --check the same scene also runs with the all-pairs reference, and the program fails
// unless both find the same contacts at the same times.
//
//   kds_example_rolling_marbles                        # 60 marbles for 10 s
//   kds_example_rolling_marbles --n 300 --broad-phase rolling-tree-global --check
#include <cmath>
#include <cstdio>
#include <string>

#include "examples/common/all_pairs_check.hpp"
#include "examples/common/command_line.hpp"
#include "examples/common/rolling_scene.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/rolling_balls/planar_response.hpp"
#include "structures/rolling_balls/rolling_tree.hpp"

namespace {

struct Options {
  std::size_t n = 60;
  double length = 1.2, width = 0.8;  // m
  double seconds = 10;
  std::uint64_t seed = 7;
  std::string broad_phase = "rolling-tree";
  std::size_t shown = 15;
  bool check = false;
};

Options parse(int argc, char** argv) {
  using namespace kds::programs;
  Options o;
  CommandLine line("kds_example_rolling_marbles",
                   "Marbles of mixed sizes rolling on a table with cushions; exact contacts from the rolling-ball "
                   "collision tree (SI units).");
  line.add_option("--n", o.n, "number of marbles")->check(integer_in(1))->capture_default_str();
  line.add_option("--length", o.length, "table length in m")->check(positive())->capture_default_str();
  line.add_option("--width", o.width, "table width in m")->check(positive())->capture_default_str();
  line.add_option("--seconds", o.seconds, "simulated time")->check(positive())->capture_default_str();
  line.add_option("--seed", o.seed, "seed of the scene")->check(integer_in(0))->capture_default_str();
  line.add_option("--broad-phase", o.broad_phase, "broad phase")
      ->check(one_of({"rolling-tree", "rolling-tree-global", "all-pairs"}))
      ->capture_default_str();
  line.add_option("--shown", o.shown, "contacts to print in order")->check(integer_in(0))->capture_default_str();
  line.add_flag("--check", o.check, "run all-pairs too and fail unless the contacts are the same");
  line.parse_or_exit(argc, argv);
  return o;
}

struct Result {
  std::vector<kds::Contact> contacts;
  double energy0 = 0, energy1 = 0;
  bool on_table = true;
  std::uint64_t events = 0;
};

/// Marbles of mixed sizes (radii log-uniform from 6 mm to 25 mm, glass), rolling at up to
/// 1 m/s on a table with cushions (the box walls).
struct Scene {
  kds::Box3 table;
  std::vector<kds::Sphere> marbles;
};
Scene scatter(const Options& o) {
  Scene s;
  s.table = kds::Box3{{0, 0, 0}, {o.length, o.width, 0.05}};
  s.marbles = kds::examples::scatter_rolling_balls({o.n, 0.006, 0.025, 1.0, 2500}, s.table, o.seed);
  return s;
}

Result roll(const Scene& scene, const Options& o, const std::string& broad_phase, bool print) {
  kds::CollisionWorldSettings settings;
  settings.box = scene.table;
  settings.broad_phase = broad_phase;
  kds::Simulator sim;
  kds::CollisionWorld world(sim, settings, scene.marbles);
  kds::use_planar_response(world);
  std::size_t printed = 0;
  if (print)
    world.on_contact([&](const kds::Contact& c) {
      if (printed++ >= o.shown) return;
      if (c.with_wall)
        std::printf("  t = %9.6f s  marble %u (r = %4.1f mm) hits cushion %d\n", c.time, c.a,
                    1000 * world.sphere(c.a).radius, static_cast<int>(c.wall));
      else
        std::printf("  t = %9.6f s  marble %u (r = %4.1f mm) hits marble %u (r = %4.1f mm)\n", c.time, c.a,
                    1000 * world.sphere(c.a).radius, c.b, 1000 * world.sphere(c.b).radius);
    });
  Result r;
  r.energy0 = world.kinetic_energy(0);
  sim.run_until(o.seconds);
  r.energy1 = world.kinetic_energy(o.seconds);
  r.contacts = world.contacts();
  r.events = sim.statistics().events;
  for (kds::SphereId i = 0; i < world.size(); ++i)
    r.on_table = r.on_table && world.state(i, o.seconds).position[2] == world.sphere(i).radius;
  if (print && printed > o.shown) std::printf("  ... and %zu more contacts\n", printed - o.shown);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    const Scene scene = scatter(o);
    std::printf("%zu marbles (radii 6-25 mm) on a %g m x %g m table for %g s, broad phase %s\n", o.n, o.length,
                o.width, o.seconds, o.broad_phase.c_str());
    const Result r = roll(scene, o, o.broad_phase, true);
    std::size_t hits = 0;
    for (const kds::Contact& c : r.contacts) hits += !c.with_wall;
    std::printf("\n%zu marble-marble and %zu cushion contacts, %llu events\n", hits, r.contacts.size() - hits,
                static_cast<unsigned long long>(r.events));
    const double drift = std::fabs(r.energy1 - r.energy0) / r.energy0;
    std::printf("Kinetic energy %.12g J at the start, %.12g J at the end (relative change %.2e)\n", r.energy0,
                r.energy1, drift);
    std::printf("Every marble still on the table: %s\n", r.on_table ? "yes" : "NO");
    int status = (drift > 1e-9 || !r.on_table) ? 1 : 0;
    if (o.check) {
      const Result ref = roll(scene, o, "all-pairs", false);
      if (!kds::examples::same_as_all_pairs("kds_example_rolling_marbles", o.broad_phase, r.contacts, ref.contacts))
        status = 1;
    }
    return status;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kds_example_rolling_marbles: %s\n", e.what());
    return 1;
  }
}
