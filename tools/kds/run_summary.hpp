#pragma once
/// \file
/// What `kds run` prints when a run ends: the scenario and settings, events by type,
/// contacts, wall time per simulated second, exact fallbacks and the four KDS quality
/// figures (kds/report/quality.hpp).

#include <ostream>
#include <string>

#include "tools/kds/scenario_run.hpp"

namespace kds::cli {

void print_summary(std::ostream& out, const std::string& file, ScenarioRun& run, double wall_seconds);

}  // namespace kds::cli
