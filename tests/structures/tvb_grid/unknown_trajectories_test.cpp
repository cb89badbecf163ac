// Unknown trajectories: spheres driven by random piecewise-constant accelerations within
// their bound (PiecewiseAccelerationProbe), which kds sees only by probing. Checked
// afterwards, exactly, on the realized trajectories: no two spheres ever overlap deeper
// than the contact tolerance (so no contact was missed), no sphere leaves the box by more,
// every contact happened within the tolerance. And probes that break their promise.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <random>

#include "collision_world_support.hpp"
#include "examples/paper_experiment/paper_scene.hpp"
#include "structures/collision/response.hpp"
#include "structures/collision/trajectories/overlap_checker.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

/// A world fed by a PiecewiseAccelerationProbe. Unknown spheres' trajectories are recorded
/// by the probe; ballistic spheres' by watching their motion in the world after each event.
class UnknownWorld {
 public:
  UnknownWorld(std::vector<Sphere> spheres, CollisionWorldSettings settings, double piece_length, std::uint64_t seed,
               std::optional<Misbehaviour> misbehaviour = std::nullopt)
      : spheres_(std::move(spheres)),
        probe_(std::make_unique<PiecewiseAccelerationProbe>(spheres_, piece_length, seed, misbehaviour)),
        ballistic_(spheres_.size()) {
    settings.probe = probe_.get();
    settings_ = settings;
    run_ = std::make_unique<WorldRun>(spheres_, settings);
    record_ballistic();
  }

  /// Processes events up to t, recording ballistic motions; false if the cap stopped it.
  bool run_until(double t, std::uint64_t max_events = 3'000'000) {
    std::uint64_t events = 0;
    while (compare(run_->sim->next_event_time(), t) <= 0) {
      if (++events > max_events) return false;
      run_->sim->step();
      record_ballistic();
    }
    run_->sim->run_until(t);
    end_ = t;
    return true;
  }

  const Trajectory& trajectory(SphereId i) {
    if (spheres_[i].max_acceleration == 0) return ballistic_[i];
    return probe_->trajectory(i);
  }
  CollisionWorld& world() { return *run_->world; }
  Simulator& sim() { return *run_->sim; }
  PiecewiseAccelerationProbe& probe() { return *probe_; }
  const std::vector<Sphere>& spheres() const { return spheres_; }

  /// Every exact check of the realized trajectories over [0, end].
  void check_realized() {
    probe_->realize_until(end_);
    const double tol = settings_.contact_tolerance;
    const std::size_t n = spheres_.size();
    for (SphereId i = 0; i < n; ++i) {
      const auto w = first_wall_overlap(trajectory(i), spheres_[i].radius, settings_.box, tol, 0, end_);
      EXPECT_FALSE(w) << "sphere " << i << " leaves the box through wall " << static_cast<int>(w->wall) << " at t = "
                      << w->time;
      for (SphereId j = i + 1; j < n; ++j) {
        const auto o = first_overlap(trajectory(i), trajectory(j), spheres_[i].radius, spheres_[j].radius, tol, 0, end_);
        if (o) {
          const Gap g = min_gap_over_time(trajectory(i), trajectory(j), spheres_[i].radius, spheres_[j].radius, 0, end_);
          ADD_FAILURE() << "spheres " << i << " and " << j << " overlap deeper than the tolerance from t = " << *o
                        << " (deepest " << -g.gap << " at t = " << g.time << "): a contact was missed";
        }
      }
    }
    // Each contact happened with the real spheres within the tolerance.
    for (const Contact& c : world().contacts()) {
      const Vec<3> xa = piece_at(trajectory(c.a), c.time).position_at(c.time);
      if (c.with_wall) {
        const int k = wall_axis(c.wall);
        const double gap = wall_is_low(c.wall) ? xa[k] - spheres_[c.a].radius - settings_.box.lo[k]
                                               : settings_.box.hi[k] - xa[k] - spheres_[c.a].radius;
        EXPECT_LE(gap, tol * (1 + 1e-6)) << describe(c) << ": gap " << gap;
        EXPECT_GE(gap, -tol * (1 + 1e-6)) << describe(c) << ": gap " << gap;
      } else {
        const Vec<3> xb = piece_at(trajectory(c.b), c.time).position_at(c.time);
        const Vec<3> d{xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
        const double gap = norm3(d) - spheres_[c.a].radius - spheres_[c.b].radius;
        EXPECT_LE(gap, tol * (1 + 1e-6)) << describe(c) << ": gap " << gap;
        EXPECT_GE(gap, -tol * (1 + 1e-6)) << describe(c) << ": gap " << gap;
      }
    }
  }

 private:
  void record_ballistic() {
    for (SphereId i = 0; i < spheres_.size(); ++i) {
      if (spheres_[i].max_acceleration != 0) continue;
      const Motion<3>& m = run_->world->centre_motion(i);
      TrajectoryPiece p;
      p.start = m.start();
      for (int k = 0; k < 3; ++k) {
        p.position[k] = m.coefficients(k)[0];
        p.velocity[k] = m.coefficients(k)[1];
        p.acceleration[k] = 2 * m.coefficients(k)[2];
      }
      Trajectory& t = ballistic_[i];
      if (!t.empty() && t.back().start == p.start) t.back() = p;  // changed again at the same time
      else t.push_back(p);
    }
  }

  std::vector<Sphere> spheres_;
  std::unique_ptr<PiecewiseAccelerationProbe> probe_;
  std::vector<Trajectory> ballistic_;
  CollisionWorldSettings settings_;
  std::unique_ptr<WorldRun> run_;
  double end_ = 0;
};

struct UnknownCase {
  const char* name;
  SceneSpec spec;
  double ballistic_fraction;  ///< share of spheres made ballistic (mixed scenes)
  double piece_length;
  double t_end;
  const char* broad_phase;
};

class UnknownScenes : public ::testing::TestWithParam<UnknownCase> {};

TEST_P(UnknownScenes, NoMissedContactNoOverlapNoEscape) {
  const UnknownCase& c = GetParam();
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uint64_t contacts = 0;
  for (int scene = 0; scene < 2; ++scene) {
    SCOPED_TRACE("scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
    auto spheres = random_scene(rng, c.spec);
    for (Sphere& s : spheres)
      if (std::uniform_real_distribution<double>(0, 1)(rng) < c.ballistic_fraction) s.max_acceleration = 0;
    UnknownWorld w(spheres, world_settings(cube(c.spec.box), c.broad_phase), c.piece_length, seed + scene);
    ASSERT_TRUE(w.run_until(c.t_end)) << "event cap reached";
    w.check_realized();
    contacts += w.world().sphere_contacts();
    std::cout << "[ unknown  ] " << c.name << " #" << scene << ": " << w.world().sphere_contacts() << " sphere contacts, "
              << w.world().wall_contacts() << " wall contacts, " << w.world().probes() << " probes, "
              << w.sim().statistics().events << " events\n";
  }
  EXPECT_GT(contacts, 10u) << "the scenes should collide";
}

INSTANTIATE_TEST_SUITE_P(
    Scenes, UnknownScenes,
    ::testing::Values(UnknownCase{"n30_grid", {30, 18, 0.5, 2, 10, 1, 3, 20}, 0.0, 0.1, 3, "tvb-grid"},
                      UnknownCase{"n30_all_pairs", {30, 18, 0.5, 2, 10, 1, 3, 20}, 0.0, 0.1, 3, "all-pairs"},
                      UnknownCase{"n60_mixed", {60, 30, 0.3, 2, 10, 1, 3, 30}, 0.5, 0.05, 2, "tvb-grid"},
                      UnknownCase{"n40_strong_forces", {40, 18, 0.5, 1.5, 5, 1, 2, 200}, 0.0, 0.02, 1.5, "tvb-grid"}),
    [](const ::testing::TestParamInfo<UnknownCase>& i) { return std::string(i.param.name); });

// The grid and its twin see the same probes at the same times, so they find the same
// contacts: the probe's forces do not depend on when kds asks.
TEST(UnknownTwins, GridAndAllPairsFindTheSameContacts) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (int scene = 0; scene < 2; ++scene) {
    SCOPED_TRACE("scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
    auto spheres = random_scene(rng, SceneSpec{30, 25, 0.5, 2, 10, 1, 3, 20});
    if (scene == 1)
      for (std::size_t i = 0; i < spheres.size(); i += 2) spheres[i].max_acceleration = 0;
    UnknownWorld g(spheres, world_settings(cube(25), "tvb-grid"), 0.1, seed);
    UnknownWorld a(spheres, world_settings(cube(25), "all-pairs"), 0.1, seed);
    ASSERT_TRUE(g.run_until(2));
    ASSERT_TRUE(a.run_until(2));
    EXPECT_TRUE(same_contacts(g.world().contacts(), a.world().contacts()));
  }
}

// Kim, Guibas and Shin's scene (examples/paper_experiment, the benchmark's scene) at small
// n, box shrunk to the paper's density, unknown trajectories: the grid finds the same
// contacts as the all-pairs reference driven by the same forces, and the realized
// trajectories show no missed contact (no overlap deeper than the tolerance, no escape).
// Then the same scene audited after every event. Guards the fast paths of the filter
// (Bernstein search in doubles) and the grid's partial face repair on the scene they
// were made for.
TEST(UnknownPaperScene, SmallSceneMatchesAllPairsAndMissesNoContact) {
  const std::uint64_t seed = test_seed();
  for (std::size_t n : {40u, 80u}) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", seed " + std::to_string(seed));
    paper::PaperScene scene;
    scene.n = n;
    scene.seed = seed;
    scene.box_side = 200.0 * std::cbrt(static_cast<double>(n) / 1000.0);
    const std::vector<Sphere> spheres = paper::paper_spheres(scene);
    const Box3 box = paper::cube(scene.box_side);
    UnknownWorld g(spheres, world_settings(box, "tvb-grid"), 0.1, seed);
    UnknownWorld a(spheres, world_settings(box, "all-pairs"), 0.1, seed);
    ASSERT_TRUE(g.run_until(1.5)) << "event cap reached";
    ASSERT_TRUE(a.run_until(1.5)) << "event cap reached";
    EXPECT_GT(g.world().sphere_contacts(), 5u) << "the scene should collide";
    EXPECT_TRUE(same_contacts(g.world().contacts(), a.world().contacts()));
    g.check_realized();
    std::cout << "[ paper    ] n = " << n << ": " << g.world().sphere_contacts() << " sphere contacts, "
              << g.world().wall_contacts() << " wall contacts, " << g.sim().statistics().events << " events\n";
  }
  paper::PaperScene scene;
  scene.n = 30;
  scene.seed = seed;
  scene.box_side = 200.0 * std::cbrt(30.0 / 1000.0);
  const std::vector<Sphere> spheres = paper::paper_spheres(scene);
  PiecewiseAccelerationProbe probe(spheres, 0.1, seed);
  auto settings = world_settings(paper::cube(scene.box_side), "tvb-grid");
  settings.probe = &probe;
  SimulatorSettings audited;
  audited.audit = true;
  WorldRun w(spheres, settings, audited);
  ASSERT_NO_THROW(w.run_until(1.5));
  EXPECT_GT(w.sim->statistics().audits, 100u);
  // Most bound collisions restart both bounds inside the old ones, keeping the proofs over
  // them (CollisionWorld::restart): the audit checked every kept certificate after each event.
  EXPECT_GT(w.sim->statistics().certificates_kept, 100u);
}

// Audits after every event on a small unknown scene: bounds inside their cells, every
// close pair of bounds certified.
TEST(UnknownAudit, SmallSceneAudited) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  auto spheres = random_scene(rng, SceneSpec{12, 12, 0.4, 1.2, 6, 1, 2, 20});
  PiecewiseAccelerationProbe probe(spheres, 0.1, seed);
  auto settings = world_settings(cube(12), "tvb-grid");
  settings.probe = &probe;
  SimulatorSettings audited;
  audited.audit = true;
  WorldRun w(spheres, settings, audited);
  ASSERT_NO_THROW(w.run_until(2));
  EXPECT_GT(w.sim->statistics().audits, 100u);
  EXPECT_GT(w.sim->statistics().certificates_kept, 10u);
  EXPECT_GT(w.world->sphere_contacts() + w.world->wall_contacts(), 5u);
}

// Eq. (8): a bound is reset when its diameter 2r + A s^2 reaches its sphere's cell side L,
// s = sqrt((L - 2r) / A) after its last reset, so that it never outgrows its cells (which
// the audit after every event checks). Here L = 4 (one level: cell ratio 2, r = 1) and
// A = 0.5: a reset every 2 time units. (Until 2026-11-28 the world reset every
// (L - 2r) / A = 4, when the bound was 10 across.)
TEST(UnknownResets, BoundIsResetWhenItsDiameterReachesTheCellSide) {
  std::vector<Sphere> s(1);
  s[0].position = {50, 50, 50};
  s[0].velocity = {0.5, 0.25, 0};
  s[0].radius = 1;
  s[0].max_acceleration = 0.5;
  auto settings = world_settings(cube(100), "tvb-grid");
  settings.cell_ratio = 2;
  PiecewiseAccelerationProbe probe(s, 0.25, test_seed());
  settings.probe = &probe;
  SimulatorSettings audited;
  audited.audit = true;
  WorldRun w(s, settings, audited);
  std::vector<double> resets;
  while (compare(w.sim->next_event_time(), 11.0) <= 0) {
    w.sim->step();
    if (w.sim->statistics().events_of("resetting") > resets.size()) resets.push_back(w.sim->now_approx());
  }
  ASSERT_EQ(resets.size(), 5u);
  for (std::size_t k = 0; k < resets.size(); ++k) EXPECT_NEAR(resets[k], 2.0 * double(k + 1), 1e-12) << "reset " << k;
  EXPECT_GT(w.sim->statistics().audits, 5u);
}

// Two unknown spheres thrown at each other head on, with small forces: they must meet,
// and the contact is declared with the real spheres within the tolerance.
TEST(UnknownContacts, HeadOnPairMeetsWithinTheTolerance) {
  std::vector<Sphere> s(2);
  s[0].position = {10, 20, 20};
  s[0].velocity = {5, 0, 0};
  s[1].position = {30, 20, 20};
  s[1].velocity = {-5, 0, 0};
  for (Sphere& x : s) x.max_acceleration = 0.5;
  for (double tol : {1e-3, 1e-6, 1e-9}) {
    SCOPED_TRACE("tolerance " + std::to_string(tol));
    auto settings = world_settings(cube(40), "tvb-grid");
    settings.contact_tolerance = tol;
    UnknownWorld w(s, settings, 0.25, test_seed());
    ASSERT_TRUE(w.run_until(4));
    ASSERT_GE(w.world().sphere_contacts(), 1u);
    w.check_realized();
    std::cout << "[ unknown  ] tolerance " << tol << ": " << w.world().probes() << " probes, "
              << w.sim().statistics().events_of("bound collision") << " bound collisions before and after the contact\n";
  }
}

// ---------------------------------------------------------------- broken promises

TEST(UnknownErrors, AccelerationBeyondTheBoundIsReported) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const auto spheres = random_scene(rng, SceneSpec{10, 30, 0.5, 1, 5, 1, 1, 10});
  const SphereId culprit = 3;
  // Long pieces: a constant force five times the bound, from the start.
  UnknownWorld w(spheres, world_settings(cube(30), "tvb-grid"), 10.0, seed,
                 Misbehaviour{culprit, 0.0, 5 * spheres[culprit].max_acceleration});
  const std::string what = invalid_input_message([&] { w.run_until(10); });
  EXPECT_TRUE(message_has(what, {"sphere " + std::to_string(culprit) + " ", "acceleration bound", "at t = ", "more than"}));
  std::cout << "[ message  ] " << what << '\n';
}

/// Straight lines, except that one sphere's state is NaN (or infinite) from some time on.
class BrokenProbe final : public TrajectoryProbe {
 public:
  BrokenProbe(const std::vector<Sphere>& s, SphereId bad, double from, double value)
      : spheres_(s), bad_(bad), from_(from), value_(value) {}
  SphereState state(SphereId i, double t) override {
    SphereState s{spheres_[i].position, spheres_[i].velocity};
    for (int k = 0; k < 3; ++k) s.position[k] += s.velocity[k] * (t - start_[i]);
    if (i == bad_ && t >= from_) s.velocity[1] = value_;
    return s;
  }
  void set_velocity(SphereId i, double t, const Vec<3>& v) override {
    spheres_[i].position = state(i, t).position;
    spheres_[i].velocity = v;
    start_[i] = t;
  }

 private:
  std::vector<Sphere> spheres_;
  std::map<SphereId, double> start_;
  SphereId bad_;
  double from_, value_;
};

TEST(UnknownErrors, ProbeReturningNaNOrInfinityIsReported) {
  std::vector<Sphere> s(3);
  for (SphereId i = 0; i < 3; ++i) {
    s[i].position = {5.0 + 10 * i, 10, 10};
    s[i].velocity = {1, 0.5, 0};
    s[i].max_acceleration = 2;
  }
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    BrokenProbe probe(s, 1, 0.5, bad);
    auto settings = world_settings(cube(40), "tvb-grid");
    settings.probe = &probe;
    WorldRun w(s, settings);
    const std::string what = invalid_input_message([&] { w.run_until(20); });
    EXPECT_TRUE(message_has(what, {"sphere 1", "NaN or infinite", "t = "}));
  }
}

}  // namespace
}  // namespace kds::testing
