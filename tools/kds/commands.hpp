#pragma once
/// \file
/// The subcommands of `kds` (docs/cli.md): each file adds one to the command line, its
/// options bound to its own settings, and says what runs it once the line is parsed.

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace kds::cli {

/// Exit codes of every subcommand.
inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;   ///< bad input file, a run that failed
inline constexpr int exit_usage = 2;     ///< bad command line (examples/common/command_line.hpp)
inline constexpr int exit_mismatch = 3;  ///< kds replay --check: the events differ from the trace

struct Command {
  CLI::App* app;
  std::function<int()> run;  ///< after parsing; returns the exit code, may throw InvalidInput
};

Command add_run_command(CLI::App& kds);
/// `command_line` is recorded in the generated file ("generated_by").
Command add_generate_command(CLI::App& kds, const std::string& command_line);
Command add_bench_command(CLI::App& kds);
Command add_replay_command(CLI::App& kds);

}  // namespace kds::cli
