// libFuzzer target: the readers of contact logs and state files (io/contact_log.cpp).
// Every input must be read or refused with kds::InvalidInput.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "kds/errors.hpp"
#include "structures/collision/io/contact_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    std::istringstream in(text);
    (void)kds::read_contacts(in, "fuzz.contacts");
  } catch (const kds::InvalidInput&) {
  }
  try {
    std::istringstream in(text);
    (void)kds::read_states(in, "fuzz.states");
  } catch (const kds::InvalidInput&) {
  }
  return 0;
}
