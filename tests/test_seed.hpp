#pragma once
// The seed of a random test: KDS_TEST_SEED from the environment, else a fixed default.
// Every random test prints the seed it uses (SCOPED_TRACE / RecordProperty) so that a
// failure can be replayed with KDS_TEST_SEED=<seed>.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace kds::testing {

inline std::uint64_t test_seed(std::uint64_t fallback = 20261120) {
  const char* env = std::getenv("KDS_TEST_SEED");
  std::uint64_t seed = env != nullptr ? std::strtoull(env, nullptr, 10) : fallback;
  std::cout << "[ seed     ] KDS_TEST_SEED=" << seed << '\n';
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

}  // namespace kds::testing
