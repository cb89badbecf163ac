#include "tools/kds/run_summary.hpp"

#include <cstdio>

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
  SphereWorld& world = run.world();
  const Scenario& sc = run.scenario();
  std::size_t unknown = 0;
  for (const Sphere& s : sc.spheres) unknown += s.max_acceleration > 0 ? 1 : 0;

  out << "Scenario " << file << (sc.name.empty() ? "" : " (" + sc.name + ")") << ": " << world.size() << " spheres";
  if (unknown > 0) {
    out << ", " << unknown << " with unknown trajectories (" << trajectories_name(sc.trajectories.kind);
    if (sc.trajectories.kind == Trajectories::Kind::random_forces) out << ", seed " << *run.settings().seed;
    out << ")";
  }
  out << "\nStructure " << run.structure() << ", " << response_name(sc.response) << " response, simulated until t = "
      << run.until()
      << (run.settings().audit ? ", audited" : "") << "\n\n";

  world.write_events(out);
  out << "Collisions: " << world.sphere_contacts() << " sphere-sphere, " << world.wall_contacts()
      << " sphere-wall; probes of unknown trajectories: " << world.probes() << "\n";
  out << "Wall time: set up in " << format("%.3f", setup_seconds) << " s, ran in " << format("%.3f", wall_seconds) << " s: " << format("%.4g", wall_seconds / run.until())
      << " s per simulated second";
  if (wall_seconds > 0) out << format(", %.3g events per second", static_cast<double>(world.events()) / wall_seconds);
  out << "\n";
  world.write_statistics(out);
}

}  // namespace kds::cli
