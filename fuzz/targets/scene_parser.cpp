// libFuzzer target: the scene parser (structures/collision/io/scene.cpp) on arbitrary
// bytes. Every input must end in a scene or in kds::InvalidInput; anything else (a crash,
// a sanitizer report, another exception) is a bug.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "kds/errors.hpp"
#include "structures/collision/io/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const kds::Scene scene = kds::read_scene(in, "fuzz.scene");
    // A scene that reads must write and read back to the same spheres.
    std::ostringstream out;
    kds::write_scene(out, scene);
    std::istringstream again(out.str());
    const kds::Scene back = kds::read_scene(again, "again.scene");
    if (back.spheres.size() != scene.spheres.size()) __builtin_trap();
  } catch (const kds::InvalidInput&) {
  }
  return 0;
}
