#pragma once
/// \file
/// What all programs (the examples, tools/ and bench/) share around CLI11, their one option
/// parser: the conventions of kds' command lines and the validators that keep them.
///
///  - `--help` (or `-h`) prints the usage on stdout and exits with 0;
///  - bad input prints `<program>: <option>: <problem>, not '<value>'` and the usage on
///    stderr, and exits with 2 (CLI11's own exit codes start at 100);
///  - the last of a repeated option wins; a list option (`--n 30,100`) takes commas.
///
/// The validators read the text the user typed, before CLI11 converts it, so that their
/// messages quote it: "--n: must be an integer from 1 to 2000, not '3000'". They only
/// check: a value they accept converts to the option's type as typed.
/// Header-only, so that each program stays one source file with no library of its own.

#include <CLI/CLI.hpp>

#include "structures/collision/broad_phase_registry.hpp"
#include "structures/sphere_worlds.hpp"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kds::programs {

/// A finite number spelled out in full ("2.5", "1e-3"), or nothing.
inline std::optional<double> to_number(const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x)) return std::nullopt;
  return x;
}

/// A whole number >= 0 written in digits that fits 64 bits ("12"), or nothing. Read
/// exactly, also beyond 2^53 (seeds).
inline std::optional<std::uint64_t> to_count(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  errno = 0;
  const unsigned long long x = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) return std::nullopt;
  return static_cast<std::uint64_t>(x);
}

/// Accepts finite numbers x with ok(x); otherwise "needs a number" or `requirement`.
template <class Ok>
CLI::Validator number_where(Ok ok, const std::string& requirement) {
  return CLI::Validator(
      [ok, requirement](std::string& text) -> std::string {
        const std::optional<double> x = to_number(text);
        if (!x) return "needs a number, not '" + text + "'";
        if (!ok(*x)) return requirement + ", not '" + text + "'";
        return {};
      },
      "", "");
}

/// Any finite number.
inline CLI::Validator number() {
  return number_where([](double) { return true; }, "");
}
inline CLI::Validator positive() {
  return number_where([](double x) { return x > 0; }, "must be positive");
}
inline CLI::Validator at_least(double min) {
  std::ostringstream requirement;
  requirement << "must be at least " << min;
  return number_where([min](double x) { return x >= min; }, requirement.str());
}
inline CLI::Validator between(double lo, double hi) {
  std::ostringstream requirement;
  requirement << "must be between " << lo << " and " << hi;
  return number_where([lo, hi](double x) { return x >= lo && x <= hi; }, requirement.str());
}

/// A whole number in [lo, hi], in digits: "must be an integer from 1 to 2000", "... of at
/// least 2", or "must be a non-negative integer" for the whole range.
inline CLI::Validator integer_in(std::uint64_t lo, std::uint64_t hi = std::numeric_limits<std::uint64_t>::max()) {
  const bool unbounded = hi == std::numeric_limits<std::uint64_t>::max();
  std::string requirement = "must be a non-negative integer";
  if (lo != 0 && unbounded) requirement = "must be an integer of at least " + std::to_string(lo);
  if (!unbounded) requirement = "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, requirement](std::string& text) -> std::string {
        const std::optional<std::uint64_t> n = to_count(text);
        if (!n || *n < lo || *n > hi) return requirement + ", not '" + text + "'";
        return {};
      },
      "", "");
}

/// One of `choices`: "must be all-pairs or tvb-grid, not 'x'".
inline CLI::Validator one_of(const std::vector<std::string>& choices) {
  std::string list;
  for (std::size_t k = 0; k < choices.size(); ++k)
    list += (k == 0 ? "" : k + 1 == choices.size() ? " or " : ", ") + choices[k];
  return CLI::Validator(
      [choices, list](std::string& text) -> std::string {
        for (const std::string& c : choices)
          if (text == c) return {};
        return "must be " + list + ", not '" + text + "'";
      },
      "", "");
}

/// A program's command line: CLI11's App with kds' conventions (see the file comment).
/// Options are added as with CLI::App; parse_or_exit() reads them.
class CommandLine : public CLI::App {
 public:
  CommandLine(std::string program, std::string description) : CLI::App(std::move(description), std::move(program)) {
    option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    get_formatter()->column_width(30);
  }

  /// Reads the command line into the options' variables, or exits: 0 after --help, 2 on
  /// bad input (see fail()).
  void parse_or_exit(int argc, char** argv) {
    try {
      parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::cout << help();
      std::exit(0);
    } catch (const CLI::ParseError& e) {
      fail(e.what());
    }
  }

  /// Prints "<program>: <message>" and the usage on stderr, and exits with 2: for checks
  /// that involve several options, after parse_or_exit().
  [[noreturn]] void fail(const std::string& message) const {
    std::cerr << get_name() << ": " << message << "\n\n" << help();
    std::exit(2);
  }
};

/// --broad-phase NAME and --cell-ratio K: the options of every program that runs a
/// collision world (a broad phase from the registry, structures/collision/
/// broad_phase_registry.hpp; and the grid's cell size, 0 leaving it to the cost model).
inline void add_broad_phase_options(CommandLine& line, std::string& broad_phase, double& cell_ratio) {
  line.add_option("--broad-phase", broad_phase,
                  "a registered broad phase: tvb-grid (the time-varying-bound grid), box-overlap (sorted lists of box extremes; "
                  "ballistic spheres only) or all-pairs (the reference)")
      ->check(one_of(kds::broad_phase_names()))
      ->type_name("NAME")
      ->capture_default_str();
  line.add_option("--cell-ratio", cell_ratio, "cell side / largest diameter of a level (default: the cost model)")
      ->check(at_least(2));
}

/// --structure NAME (also spelled --broad-phase, its older name) and --cell-ratio K: the
/// options of programs that run a sphere world by name (structures/sphere_worlds.hpp: a
/// registered broad phase under the collision world, or hard-spheres).
inline void add_structure_options(CommandLine& line, std::string& structure, double& cell_ratio) {
  line.add_option("--structure,--broad-phase", structure,
                  "the collision structure: " + kds::sphere_world_list() +
                      ". tvb-grid is the time-varying-bound grid, all-pairs the brute-force reference, hard-spheres "
                      "one event per sphere (ballistic spheres without gravity, exact only)")
      ->check(one_of(kds::sphere_world_names()))
      ->type_name("NAME")
      ->capture_default_str();
  line.add_option("--cell-ratio", cell_ratio,
                  "cell side / largest diameter of a level of the grid (default: the cost model; hard-spheres sizes "
                  "its cells itself)")
      ->check(at_least(2));
}

}  // namespace kds::programs
