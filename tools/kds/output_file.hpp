#pragma once
/// \file
/// Writing a whole output file of `kds` (a scenario, contacts, states), with errors that
/// name the file.

#include <fstream>
#include <functional>
#include <ostream>
#include <string>

#include "kds/errors.hpp"

namespace kds::cli {

/// Creates (or replaces) the file at `path` and lets `write` fill it; InvalidInput naming
/// the file if it cannot be opened or written.
inline void write_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::ofstream out(path);
  if (!out) throw InvalidInput(path + ": cannot write the file");
  write(out);
  out.flush();
  if (!out) throw InvalidInput(path + ": write failed");
}

}  // namespace kds::cli
