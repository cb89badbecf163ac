#pragma once
/// \file
/// What `kds run` prints when a run ends: the scenario and settings, events by type,
/// contacts, wall time per simulated second, then the structure's own figures
/// (SphereWorld::write_statistics: exact fallbacks and the four KDS quality figures of
/// kds/report/quality.hpp for a simulator; HardSphereStats for hard-spheres).

#include <ostream>
#include <string>

#include "tools/kds/scenario_run.hpp"

namespace kds::cli {

/// `setup_seconds`: building the world and its first certificates; `run_seconds`: the
/// event loop (with the exports it wrote on the way).
void print_summary(std::ostream& out, const std::string& file, ScenarioRun& run, double setup_seconds,
                   double run_seconds);

}  // namespace kds::cli
