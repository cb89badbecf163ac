// A libFuzzer target for the scenario reader (tools/kds/scenario_reader.hpp): any bytes
// either read as a scenario or give InvalidInput; nothing else may happen (no crash, no
// other exception, no hang, and under AddressSanitizer no memory error). A scenario that
// reads must also write and read back the same. Built and run for a bounded time by the
// test kds_scenario_fuzz (tests/tools/kds/CMakeLists.txt) when clang++ with libFuzzer is
// installed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "kds/errors.hpp"
#include "tools/kds/scenario_reader.hpp"
#include "tools/kds/scenario_writer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  kds::cli::Scenario scenario;
  try {
    scenario = kds::cli::read_scenario(text, "fuzz.json");
  } catch (const kds::InvalidInput&) {
    return 0;  // refused with a message: what bad input must get
  }
  std::ostringstream written;
  kds::cli::write_scenario(written, scenario);
  const kds::cli::Scenario again = kds::cli::read_scenario(written.str(), "fuzz-written.json");
  if (again.spheres.size() != scenario.spheres.size() || again.until != scenario.until) std::abort();
  for (std::size_t i = 0; i < scenario.spheres.size(); ++i)
    if (again.spheres[i].position != scenario.spheres[i].position || again.spheres[i].radius != scenario.spheres[i].radius)
      std::abort();
  return 0;
}
