#include "structures/collision/collision_world_model.hpp"

#include <algorithm>
#include <cstdio>

#include "kds/errors.hpp"
#include "kds/report/quality.hpp"

namespace kds {
namespace {

/// "sphere 3" or "spheres 0, 1, 4": the spheres of a NoProgress's bodies.
std::string spheres_of(const CollisionWorld& world, const std::vector<BodyId>& bodies) {
  std::string list;
  std::size_t n = 0;
  for (const BodyId b : bodies) {
    const SphereId s = world.sphere_of(b);
    if (s >= world.size()) continue;
    list += (n++ == 0 ? "" : ", ") + std::to_string(s);
  }
  return (n == 1 ? "sphere " : "spheres ") + list;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "  (%.1f%%)", whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return text;
}

}  // namespace

CollisionWorldModel::CollisionWorldModel(const CollisionWorldSettings& settings, const std::vector<Sphere>& spheres,
                                         const SphereWorldOptions& options)
    : sim_(SimulatorSettings{.exactness = options.exactness, .audit = options.audit}) {
  world_.emplace(sim_, settings, spheres);
  sim_.flush();  // the first failure times: part of building the world
}

// The world holds bodies of the simulator: it goes first.
CollisionWorldModel::~CollisionWorldModel() { world_.reset(); }

void CollisionWorldModel::run_until(double t) {
  try {
    sim_.run_until(t);
  } catch (const NoProgress& e) {
    if (e.bodies.empty()) throw;
    throw NoProgress(std::string(e.what()) + " (" + spheres_of(*world_, e.bodies) + ")", e.bodies);
  }
}

void CollisionWorldModel::on_progress(ProgressObserver f) {
  if (progress_.empty()) sim_.add_observer(forward_);
  progress_.push_back(std::move(f));
}

void CollisionWorldModel::Forward::on_event(const EventRecord& e) {
  for (const ProgressObserver& f : model_.progress_) f(e.time.approx(), e.index + 1);
}

void CollisionWorldModel::write_events(std::ostream& out) {
  const Statistics& s = sim_.statistics();
  std::vector<Statistics::KindCount> kinds = s.events_by_kind;  // most frequent first
  std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.count > b.count; });
  out << "Events by type:\n";
  for (const Statistics::KindCount& k : kinds)
    out << "  " << k.kind << std::string(k.kind.size() < 18 ? 18 - k.kind.size() : 1, ' ') << k.count
        << percent(k.count, s.events) << "\n";
  out << "  total             " << s.events << "\n";
}

void CollisionWorldModel::write_statistics(std::ostream& out) {
  const Statistics& s = sim_.statistics();
  out << "Exact fallbacks: " << s.solver.failure_exact << " of " << s.solver.failure_computations
      << " failure times, " << s.solver.sign_exact << " of " << s.solver.sign_queries << " signs, "
      << s.solver.comparisons_exact << " of " << s.solver.comparisons << " comparisons";
  if (s.solver.comparisons_same_line > 0)
    out << "; " << s.solver.comparisons_same_line
        << " comparisons were ties of one linear function, decided without the exact path";
  if (s.solver.failure_same_roots > 0)
    out << "; " << s.solver.failure_same_roots
        << " failure times of lines born level with the clock were the clock's own function, decided without it";
  out << "\n";
  if (s.audits + s.audits_skipped > 0)
    out << "Audits: " << s.audits << " passed, " << s.audits_skipped << " skipped (no double between two events)\n";
  out << "\nKDS quality (Basch, Guibas, Hershberger):\n" << measure_quality(sim_);
}

}  // namespace kds
