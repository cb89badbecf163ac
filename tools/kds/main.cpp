// kds: the command line of kds (docs/cli.md). Runs scenario files, writes the papers'
// scenes as scenario files, runs the benchmarks, and replays traces.
//
//   kds run SCENARIO.json [--structure NAME] [--until T] [--trace FILE] ...
//   kds generate KIND -o FILE [options]
//   kds bench [--quick] [--out DIR]
//   kds replay --check TRACE
#include <exception>
#include <iostream>
#include <vector>

#include "examples/common/command_line.hpp"
#include "structures/sphere_worlds.hpp"
#include "tools/kds/commands.hpp"

int main(int argc, char** argv) {
  using namespace kds::cli;
  kds::programs::CommandLine line(
      "kds", "kds: kinetic data structures with exact event times. Runs scenarios of spheres in a box with the "
             "collision structure of your choice (" + kds::sphere_world_list() +
                 "); `kds COMMAND --help` explains each command.");
  line.require_subcommand(1);
  std::string command_line = "kds";
  for (int k = 1; k < argc; ++k) command_line += std::string(" ") + argv[k];
  const std::vector<Command> commands = {add_run_command(line), add_generate_command(line, command_line),
                                         add_bench_command(line), add_replay_command(line)};
  // Errors print the usage of the (sub)command they are about, not the whole program's.
  auto innermost = [&]() -> const CLI::App* {
    const CLI::App* app = &line;
    for (bool deeper = true; deeper;) {
      deeper = false;
      for (const CLI::App* sub : app->get_subcommands())
        if (sub->parsed()) {
          app = sub;
          deeper = true;
          break;
        }
    }
    return app;
  };
  try {
    line.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << innermost()->help();
    return exit_ok;
  } catch (const CLI::ParseError& e) {
    const CLI::App* app = innermost();
    std::cerr << app->get_name() << ": " << e.what() << "\n\n" << app->help();
    return exit_usage;
  }
  for (const Command& c : commands) {
    if (!c.app->parsed()) continue;
    try {
      return c.run();
    } catch (const std::exception& e) {
      std::cerr << "kds " << c.app->get_name() << ": " << e.what() << "\n";
      return exit_failure;
    }
  }
  return exit_usage;
}
