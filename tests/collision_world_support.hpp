#pragma once
// Shared helpers of the collision-world tests: random scenes, running a world to a time,
// comparing contact sequences, exact evaluation of motions.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kds/errors.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"

namespace kds::testing {

inline double dot3(const Vec<3>& a, const Vec<3>& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline double norm3(const Vec<3>& a) { return std::sqrt(dot3(a, a)); }

/// A sphere at x with velocity v.
inline Sphere ball(Vec<3> x, Vec<3> v, double r = 1, double m = 1) {
  Sphere s;
  s.position = x;
  s.velocity = v;
  s.radius = r;
  s.mass = m;
  return s;
}

inline Box3 cube(double side) { return Box3{{0, 0, 0}, {side, side, side}}; }

struct SceneSpec {
  int n = 50;
  double box = 100;
  double r_min = 1, r_max = 1;
  double speed = 10;        ///< each velocity component uniform in [-speed, speed]
  double mass_min = 1, mass_max = 1;
  double max_acceleration = 0;  ///< 0: ballistic; > 0: every sphere gets a bound uniform in [A/2, A]
};

/// Non-overlapping spheres placed at random inside the box (random sequential addition:
/// each sphere drawn until it misses the ones already placed). Radii log-uniform in
/// [r_min, r_max].
///
/// A dense scene can run into a dead end: the last spheres find too little room among the
/// first ones. The energy test's gas (64 spheres of radius 1 in a box of 10, volume
/// fraction 0.27) needs 16000 draws at the median but more than its budget of 1000 n =
/// 64000 draws for about one seed in eleven (seeds 2 and 11 among others). So a placement
/// that has used up its budget starts again from an empty box, with the draws that follow,
/// up to `max_placements` times; only then is the scene taken to be too dense. A scene
/// placed within the first budget is the one this function always gave.
inline std::vector<Sphere> random_scene(std::mt19937_64& rng, const SceneSpec& spec) {
  constexpr int max_placements = 100;
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Sphere> s;
  s.reserve(spec.n);
  for (int placement = 0; placement < max_placements; ++placement) {
    s.clear();
    int attempts = 0;
    while (static_cast<int>(s.size()) < spec.n && ++attempts <= 1000 * spec.n) {
      Sphere x;
      x.radius = spec.r_min * std::pow(spec.r_max / spec.r_min, u(rng));
      for (int k = 0; k < 3; ++k) x.position[k] = x.radius + (spec.box - 2 * x.radius) * u(rng);
      bool ok = true;
      for (const Sphere& y : s) {
        Vec<3> d{x.position[0] - y.position[0], x.position[1] - y.position[1], x.position[2] - y.position[2]};
        if (norm3(d) <= (x.radius + y.radius) * (1 + 1e-9)) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      for (int k = 0; k < 3; ++k) x.velocity[k] = spec.speed * (2 * u(rng) - 1);
      x.mass = spec.mass_min + (spec.mass_max - spec.mass_min) * u(rng);
      x.max_acceleration = spec.max_acceleration > 0 ? spec.max_acceleration * (0.5 + 0.5 * u(rng)) : 0;
      s.push_back(x);
    }
    if (static_cast<int>(s.size()) == spec.n) return s;
  }
  throw std::runtime_error("random_scene: too dense, cannot place the spheres");
}

inline std::string describe(const Contact& c) {
  std::ostringstream os;
  os.precision(17);
  os << "t = " << c.time << ": ";
  if (c.with_wall) os << "sphere " << c.a << " with wall " << static_cast<int>(c.wall);
  else os << "spheres " << c.a << " and " << c.b;
  return os.str();
}

inline bool same_contact(const Contact& x, const Contact& y) {
  if (x.time != y.time || x.a != y.a || x.with_wall != y.with_wall) return false;
  return x.with_wall ? x.wall == y.wall : x.b == y.b;
}

/// Exactly the same contacts in the same order (times compared bit for bit).
inline ::testing::AssertionResult same_contacts(const std::vector<Contact>& a, const std::vector<Contact>& b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (!same_contact(a[i], b[i]))
      return ::testing::AssertionFailure() << "contact #" << i << " differs: " << describe(a[i]) << " vs " << describe(b[i]);
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << a.size() << " contacts vs " << b.size() << " (the first " << n << " agree)";
  return ::testing::AssertionSuccess() << n << " contacts agree";
}

/// A simulator and a world on it, run together.
struct WorldRun {
  std::unique_ptr<Simulator> sim;
  std::unique_ptr<CollisionWorld> world;

  WorldRun(const std::vector<Sphere>& spheres, const CollisionWorldSettings& settings, SimulatorSettings sim_settings = {})
      : sim(std::make_unique<Simulator>(sim_settings)),
        world(std::make_unique<CollisionWorld>(*sim, settings, spheres)) {}
  ~WorldRun() {
    world.reset();  // before the simulator it refers to
    sim.reset();
  }
  WorldRun(WorldRun&&) = default;

  /// Processes events up to t (at most max_events of them, so that a bug cannot hang a
  /// test); returns false if the cap stopped it.
  bool run_until(double t, std::uint64_t max_events = 3'000'000) {
    std::uint64_t events = 0;
    while (compare(sim->next_event_time(), t) <= 0) {
      if (++events > max_events) return false;
      sim->step();
    }
    sim->run_until(t);
    return true;
  }
  const std::vector<Contact>& contacts() const { return world->contacts(); }
};

inline CollisionWorldSettings world_settings(const Box3& box, const std::string& broad_phase, double restitution = 1.0,
                                             Vec<3> gravity = {0, 0, 0}) {
  CollisionWorldSettings s;
  s.box = box;
  s.broad_phase = broad_phase;
  s.restitution = restitution;
  s.gravity = gravity;
  return s;
}

/// Runs the same scene with a broad phase and with the all-pairs reference, and returns
/// their contacts. `prepare` (if given) is applied to both worlds before they run (a
/// response of their own, say).
struct TwinResult {
  std::vector<Contact> tested, all_pairs;
};
inline TwinResult run_twins(const std::vector<Sphere>& spheres, CollisionWorldSettings settings, double t_end,
                            SimulatorSettings sim_settings = {}, const std::string& broad_phase = "tvb-grid",
                            const std::function<void(CollisionWorld&)>& prepare = {}) {
  TwinResult r;
  settings.broad_phase = broad_phase;
  {
    WorldRun g(spheres, settings, sim_settings);
    if (prepare) prepare(*g.world);
    EXPECT_TRUE(g.run_until(t_end)) << broad_phase << ": event cap reached";
    r.tested = g.contacts();
  }
  settings.broad_phase = "all-pairs";
  {
    WorldRun a(spheres, settings, sim_settings);
    if (prepare) prepare(*a.world);
    EXPECT_TRUE(a.run_until(t_end)) << "all pairs: event cap reached";
    r.all_pairs = a.contacts();
  }
  return r;
}

/// Contact records to compare logs against.
inline Contact pair_contact(double t, SphereId a, SphereId b) { return Contact{t, a, b, false, Wall::x_lo}; }
inline Contact wall_contact(double t, SphereId a, Wall w) { return Contact{t, a, a, true, w}; }

/// A random-scene case of the tests of a broad phase against all-pairs.
struct TwinCase {
  const char* name;
  SceneSpec spec;
  bool gravity;
  double restitution;
  double t_end;
};
inline std::ostream& operator<<(std::ostream& os, const TwinCase& c) { return os << c.name; }

/// The contacts between two spheres (not with a wall) among `contacts`.
inline std::size_t sphere_pair_contacts(const std::vector<Contact>& contacts) {
  std::size_t pairs = 0;
  for (const Contact& k : contacts) pairs += !k.with_wall;
  return pairs;
}

/// A random scene that collides: its spheres and the contacts of the all-pairs
/// reference on them, and how many scenes were drawn.
struct CollidingScene {
  std::vector<Sphere> spheres;
  std::vector<Contact> reference;
  int draws = 0;
};

/// Random scenes of `spec` drawn from `rng` until the all-pairs reference, run with
/// `settings` up to `t_end`, finds more than `min_pairs` sphere-pair contacts. A random
/// scene can be quiet: with seed 2, one of expect_twins_on_random_scenes' gravity scenes
/// of 20 spheres has 3 pairs; the lists test's 4 spheres often meet nothing in 0.1 s. A
/// twin test on a quiet scene compares next to nothing, so a broad phase that found no
/// pair at all would pass; drawing again makes the scene what the test needs for every
/// seed. A first draw that collides enough is the scene these tests always used. Fails
/// the test (ADD_FAILURE, and `spheres` empty) if none of `max_draws` scenes does.
inline CollidingScene colliding_scene(std::mt19937_64& rng, const SceneSpec& spec, CollisionWorldSettings settings,
                                      double t_end, std::size_t min_pairs, int max_draws = 100) {
  settings.broad_phase = "all-pairs";
  CollidingScene s;
  while (s.draws < max_draws) {
    ++s.draws;
    s.spheres = random_scene(rng, spec);
    WorldRun a(s.spheres, settings);
    EXPECT_TRUE(a.run_until(t_end)) << "all pairs: event cap reached";
    s.reference = a.contacts();
    if (sphere_pair_contacts(s.reference) > min_pairs) return s;
  }
  ADD_FAILURE() << "none of " << max_draws << " random scenes has more than " << min_pairs << " sphere pairs by t = " << t_end;
  s.spheres.clear();
  return s;
}

/// Three random scenes of the case from `rng` that collide (more than 3 sphere pairs in
/// the all-pairs run, colliding_scene), each run with `broad_phase`: the same contacts as
/// all-pairs, bit for bit.
inline void expect_twins_on_random_scenes(std::mt19937_64& rng, std::uint64_t seed, const TwinCase& c,
                                          const std::string& broad_phase) {
  for (int scene = 0; scene < 3; ++scene) {
    SCOPED_TRACE("scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
    const auto settings = world_settings(cube(c.spec.box), broad_phase, c.restitution,
                                         c.gravity ? Vec<3>{0, 0, -9.81} : Vec<3>{});
    const CollidingScene s = colliding_scene(rng, c.spec, settings, c.t_end, 3);
    if (s.spheres.empty()) return;
    WorldRun g(s.spheres, settings);
    EXPECT_TRUE(g.run_until(c.t_end)) << broad_phase << ": event cap reached";
    EXPECT_TRUE(same_contacts(g.contacts(), s.reference));
    std::cout << "[ scene    ] " << c.name << " #" << scene << ": " << g.contacts().size() << " contacts ("
              << sphere_pair_contacts(g.contacts()) << " pairs), drawn " << s.draws << (s.draws == 1 ? " time\n" : " times\n");
  }
}

/// Simultaneous contacts in a 100^3 box: three pairs meet at t = 4, and four spheres hit
/// five walls at t = 3; `simultaneous_contacts_expected` lists them in tie-key order.
inline std::vector<Sphere> simultaneous_contacts_scene() {
  return {
      ball({20, 50, 50}, {1, 0, 0}), ball({30, 50, 50}, {-1, 0, 0}),  // 0-1 meet at t = 4
      ball({20, 20, 50}, {1, 0, 0}), ball({30, 20, 50}, {-1, 0, 0}),  // 2-3 at t = 4
      ball({50, 80, 20}, {0, 1, 0}), ball({50, 90, 20}, {0, -1, 0}),  // 4-5 at t = 4
      ball({96, 96, 70}, {1, 1, 0}),                                  // 6 hits two walls at t = 3
      ball({80, 10, 4}, {0, 0, -1}), ball({70, 10, 4}, {0, 0, -1}),   // 7, 8 hit the floor at t = 3
  };
}
inline std::vector<Contact> simultaneous_contacts_expected() {
  return {wall_contact(3, 6, Wall::x_hi), wall_contact(3, 6, Wall::y_hi), wall_contact(3, 7, Wall::z_lo),
          wall_contact(3, 8, Wall::z_lo), pair_contact(4, 0, 1),          pair_contact(4, 2, 3),
          pair_contact(4, 4, 5)};
}

/// Five pairs of spheres touching at time 0, approaching (pairs 0-1 and 8-9, diagonally),
/// separating, moving together, sliding past each other: contacts at 0 for 0-1 and 8-9.
inline std::vector<Sphere> touching_at_start_scene() {
  return {
      ball({10, 10, 10}, {1, 0, 0}), ball({12, 10, 10}, {-1, 0, 0}),           // approaching
      ball({10, 30, 10}, {-1, 0, 0}), ball({12, 30, 10}, {1, 0, 0}),           // separating
      ball({10, 50, 10}, {1, 1, 0}), ball({12, 50, 10}, {1, 1, 0}),            // moving together
      ball({10, 70, 10}, {0, 1, 0}), ball({12, 70, 10}, {0, -1, 0}),           // sliding past each other
      ball({40, 40, 40}, {3, 4, 0}, 2.5), ball({43, 44, 40}, {0, 0, 0}, 2.5),  // touching diagonally, approaching
  };
}

/// A coordinate of a motion at a rational time, exactly.
inline Rational exact_coordinate(const Motion<3>& m, int axis, const Rational& t) {
  const auto& c = m.coefficients(axis);
  const Rational s = t - Rational(m.start());
  return ((Rational(c[3]) * s + Rational(c[2])) * s + Rational(c[1])) * s + Rational(c[0]);
}

/// Matches a message against several fragments (all must occur).
inline ::testing::AssertionResult message_has(const std::string& what, std::initializer_list<std::string> parts) {
  for (const std::string& p : parts)
    if (what.find(p) == std::string::npos)
      return ::testing::AssertionFailure() << "message \"" << what << "\" lacks \"" << p << "\"";
  return ::testing::AssertionSuccess();
}

/// The message of the InvalidInput that f throws; fails the test if it throws nothing or
/// something else.
template <class F>
std::string invalid_input_message(F&& f) {
  try {
    f();
  } catch (const InvalidInput& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected kds::InvalidInput, got another exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected kds::InvalidInput, nothing was thrown";
  return {};
}

}  // namespace kds::testing
