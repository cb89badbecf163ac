#pragma once
/// \file
/// Reads scenario files (docs/scenario-json.md) strictly: malformed JSON, a missing or
/// unknown field, a value of the wrong type, a number out of range, an unknown structure,
/// spheres that overlap or leave the box are each an InvalidInput whose message names the
/// file, the field's path ("spheres[3].radius") and the problem.

#include <string>

#include "tools/kds/scenario.hpp"

namespace kds::cli {

/// Reads a scenario from the text of a file; `file` names it in error messages.
Scenario read_scenario(const std::string& text, const std::string& file);

/// Reads the file at `path`; InvalidInput if it cannot be read.
Scenario load_scenario(const std::string& path);

/// The whole content of a file, or InvalidInput naming it.
std::string read_file(const std::string& path);

}  // namespace kds::cli
