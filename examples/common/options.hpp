#pragma once
/// \file
/// The command line shared by the examples: --n, --seed, --until, --trace FILE, --help.
/// Header-only, so that each example stays a single program with no library of its own;
/// the parsing itself is examples/common/arguments.hpp.

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "examples/common/arguments.hpp"

namespace kds::examples {

struct Options {
  std::size_t n = 10;       ///< number of points
  std::uint64_t seed = 1;   ///< seed of the random scene
  double until = 10.0;      ///< simulated time
  std::string trace;        ///< JSON Lines trace file; none if empty
};

/// Parses the command line over `defaults`. Prints the usage and exits with 0 on --help,
/// and with 2 after a message naming the option and the problem on bad input.
inline Options parse_options(int argc, char** argv, Options defaults, const char* what) {
  using namespace kds::programs;
  Options o = defaults;
  std::ostringstream usage;
  usage << "usage: " << argv[0] << " [--n N] [--seed S] [--until T] [--trace FILE]\n"
        << what << "\n"
        << "  --n N         number of points (default " << defaults.n << ")\n"
        << "  --seed S      seed of the random motions (default " << defaults.seed << ")\n"
        << "  --until T     simulated time (default " << defaults.until << ")\n"
        << "  --trace FILE  write every event as a JSON line to FILE\n";
  CommandLine line(argv[0], usage.str());
  line.option("--n", [&](const Value& v) {
    const std::optional<std::uint64_t> n = to_unsigned(v.text);
    v.require(n.has_value(), "must be a non-negative integer");
    v.require(*n >= 1 && *n <= 100000, "must be between 1 and 100000");
    o.n = static_cast<std::size_t>(*n);
  });
  line.option("--seed", [&](const Value& v) {
    const std::optional<std::uint64_t> seed = to_unsigned(v.text);
    v.require(seed.has_value(), "must be a non-negative integer");
    o.seed = *seed;
  });
  line.option("--until", [&](const Value& v) {
    const std::optional<double> until = to_number(v.text);
    v.require(until && *until > 0, "must be a positive number");
    o.until = *until;
  });
  line.option("--trace", [&](const Value& v) { o.trace = v.text; });
  line.parse(argc, argv);
  return o;
}

}  // namespace kds::examples
