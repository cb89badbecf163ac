#include "structures/hard_spheres/hard_sphere_world_model.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "kds/errors.hpp"

namespace kds {
namespace {

/// HardSphereWorld's settings, once the options were checked: it has no floating mode.
const CollisionWorldSettings& checked(const CollisionWorldSettings& settings, const SphereWorldOptions& options) {
  if (options.exactness == Exactness::floating)
    throw InvalidInput(std::string(HardSphereWorldModel::name) +
                       ": no floating-point-only mode (its failure times are exact, from the closed form in doubles "
                       "with an error bound); use a broad phase such as all-pairs or tvb-grid to measure the floating mode");
  return settings;
}

std::string line(const char* kind, std::uint64_t count, std::uint64_t total) {
  char text[96];
  std::snprintf(text, sizeof text, "  %-17s %llu  (%.1f%%)\n", kind, static_cast<unsigned long long>(count),
                total ? 100.0 * static_cast<double>(count) / static_cast<double>(total) : 0.0);
  return text;
}

}  // namespace

HardSphereWorldModel::HardSphereWorldModel(const CollisionWorldSettings& settings, const std::vector<Sphere>& spheres,
                                           const SphereWorldOptions& options)
    : world_(checked(settings, options), spheres), audit_(options.audit) {
  if (audit_) {
    world_.audit();
    ++audits_;
    observe_events();
  }
}

void HardSphereWorldModel::observe_events() {
  if (observing_) return;
  observing_ = true;
  world_.on_event([this] { after_event(); });
}

void HardSphereWorldModel::after_event() {
  // As Simulator::observe: the observers, then the audit.
  if (!progress_.empty()) {
    const double t = world_.now();
    const std::uint64_t n = events();
    for (const ProgressObserver& f : progress_) f(t, n);
  }
  if (!audit_) return;
  if (const std::optional<double> t = world_.time_between_events()) {
    world_.audit(*t);
    ++audits_;
  } else {
    ++audits_skipped_;
  }
}

void HardSphereWorldModel::run_until(double t) {
  world_.run_until(t);
  if (audit_) {
    world_.audit();
    ++audits_;
  }
}

void HardSphereWorldModel::on_progress(ProgressObserver f) {
  progress_.push_back(std::move(f));
  observe_events();
}

void HardSphereWorldModel::write_events(std::ostream& out) {
  const HardSphereStats& s = world_.stats();
  const std::uint64_t total = s.events + s.cell_crossings;
  out << "Events by type:\n";
  // Most frequent first, as the simulator's kinds are listed.
  if (s.cell_crossings > s.events) out << line("cell crossing", s.cell_crossings, total);
  out << line("pair or wall", s.events, total);
  if (s.cell_crossings <= s.events) out << line("cell crossing", s.cell_crossings, total);
  out << "  total             " << total << "\n";
}

void HardSphereWorldModel::write_statistics(std::ostream& out) {
  const HardSphereStats& s = world_.stats();
  const hard_spheres::TimeCounters& t = s.times;
  out << "Exact fallbacks: " << t.exact_fallbacks << " of " << t.pair_tests + t.wall_tests
      << " failure times (the doubles' error bound could not enclose them), " << t.instants_exact << " of "
      << t.instants << " instants (the double-double filter could not round them), " << s.exact_comparisons
      << " root comparisons\n";
  if (audits_ + audits_skipped_ > 0)
    out << "Audits: " << audits_ << " passed, " << audits_skipped_
        << " skipped (no double between two events; after the setup, every event and every run_until)\n";
  out << "\nHard spheres (one event per sphere, docs/structures/hard-spheres.md):\n"
      << "  stale events:     " << s.stale << " (a partner moved since they were scheduled: recomputed)\n"
      << "  reschedules:      " << s.reschedules << " (a sphere's earliest event recomputed)\n"
      << "  instants:         " << s.instants << " (" << s.instants_exact
      << " whose first event needed exact roots to be told)\n"
      << "  cells:            " << world_.cells()[0] << " x " << world_.cells()[1] << " x " << world_.cells()[2] << "\n";
}

}  // namespace kds
