// kds generate KIND -o FILE: writes the scenes of the papers as scenario files (docs/cli.md).
#include <iostream>
#include <memory>

#include "examples/common/command_line.hpp"
#include "tools/kds/commands.hpp"
#include "tools/kds/generators.hpp"
#include "tools/kds/scenario_writer.hpp"

namespace kds::cli {
namespace {

struct GenerateOptions {
  std::string output;
  PaperBoxOptions paper;
  CirculatingOptions circulating;
  PoolBreakOptions pool;
  BulletOptions bullet;
  AsteroidOptions asteroid;
  NestedBoxesOptions nested;
  RollingMarblesOptions marbles;
};

/// One kind: its subcommand with -o FILE, and the scenario it makes.
struct Kind {
  CLI::App* app;
  std::function<Scenario()> make;
};

Kind add_kind(CLI::App& generate, GenerateOptions& o, const char* name, const std::string& what,
              std::function<Scenario()> make) {
  CLI::App* app = generate.add_subcommand(name, what);
  app->add_option("-o,--output", o.output, "the scenario file to write")->required()->type_name("FILE");
  return {app, std::move(make)};
}

}  // namespace

Command add_generate_command(CLI::App& kds, const std::string& command_line) {
  using namespace kds::programs;
  auto o = std::make_shared<GenerateOptions>();
  CLI::App* generate = kds.add_subcommand("generate", "Writes a scene of the papers as a scenario file for `kds run`.");
  generate->require_subcommand(1);
  std::vector<Kind> kinds;

  kinds.push_back(add_kind(*generate, *o, "paper-box",
                           "Kim, Guibas, Shin section 4.2: n spheres of radii 0.1 to 10 in a 200^3 box under random "
                           "forces |a| <= A in [10, 20] (unknown trajectories), or ballistic",
                           [o] { return paper_box(o->paper); }));
  CLI::App* a = kinds.back().app;
  a->add_option("--n", o->paper.n, "spheres")->check(integer_in(1, 3500))->capture_default_str();
  a->add_option("--seed", o->paper.seed, "seed of the scene and of the forces")->check(integer_in(0))->capture_default_str();
  a->add_flag("--ballistic", o->paper.ballistic, "no forces: straight-line motions, every collision exact");
  a->add_option("--force-interval", o->paper.force_interval, "seconds between changes of the random forces")
      ->check(positive())
      ->capture_default_str();
  a->add_option("--until", o->paper.until, "the scenario's run length")->check(positive())->capture_default_str();

  kinds.push_back(add_kind(*generate, *o, "circulating",
                           "Kim, Guibas, Shin section 4.3: particles of radii 1 to 10, |a| <= 30, carried by a "
                           "circulating velocity field in a 200^3 box",
                           [o] { return circulating(o->circulating); }));
  a = kinds.back().app;
  a->add_option("--n", o->circulating.n, "particles")->check(integer_in(1, 2000))->capture_default_str();
  a->add_option("--seed", o->circulating.seed, "seed of the positions and radii")->check(integer_in(0))->capture_default_str();
  a->add_option("--until", o->circulating.until, "the scenario's run length")->check(positive())->capture_default_str();

  kinds.push_back(add_kind(*generate, *o, "pool-break",
                           "A frictionless pool break in SI units: the cue ball and a triangle of 15 balls on a 9-foot "
                           "table, or a tetrahedron of 20 in a box",
                           [o] { return pool_break(o->pool); }));
  a = kinds.back().app;
  a->add_flag("--3d", o->pool.space, "a tetrahedral rack of 20 balls in a box");
  a->add_option("--speed", o->pool.speed, "cue ball speed in m/s")->check(positive())->capture_default_str();
  a->add_option("--offset", o->pool.offset, "sideways offset of the cue ball from the apex's centre in m")
      ->check(number())
      ->capture_default_str();
  a->add_option("--gap", o->pool.gap, "gap between neighbouring rack balls in m")->check(positive())->capture_default_str();
  a->add_option("--restitution", o->pool.restitution, "coefficient of restitution (1: elastic)")
      ->check(between(0, 1))
      ->capture_default_str();
  a->add_option("--until", o->pool.until, "the scenario's run length in s")->check(positive())->capture_default_str();

  kinds.push_back(add_kind(*generate, *o, "bullet-through-paper",
                           "A small heavy sphere at high speed against a thin slab of spheres: fixed-step engines let "
                           "it pass through layers untouched; kds finds every contact at its exact time",
                           [o] { return bullet_through_paper(o->bullet); }));
  a = kinds.back().app;
  a->add_option("--speed", o->bullet.speed, "bullet speed (a power of two keeps the impact time exact)")
      ->check(positive())
      ->capture_default_str();
  a->add_option("--layers", o->bullet.layers, "layers of the slab")->check(integer_in(1, 60))->capture_default_str();
  a->add_option("--side", o->bullet.side, "spheres along each side of a layer")->check(integer_in(1, 1000))->capture_default_str();
  a->add_option("--bullet-mass", o->bullet.bullet_mass, "mass of the bullet (a slab sphere weighs 1)")
      ->check(positive())
      ->capture_default_str();
  a->add_option("--until", o->bullet.until, "the scenario's run length")->check(positive())->capture_default_str();

  kinds.push_back(add_kind(*generate, *o, "asteroid-field",
                           "Abam et al. 3.2: small bodies (radii 0.2 to 0.3) falling onto a few large ones (radius "
                           "200), run with guards and cones",
                           [o] { return asteroid_field(o->asteroid); }));
  a = kinds.back().app;
  a->add_option("--large", o->asteroid.large, "large bodies")->check(integer_in(1, 20))->capture_default_str();
  a->add_option("--small", o->asteroid.small, "small bodies")->check(integer_in(1, 2000))->capture_default_str();
  a->add_option("--seed", o->asteroid.seed, "seed of the field")->check(integer_in(0))->capture_default_str();
  a->add_option("--until", o->asteroid.until, "the scenario's run length")->check(positive())->capture_default_str();

  kinds.push_back(add_kind(*generate, *o, "nested-boxes",
                           "Abam et al. 3.2, Fig. 6: chains of balls growing geometrically behind each other around "
                           "small bodies (sigma grows with n; box overlap holds about 0.2 n^2 box pairs), run with "
                           "guards and cones",
                           [o] { return nested_boxes(o->nested); }));
  a = kinds.back().app;
  a->add_option("--n", o->nested.n, "bodies, a quarter of them on the chains")->check(integer_in(5, 160))->capture_default_str();
  a->add_option("--seed", o->nested.seed, "seed of the small bodies")->check(integer_in(0))->capture_default_str();
  a->add_option("--until", o->nested.until, "the scenario's run length")->check(positive())->capture_default_str();

  kinds.push_back(add_kind(*generate, *o, "rolling-marbles",
                           "Abam et al. section 2: glass marbles of radii 6 to 25 mm rolling on the floor of a box "
                           "(SI units), run with the rolling-ball tree and the planar response",
                           [o] { return rolling_marbles(o->marbles); }));
  a = kinds.back().app;
  a->add_option("--n", o->marbles.n, "marbles (the table grows with n: 0.016 m^2 each)")
      ->check(integer_in(1, 100000))
      ->capture_default_str();
  a->add_option("--seed", o->marbles.seed, "seed of the marbles")->check(integer_in(0))->capture_default_str();
  a->add_option("--until", o->marbles.until, "the scenario's run length in s")->check(positive())->capture_default_str();

  auto run = [o, kinds, command_line] {
    for (const Kind& k : kinds) {
      if (!k.app->parsed()) continue;
      Scenario s = k.make();
      s.generated_by = command_line;
      save_scenario(o->output, s);
      std::cout << "kds generate: wrote " << o->output << ": " << s.spheres.size() << " spheres, until t = " << s.until
                << "\n";
      return exit_ok;
    }
    return exit_usage;  // unreachable: require_subcommand(1)
  };
  return {generate, run};
}

}  // namespace kds::cli
