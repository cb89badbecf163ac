// kds_example_pool_break: a pool break with ballistic balls ("Pool Hall Lessons", seed
// 001): the cue ball hits a rack, every contact is an exact event, and the response is
// the impulse along the line of centres. Frictionless, so the balls keep bouncing off the
// cushions (the box walls) until the end of the run.
//
//   kds_example_pool_break                     # flat break: 15 balls in a triangle
//   kds_example_pool_break --3d                # a tetrahedron of 20 balls in a box
//   kds_example_pool_break --restitution 0.9   # balls that lose energy
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "examples/common/command_line.hpp"
#include "examples/pool_break/rack.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"

namespace {

struct Options {
  bool space = false;
  double speed = 8;          ///< m/s: a firm break
  /// m: the cue ball's sideways offset from the apex's centre. No real break is dead centre,
  /// and 1 mm is enough to make the rack fly apart asymmetrically.
  double offset = 0.001;
  double gap = 1e-5;         ///< m between neighbouring rack balls
  double restitution = 1;
  double seconds = 1;
  std::size_t shown = 40;    ///< contacts printed (all are counted)
};

Options parse(int argc, char** argv) {
  using namespace kds::programs;
  Options o;
  CommandLine line("kds_example_pool_break", "A frictionless pool break with exact contact times (SI units).");
  line.add_flag("--3d", o.space, "a tetrahedral rack of 20 balls in a box instead of a triangle of 15 on the table");
  line.add_option("--speed", o.speed, "cue ball speed in m/s")->check(number())->capture_default_str();
  line.add_option("--offset", o.offset, "sideways offset of the cue ball from the apex's centre in m")
      ->check(number())
      ->capture_default_str();
  line.add_option("--gap", o.gap, "gap between neighbouring rack balls in m")->check(positive())->capture_default_str();
  line.add_option("--restitution", o.restitution, "coefficient of restitution (1: elastic)")
      ->check(between(0, 1))
      ->capture_default_str();
  line.add_option("--seconds", o.seconds, "simulated time")->check(positive())->capture_default_str();
  line.add_option("--shown", o.shown, "contacts to print in order")->check(integer_in(0))->capture_default_str();
  line.parse_or_exit(argc, argv);
  return o;
}

/// "cue", "ball 7", "the x+ cushion": the names a reader of the contact list wants.
std::string ball(kds::SphereId id) { return id == 0 ? "cue" : "ball " + std::to_string(id); }
std::string cushion(kds::Wall w, bool space) {
  static const char* flat[] = {"head cushion", "foot cushion", "side cushion y-", "side cushion y+", "floor", "ceiling"};
  static const char* box[] = {"wall x-", "wall x+", "wall y-", "wall y+", "wall z-", "wall z+"};
  return (space ? box : flat)[static_cast<int>(w)];
}

double speed(const kds::Vec<3>& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    const kds::pool::Table table;
    const kds::pool::Break rack = o.space ? kds::pool::space_break(table, o.speed, o.offset, o.gap)
                                          : kds::pool::flat_break(table, o.speed, o.offset, o.gap);
    kds::CollisionWorldSettings settings;
    settings.box = rack.box;
    settings.restitution = o.restitution;
    kds::Simulator sim;
    kds::CollisionWorld world(sim, settings, rack.balls);

    std::printf("Pool break%s: cue ball at %.3g m/s into a %s of %zu balls, restitution %g\n",
                o.space ? " in space" : "", o.speed, o.space ? "tetrahedron" : "triangle", rack.balls.size() - 1,
                o.restitution);
    const double e0 = world.kinetic_energy(0);
    std::size_t printed = 0;
    world.on_contact([&](const kds::Contact& c) {
      if (printed++ >= o.shown) return;
      std::printf("  %3zu  t = %.17g s  %-8s %s\n", printed, c.time, ball(c.a).c_str(),
                  c.with_wall ? ("hits the " + cushion(c.wall, o.space)).c_str() : ("hits " + ball(c.b)).c_str());
    });
    sim.run_until(o.seconds);
    if (printed > o.shown) std::printf("  ... and %zu more contacts\n", printed - o.shown);

    std::printf("\nAfter %g s: %llu ball-ball and %llu cushion contacts, %llu events at a time equal to the one before\n",
                o.seconds, static_cast<unsigned long long>(world.sphere_contacts()),
                static_cast<unsigned long long>(world.wall_contacts()),
                static_cast<unsigned long long>(sim.statistics().events_at_equal_times));
    std::printf("Final speeds (m/s):\n");
    for (kds::SphereId i = 0; i < world.size(); ++i)
      std::printf("  %-8s %6.3f%s", ball(i).c_str(), speed(world.state(i, o.seconds).velocity), i % 4 == 3 ? "\n" : "");
    if (world.size() % 4 != 0) std::printf("\n");

    const double e1 = world.kinetic_energy(o.seconds);
    const double drift = std::fabs(e1 - e0) / e0;
    std::printf("Kinetic energy: %.17g J at the start, %.17g J at the end", e0, e1);
    if (o.restitution == 1) {
      std::printf(" (relative change %.2e)\n", drift);
      if (drift > 1e-9) {
        std::fprintf(stderr, "kds_example_pool_break: elastic run lost energy: relative change %.3e > 1e-9\n", drift);
        return 1;
      }
      std::printf("Energy kept to 1e-9: yes\n");
    } else {
      std::printf(" (%.1f%% lost)\n", 100 * (e0 - e1) / e0);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kds_example_pool_break: %s\n", e.what());
    return 1;
  }
}
