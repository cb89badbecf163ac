#include "tools/kds/run_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "kds/report/quality.hpp"

namespace kds::cli {
namespace {

std::string format(const char* f, double x) {
  char text[64];
  std::snprintf(text, sizeof text, f, x);
  return text;
}

}  // namespace

void print_summary(std::ostream& out, const std::string& file, ScenarioRun& run, double setup_seconds,
                   double wall_seconds) {
  Simulator& sim = run.simulator();
  const CollisionWorld& world = run.world();
  const Statistics& s = sim.statistics();
  const Scenario& sc = run.scenario();
  std::size_t unknown = 0;
  for (SphereId i = 0; i < world.size(); ++i) unknown += world.ballistic(i) ? 0 : 1;

  out << "Scenario " << file << (sc.name.empty() ? "" : " (" + sc.name + ")") << ": " << world.size() << " spheres";
  if (unknown > 0) {
    out << ", " << unknown << " with unknown trajectories (" << trajectories_name(sc.trajectories.kind);
    if (sc.trajectories.kind == Trajectories::Kind::random_forces) out << ", seed " << *run.settings().seed;
    out << ")";
  }
  out << "\nStructure " << run.structure() << ", " << response_name(sc.response) << " response, simulated until t = "
      << run.until()
      << (run.settings().audit ? ", audited after every event" : "") << "\n\n";

  out << "Events by type:\n";
  std::vector<Statistics::KindCount> kinds = s.events_by_kind;  // most frequent first
  std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.count > b.count; });
  for (const Statistics::KindCount& k : kinds) {
    const double share = s.events ? 100.0 * static_cast<double>(k.count) / static_cast<double>(s.events) : 0.0;
    out << "  " << k.kind << std::string(k.kind.size() < 18 ? 18 - k.kind.size() : 1, ' ') << k.count
        << format("  (%.1f%%)", share) << "\n";
  }
  out << "  total             " << s.events << "\n";
  out << "Collisions: " << world.sphere_contacts() << " sphere-sphere, " << world.wall_contacts()
      << " sphere-wall; probes of unknown trajectories: " << world.probes() << "\n";
  out << "Wall time: set up in " << format("%.3f", setup_seconds) << " s, ran in " << format("%.3f", wall_seconds) << " s: " << format("%.4g", wall_seconds / run.until())
      << " s per simulated second";
  if (wall_seconds > 0) out << format(", %.3g events per second", static_cast<double>(s.events) / wall_seconds);
  out << "\nExact fallbacks: " << s.solver.failure_exact << " of " << s.solver.failure_computations
      << " failure times, " << s.solver.comparisons_exact << " of " << s.solver.comparisons << " comparisons\n";
  if (s.audits + s.audits_skipped > 0)
    out << "Audits: " << s.audits << " passed, " << s.audits_skipped << " skipped (no double between two events)\n";
  out << "\nKDS quality (Basch, Guibas, Hershberger):\n" << measure_quality(sim);
}

}  // namespace kds::cli
