#pragma once
/// \file
/// The command line shared by the examples: --n, --seed, --until, --trace FILE, --help.
/// Header-only, so that each example stays a single program with no library of its own.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

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
  Options o = defaults;
  auto usage = [&](std::ostream& os) {
    os << "usage: " << argv[0] << " [--n N] [--seed S] [--until T] [--trace FILE]\n"
       << what << "\n"
       << "  --n N         number of points (default " << defaults.n << ")\n"
       << "  --seed S      seed of the random motions (default " << defaults.seed << ")\n"
       << "  --until T     simulated time (default " << defaults.until << ")\n"
       << "  --trace FILE  write every event as a JSON line to FILE\n";
  };
  auto fail = [&](const std::string& message) {
    std::cerr << argv[0] << ": " << message << "\n";
    usage(std::cerr);
    std::exit(2);
  };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      usage(std::cout);
      std::exit(0);
    }
    if (arg != "--n" && arg != "--seed" && arg != "--until" && arg != "--trace") fail("unknown option '" + arg + "'");
    if (i + 1 >= argc) fail("option " + arg + " needs a value");
    const std::string value = argv[++i];
    char* end = nullptr;
    if (arg == "--trace") {
      o.trace = value;
    } else if (arg == "--until") {
      o.until = std::strtod(value.c_str(), &end);
      if (*end != '\0' || !std::isfinite(o.until) || o.until <= 0)
        fail("--until must be a positive number, not '" + value + "'");
    } else {
      const unsigned long long x = std::strtoull(value.c_str(), &end, 10);
      if (*end != '\0' || value.empty() || value[0] == '-') fail(arg + " must be a non-negative integer, not '" + value + "'");
      if (arg == "--seed") o.seed = x;
      else if (x < 1 || x > 100000) fail("--n must be between 1 and 100000, not '" + value + "'");
      else o.n = static_cast<std::size_t>(x);
    }
  }
  return o;
}

}  // namespace kds::examples
