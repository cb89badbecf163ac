#pragma once
/// \file
/// The command line shared by the examples: --n, --seed, --until, --trace FILE, --help.
/// Header-only, so that each example stays a single program with no library of its own;
/// the parsing itself is CLI11 with examples/common/command_line.hpp.

#include <cstdint>
#include <string>

#include "examples/common/command_line.hpp"

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
  CommandLine line(argv[0], what);
  line.add_option("--n", o.n, "number of points")->check(integer_in(1, 100000))->capture_default_str();
  line.add_option("--seed", o.seed, "seed of the random motions")->check(integer_in(0))->capture_default_str();
  line.add_option("--until", o.until, "simulated time")->check(positive())->capture_default_str();
  line.add_option("--trace", o.trace, "write every event as a JSON line to FILE")->type_name("FILE");
  line.parse_or_exit(argc, argv);
  return o;
}

}  // namespace kds::examples
