#pragma once
/// \file
/// The options that the benchmarks of a KDS's quality against n (box overlap, guards and
/// cones, the rolling-ball tree) take in the same words: the body counts, how long a
/// configuration runs (contacts per body, a CPU budget), the seed, the CSV file. Each
/// program adds its own scene options between --n and these.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "examples/common/command_line.hpp"

namespace kds::bench {

struct RunOptions {
  std::vector<double> ns;        ///< body counts, one configuration each
  double contacts_per_body = 2;  ///< run until the world has counted this many contacts per body
  double budget = 60;            ///< CPU seconds a configuration may take
  std::uint64_t seed = 1;        ///< seed of the scenes
  std::string csv_path;          ///< CSV output; empty: stdout only
};

/// `--n`: the counts of `bodies` ("sphere", "ball").
inline void add_count_option(programs::CommandLine& line, RunOptions& o, const std::string& body) {
  using namespace programs;
  line.add_option("--n", o.ns, body + " counts")->delimiter(',')->check(at_least(2))->capture_default_str();
}

/// `--collisions-per-<body>`, `--budget`, `--seed`, `--csv`.
inline void add_run_options(programs::CommandLine& line, RunOptions& o, const std::string& body) {
  using namespace programs;
  line.add_option("--collisions-per-" + body, o.contacts_per_body, body + " collisions per " + body + " to run")
      ->check(at_least(1e-3))
      ->capture_default_str();
  line.add_option("--budget", o.budget, "stop a configuration after this many CPU seconds")
      ->check(at_least(0.01))
      ->capture_default_str();
  line.add_option("--seed", o.seed, "seed of the scenes")->check(integer_in(0))->capture_default_str();
  line.add_option("--csv", o.csv_path, "CSV output (default: stdout only)")->type_name("FILE");
}

}  // namespace kds::bench
