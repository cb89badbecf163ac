#pragma once
/// \file
/// Writes scenario files (docs/scenario-json.md) that read_scenario reads back exactly:
/// numbers in the shortest form that gives the same double.

#include <ostream>
#include <string>

#include "tools/kds/scenario.hpp"

namespace kds::cli {

/// The scenario as a JSON document, one sphere per line for people who read it.
void write_scenario(std::ostream& out, const Scenario& s);

/// Writes the file at `path`; InvalidInput if it cannot.
void save_scenario(const std::string& path, const Scenario& s);

}  // namespace kds::cli
