#include "tools/kds/baseline_comparison.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "structures/collision/baseline/frame_baseline.hpp"

namespace kds::cli {
namespace {

using Pair = std::pair<SphereId, SphereId>;

std::set<Pair> touching_pairs(const std::vector<Contact>& contacts) {
  std::set<Pair> pairs;
  for (const Contact& c : contacts)
    if (!c.with_wall) pairs.insert({std::min(c.a, c.b), std::max(c.a, c.b)});
  return pairs;
}

}  // namespace

BaselineComparison compare_with_baseline(ScenarioRun& run, double dt) {
  const Scenario& s = run.scenario();
  FrameBaselineSettings settings;
  settings.box = s.box;
  settings.dt = dt;
  settings.gravity = s.gravity;
  settings.restitution = s.restitution;
  FrameBaseline baseline(settings, s.spheres);
  baseline.run_until(run.until());

  BaselineComparison c;
  c.dt = dt;
  c.sphere_contacts = baseline.counters().sphere_contacts;
  c.wall_contacts = baseline.counters().wall_contacts;
  const std::set<Pair> seen = touching_pairs(baseline.contacts());
  const std::set<Pair> exact = touching_pairs(run.world().contacts());
  c.pairs_exact = exact.size();
  for (const Pair& p : exact) c.pairs_missed += seen.count(p) ? 0 : 1;
  for (const Contact& k : run.world().contacts()) {
    if (k.with_wall || seen.count({std::min(k.a, k.b), std::max(k.a, k.b)})) continue;
    c.first_missed_time = k.time;
    c.first_missed_a = std::min(k.a, k.b);
    c.first_missed_b = std::max(k.a, k.b);
    break;
  }
  return c;
}

std::ostream& operator<<(std::ostream& out, const BaselineComparison& c) {
  out << "Frame-based baseline, dt = " << c.dt << ": " << c.sphere_contacts << " sphere-sphere, " << c.wall_contacts
      << " sphere-wall contacts; " << c.pairs_missed << " of the " << c.pairs_exact
      << " pairs that touched in kds' run never touched in the baseline's";
  if (c.first_missed_time >= 0)
    out << " (the first: spheres " << c.first_missed_a << " and " << c.first_missed_b << " at t = " << c.first_missed_time
        << ")";
  return out << "\n";
}

}  // namespace kds::cli
