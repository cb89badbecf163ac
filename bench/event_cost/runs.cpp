#include "bench/event_cost/runs.hpp"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "bench/baselines/bound_spheres.hpp"
#include "bench/baselines/cell_list_spheres.hpp"
#include "bench/baselines/floating_sorted_list.hpp"
#include "bench/event_cost/probed_motions.hpp"
#include "bench/event_cost/process.hpp"
#include "bench/event_cost/scenes.hpp"
#include "bench/sorted_list/measure.hpp"
#include "bench/sorted_list/scene.hpp"
#include "bench/tvb_grid/lattice_scene.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/trajectories/piecewise_acceleration_probe.hpp"
#include "structures/hard_spheres/hard_sphere_world.hpp"
#include "structures/sorted_list/linear_sorted_list.hpp"

namespace kds::bench {
namespace {

/// How long each random force of the paper's unknown trajectories lasts (as in
/// examples/paper_experiment and bench/tvb_grid).
constexpr double force_interval = 0.1;

std::vector<baseline::Ball> balls_of(const std::vector<Sphere>& spheres) {
  std::vector<baseline::Ball> balls;
  balls.reserve(spheres.size());
  for (const Sphere& s : spheres) balls.push_back(baseline::Ball{s.position, s.velocity, s.radius, s.mass});
  return balls;
}

/// The kds counters of issue 8's profile, from `before` to `after`.
void count(Measurement& m, const Statistics& before, const Statistics& after) {
  m.events = after.events - before.events;
  m.failure_computations = after.solver.failure_computations - before.solver.failure_computations;
  m.certificates_created = after.certificates_created - before.certificates_created;
  m.certificates_destroyed = after.certificates_destroyed - before.certificates_destroyed;
  m.comparisons = after.solver.comparisons - before.solver.comparisons;
  auto exact = [](const Statistics& s) {
    return s.solver.failure_exact + s.solver.sign_exact + s.solver.comparisons_exact;
  };
  m.exact_fallbacks = exact(after) - exact(before);
}

/// Runs `step` (one event; false when none is left) until `done()` or the CPU budget.
template <class Step, class Done>
void timed_loop(Measurement& m, double budget, Step step, Done done) {
  const double start = process_cpu_seconds();
  for (std::uint64_t k = 0; !done(); ++k) {
    if (!step()) break;
    if (k % 4096 == 0 && process_cpu_seconds() - start > budget) break;
  }
  m.run_cpu_s = process_cpu_seconds() - start;
}

Measurement hard_spheres_kds(Measurement m, const RunSettings& s, Exactness exactness) {
  const LatticeScene scene = hard_sphere_scene(m.n, s.phi, s.seed, s.shuffled);
  CollisionWorldSettings settings;
  settings.box = scene.box;
  settings.broad_phase = "tvb-grid";
  const double setup = process_cpu_seconds();
  Simulator sim(SimulatorSettings{exactness});
  CollisionWorld world(sim, settings, scene.spheres);
  world.keep_contacts(false);  // counted, not logged: as the hard-sphere path's runs
  sim.flush();
  m.setup_cpu_s = process_cpu_seconds() - setup;
  const double warm = 0.25 * s.per_sphere * static_cast<double>(m.n);
  while (static_cast<double>(world.sphere_contacts()) < warm && sim.step()) {
  }
  const Statistics before = sim.statistics();
  const std::uint64_t c0 = world.sphere_contacts();
  const double t0 = sim.now_approx();
  const double target = static_cast<double>(c0) + s.per_sphere * static_cast<double>(m.n);
  timed_loop(
      m, s.budget, [&] { return sim.step(); }, [&] { return static_cast<double>(world.sphere_contacts()) >= target; });
  count(m, before, sim.statistics());
  m.collisions = world.sphere_contacts() - c0;
  m.simulated_s = sim.now_approx() - t0;
  return m;
}

/// The hard-sphere path's counters over a timed stretch, on stderr (how often each path
/// of event_times.hpp ran).
void report_counters(std::size_t n, const HardSphereStats& before, const HardSphereStats& after) {
  std::fprintf(stderr,
               "[kds_hard_spheres n=%zu] pair windows asked %llu, rejected %llu (%llu by the first tests), beyond the bound %llu (%llu by the first tests), enclosed %llu; "
               "wall windows %llu; instants resolved %llu (exact in the last ulps %llu); exact windows %llu; stale "
               "events %llu; reschedules %llu; instants with exact ordering %llu\n",
               n, (unsigned long long)(after.times.pair_tests - before.times.pair_tests),
               (unsigned long long)(after.times.pair_rejected - before.times.pair_rejected),
               (unsigned long long)(after.times.pair_rejected_coarse - before.times.pair_rejected_coarse),
               (unsigned long long)(after.times.pair_beyond - before.times.pair_beyond),
               (unsigned long long)(after.times.pair_beyond_coarse - before.times.pair_beyond_coarse),
               (unsigned long long)(after.times.pair_windows - before.times.pair_windows),
               (unsigned long long)(after.times.wall_tests - before.times.wall_tests),
               (unsigned long long)(after.times.instants - before.times.instants),
               (unsigned long long)(after.times.instants_exact - before.times.instants_exact),
               (unsigned long long)(after.times.exact_fallbacks - before.times.exact_fallbacks),
               (unsigned long long)(after.stale - before.stale), (unsigned long long)(after.reschedules - before.reschedules),
               (unsigned long long)(after.instants_exact - before.instants_exact));
}

/// Item 3's path (structures/hard_spheres): exact answers, one event per sphere. Its
/// counters map onto the CSV's: failure computations are the pair and wall windows asked
/// for, exact fallbacks every use of the exact path (a window the bound could not give,
/// an instant that needed exact evaluation, an exact root comparison at one instant).
Measurement hard_spheres_fast(Measurement m, const RunSettings& s) {
  LatticeScene scene = hard_sphere_scene(m.n, s.phi, s.seed, s.shuffled);
  CollisionWorldSettings settings;
  settings.box = scene.box;
  const double setup = process_cpu_seconds();
  // The scene handed over (as a user who no longer needs it would): the world releases
  // it once the motions are copied, so that it does not sit beside the world at the peak.
  HardSphereWorld world(settings, std::move(scene.spheres));
  world.keep_contacts(false);
  m.setup_cpu_s = process_cpu_seconds() - setup;
  const double warm = 0.25 * s.per_sphere * static_cast<double>(m.n);
  while (static_cast<double>(world.sphere_contacts()) < warm && world.step()) {
  }
  const HardSphereStats before = world.stats();
  const std::uint64_t c0 = world.sphere_contacts();
  const double t0 = world.now();
  const double target = static_cast<double>(c0) + s.per_sphere * static_cast<double>(m.n);
  timed_loop(
      m, s.budget, [&] { return world.step(); }, [&] { return static_cast<double>(world.sphere_contacts()) >= target; });
  const HardSphereStats& after = world.stats();
  m.collisions = world.sphere_contacts() - c0;
  m.events = (after.events - before.events) + (after.cell_crossings - before.cell_crossings);
  m.failure_computations = (after.times.pair_tests - before.times.pair_tests) +
                           (after.times.wall_tests - before.times.wall_tests);
  auto exact = [](const HardSphereStats& x) { return x.times.exact_fallbacks + x.times.instants_exact + x.exact_comparisons; };
  m.exact_fallbacks = exact(after) - exact(before);
  m.comparisons = after.instants_exact - before.instants_exact;  // instants whose first event needed exact roots
  m.simulated_s = world.now() - t0;
  report_counters(m.n, before, after);
  return m;
}

Measurement hard_spheres_baseline(Measurement m, const RunSettings& s) {
  const LatticeScene scene = hard_sphere_scene(m.n, s.phi, s.seed, s.shuffled);
  const double setup = process_cpu_seconds();
  baseline::CellListSpheres world(scene.box.lo, scene.box.hi, balls_of(scene.spheres));
  m.setup_cpu_s = process_cpu_seconds() - setup;
  const double warm = 0.25 * s.per_sphere * static_cast<double>(m.n);
  while (static_cast<double>(world.counters().sphere_collisions) < warm && world.step()) {
  }
  const baseline::CellListCounters before = world.counters();
  const double t0 = world.time();
  const double target = static_cast<double>(before.sphere_collisions) + s.per_sphere * static_cast<double>(m.n);
  timed_loop(
      m, s.budget, [&] { return world.step(); },
      [&] { return static_cast<double>(world.counters().sphere_collisions) >= target; });
  const baseline::CellListCounters& after = world.counters();
  m.collisions = after.sphere_collisions - before.sphere_collisions;
  m.events =
      m.collisions + (after.wall_collisions - before.wall_collisions) + (after.cell_crossings - before.cell_crossings);
  m.simulated_s = world.time() - t0;
  m.failure_computations = after.pair_tests - before.pair_tests;  // its pair predictions (walls are not counted)
  return m;
}

Measurement paper_kds(Measurement m, const RunSettings& s, bool ballistic) {
  const auto [spheres, box] = paper_scene(m.n, s.seed, ballistic);
  std::unique_ptr<PiecewiseAccelerationProbe> probe;
  if (!ballistic) probe = std::make_unique<PiecewiseAccelerationProbe>(spheres, force_interval, s.seed);
  CollisionWorldSettings settings;
  settings.box = box;
  settings.broad_phase = "tvb-grid";
  settings.probe = probe.get();
  const double setup = process_cpu_seconds();
  Simulator sim;
  CollisionWorld world(sim, settings, spheres);
  world.keep_contacts(false);
  sim.flush();
  m.setup_cpu_s = process_cpu_seconds() - setup;
  const Statistics before = sim.statistics();
  const double start = process_cpu_seconds();
  // Chunks of 1/20 simulated second, so that the budget is checked often enough.
  while (m.simulated_s < s.paper_seconds && process_cpu_seconds() - start < s.budget) {
    m.simulated_s = std::min(s.paper_seconds, m.simulated_s + 0.05);
    sim.run_until(m.simulated_s);
  }
  m.run_cpu_s = process_cpu_seconds() - start;
  count(m, before, sim.statistics());
  m.collisions = world.sphere_contacts();
  return m;
}

/// The same spheres as paper_kds's ballistic run, through item 3's path
/// (structures/hard_spheres): one event per sphere, exact answers.
Measurement paper_hard_spheres(Measurement m, const RunSettings& s) {
  const auto [spheres, box] = paper_scene(m.n, s.seed, true);
  CollisionWorldSettings settings;
  settings.box = box;
  const double setup = process_cpu_seconds();
  HardSphereWorld world(settings, spheres);
  world.keep_contacts(false);
  m.setup_cpu_s = process_cpu_seconds() - setup;
  const HardSphereStats before = world.stats();
  const double start = process_cpu_seconds();
  while (m.simulated_s < s.paper_seconds && process_cpu_seconds() - start < s.budget) {
    m.simulated_s = std::min(s.paper_seconds, m.simulated_s + 0.05);
    world.run_until(m.simulated_s);
  }
  m.run_cpu_s = process_cpu_seconds() - start;
  const HardSphereStats& after = world.stats();
  m.events = (after.events - before.events) + (after.cell_crossings - before.cell_crossings);
  m.failure_computations = (after.times.pair_tests - before.times.pair_tests) +
                           (after.times.wall_tests - before.times.wall_tests);
  auto exact = [](const HardSphereStats& x) { return x.times.exact_fallbacks + x.times.instants_exact + x.exact_comparisons; };
  m.exact_fallbacks = exact(after) - exact(before);
  m.comparisons = after.instants_exact - before.instants_exact;
  report_counters(m.n, before, after);
  m.collisions = world.sphere_contacts();
  return m;
}

/// What run_plain_to_horizon saw: whether it processed the first event past the horizon
/// (to be left out of the counts), and the sphere contacts up to the horizon.
struct PlainRun {
  std::uint64_t beyond = 0;
  std::uint64_t contacts = 0;
};

/// Steps a plain code (step(), time()) through the paper scene's simulated seconds, or
/// until the budget, timing it into m.run_cpu_s; `contacts()` counts its sphere contacts.
template <class PlainCode, class Contacts>
PlainRun run_plain_to_horizon(Measurement& m, const RunSettings& s, PlainCode& world, Contacts contacts) {
  const double start = process_cpu_seconds();
  PlainRun run;
  while (world.step()) {
    if (world.time() > s.paper_seconds) {
      run.beyond = 1;
      break;
    }
    run.contacts = contacts();
    if (process_cpu_seconds() - start > s.budget) break;
  }
  m.run_cpu_s = process_cpu_seconds() - start;
  return run;
}

Measurement paper_baseline(Measurement m, const RunSettings& s) {
  const auto [spheres, box] = paper_scene(m.n, s.seed, true);
  const double setup = process_cpu_seconds();
  baseline::CellListSpheres world(box.lo, box.hi, balls_of(spheres));
  m.setup_cpu_s = process_cpu_seconds() - setup;
  const PlainRun run = run_plain_to_horizon(m, s, world, [&] { return world.counters().sphere_collisions; });
  const baseline::CellListCounters& c = world.counters();
  m.events = c.sphere_collisions + c.wall_collisions + c.cell_crossings - run.beyond;
  m.collisions = run.contacts;
  m.simulated_s = std::min(world.time(), s.paper_seconds);
  return m;
}

/// The unknown scene through the plain floating code (bench/baselines/bound_spheres.hpp),
/// with the same forces (a probe of its own, seeded alike) and kds's cell ratio on it (2,
/// chosen by kds's cost model and the best of kds_bench_tvb_cell_size's sweep).
Measurement paper_unknown_baseline(Measurement m, const RunSettings& s) {
  const auto [spheres, box] = paper_scene(m.n, s.seed, false);
  PiecewiseAccelerationProbe probe(spheres, force_interval, s.seed);
  ProbedMotions motions(probe);
  const std::vector<baseline::BoundBall> balls = bound_balls_of(spheres);
  const double setup = process_cpu_seconds();
  baseline::BoundSpheres world(box.lo, box.hi, balls, motions, s.unknown_cell_ratio);
  m.setup_cpu_s = process_cpu_seconds() - setup;
  const PlainRun run = run_plain_to_horizon(m, s, world, [&] { return world.counters().sphere_contacts; });
  const baseline::BoundSpheresCounters& c = world.counters();
  m.events = c.events() - run.beyond;
  m.collisions = run.contacts;
  m.simulated_s = std::min(world.time(), s.paper_seconds);
  std::fprintf(stderr,
               "[baseline paper_unknown n=%zu] bound meetings %llu, wall reaches %llu, deadlines %llu, region changes %llu, "
               "stale %llu, pair tests %llu (quartics searched %llu), sphere contacts %llu, wall contacts %llu\n",
               m.n, (unsigned long long)c.bound_meetings, (unsigned long long)c.wall_reaches,
               (unsigned long long)c.deadlines, (unsigned long long)c.region_changes, (unsigned long long)c.stale_events,
               (unsigned long long)c.pair_tests, (unsigned long long)c.quartics, (unsigned long long)c.sphere_contacts,
               (unsigned long long)c.wall_contacts);
  return m;
}

Measurement sorted_list(Measurement m, const RunSettings& s, const std::string& code) {
  const double horizon = horizon_for(3);
  const int repetitions = std::max(1, static_cast<int>(std::ceil(s.min_events / (3.0 * static_cast<double>(m.n)))));
  for (int rep = 0; rep < repetitions; ++rep) {
    const std::vector<Point> points = random_scene(m.n, s.seed + static_cast<std::uint64_t>(rep));
    if (code == "baseline") {
      std::vector<double> x, v;
      for (const Point& p : points) {
        x.push_back(p.x);
        v.push_back(p.v);
      }
      const double setup = process_cpu_seconds();
      baseline::FloatingSortedList list(x, v);
      const double start = process_cpu_seconds();
      m.events += list.run_until(horizon);
      m.run_cpu_s += process_cpu_seconds() - start;
      m.setup_cpu_s += start - setup;
    } else if (code == "kds_linear") {
      std::vector<LinearPoint> p;
      p.reserve(points.size());
      for (const Point& q : points) p.push_back({q.x, q.v});
      const double setup = process_cpu_seconds();
      LinearSortedList list(p);
      const double start = process_cpu_seconds();
      list.run_until(horizon);
      m.run_cpu_s += process_cpu_seconds() - start;
      m.setup_cpu_s += start - setup;
      const LinearSortedListStats& st = list.stats();
      m.events += st.swaps;
      m.failure_computations += st.failure_times;
      m.comparisons += st.comparisons_undecided;
      m.exact_fallbacks += st.comparisons_exact;
    } else {
      const RunResult r = run_scene(points, horizon, code == "kds" ? Exactness::filtered : Exactness::floating);
      m.setup_cpu_s += r.setup_seconds;
      m.run_cpu_s += r.run_seconds;
      m.events += r.events;
      m.failure_computations += r.solver.failure_computations;
      m.comparisons += r.solver.comparisons;
      m.exact_fallbacks += r.solver.failure_exact + r.solver.sign_exact + r.solver.comparisons_exact;
      m.certificates_created += r.certificates_created;
      m.certificates_destroyed += r.certificates_destroyed;
    }
    m.simulated_s += horizon;
  }
  m.collisions = m.events;
  return m;
}

}  // namespace

double Measurement::work_units() const {
  if (work == "hard_spheres") return static_cast<double>(collisions);
  if (work == "sorted_list") return static_cast<double>(events);
  return simulated_s;
}

Measurement measure(const std::string& work, const std::string& code, std::size_t n, const RunSettings& settings) {
  Measurement m;
  m.work = work;
  m.code = code;
  m.n = n;
  m.start_rss = resident_bytes();
  const bool kds = code == "kds" || code == "kds_floating";
  if (!kds && code != "baseline" && code != "kds_hard_spheres" && code != "kds_linear")
    throw std::invalid_argument("unknown code '" + code + "'");
  const Exactness exactness = code == "kds_floating" ? Exactness::floating : Exactness::filtered;
  if (work == "hard_spheres" && code == "kds_hard_spheres")
    m = hard_spheres_fast(m, settings);
  else if (work == "paper_ballistic" && code == "kds_hard_spheres")
    m = paper_hard_spheres(m, settings);
  else if (code == "kds_hard_spheres" || (code == "kds_linear" && work != "sorted_list"))
    throw std::invalid_argument("no run of code '" + code + "' for work '" + work + "'");
  else if (work == "hard_spheres")
    m = kds ? hard_spheres_kds(m, settings, exactness) : hard_spheres_baseline(m, settings);
  else if (work == "paper_unknown" && code == "kds")
    m = paper_kds(m, settings, false);
  else if (work == "paper_unknown" && code == "baseline")
    m = paper_unknown_baseline(m, settings);
  else if (work == "paper_ballistic")
    m = kds ? paper_kds(m, settings, true) : paper_baseline(m, settings);
  else if (work == "sorted_list")
    m = sorted_list(m, settings, code);
  else
    throw std::invalid_argument("no run of code '" + code + "' for work '" + work + "'");
  m.peak_rss = peak_resident_bytes();
  return m;
}

std::string csv_header() {
  return "work,code,n,setup_cpu_s,run_cpu_s,events,collisions,simulated_s,start_rss_bytes,peak_rss_bytes,"
         "failure_computations,certificates_created,certificates_destroyed,comparisons,exact_fallbacks";
}

std::string csv_line(const Measurement& m) {
  std::ostringstream os;
  os.precision(9);
  os << m.work << ',' << m.code << ',' << m.n << ',' << m.setup_cpu_s << ',' << m.run_cpu_s << ',' << m.events << ','
     << m.collisions << ',' << m.simulated_s << ',' << m.start_rss << ',' << m.peak_rss << ',' << m.failure_computations
     << ',' << m.certificates_created << ',' << m.certificates_destroyed << ',' << m.comparisons << ','
     << m.exact_fallbacks;
  return os.str();
}

Measurement parse_csv_line(const std::string& line) {
  std::istringstream is(line);
  Measurement m;
  std::getline(is, m.work, ',');
  std::getline(is, m.code, ',');
  char comma = 0;
  is >> m.n >> comma >> m.setup_cpu_s >> comma >> m.run_cpu_s >> comma >> m.events >> comma >> m.collisions >> comma >>
      m.simulated_s >> comma >> m.start_rss >> comma >> m.peak_rss >> comma >> m.failure_computations >> comma >>
      m.certificates_created >> comma >> m.certificates_destroyed >> comma >> m.comparisons >> comma >>
      m.exact_fallbacks;
  if (!is) throw std::runtime_error("unreadable line from a measured process: '" + line + "'");
  return m;
}

}  // namespace kds::bench
