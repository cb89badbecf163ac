// Contact logs and final states: the exact text format, exact round trips, clear errors.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "kds/errors.hpp"
#include "structures/collision/io/contact_log.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

TEST(ContactLog, WritesOneLinePerContactWithSeventeenDigitsAndWallNames) {
  std::vector<Contact> log = {{0.1, 3, 7, false, Wall::x_lo}, {2.0, 5, 0, true, Wall::x_lo},
                              {1.0 / 3.0, 1, 0, true, Wall::z_hi}, {1e-300, 0, 1, false, Wall::x_lo}};
  std::ostringstream out;
  write_contacts(out, log);
  EXPECT_EQ(out.str(),
            "0.10000000000000001 3 7\n"
            "2 5 wx-\n"
            "0.33333333333333331 1 wz+\n"
            "1e-300 0 1\n");  // %.17g drops trailing zeros
}

TEST(ContactLog, WallNamesCoverEveryFace) {
  const char* names[6] = {"wx-", "wx+", "wy-", "wy+", "wz-", "wz+"};
  for (int w = 0; w < 6; ++w) EXPECT_EQ(wall_name(static_cast<Wall>(w)), names[w]);
}

TEST(ContactLog, RoundTripsExactly) {
  std::mt19937_64 rng(test_seed());
  std::uniform_real_distribution<double> time(0, 1e3);
  std::uniform_int_distribution<int> id(0, 1000), wall(-1, 5);
  std::vector<Contact> log;
  for (int i = 0; i < 500; ++i) {
    Contact c;
    c.time = time(rng);
    c.a = static_cast<SphereId>(id(rng));
    const int w = wall(rng);
    if (w >= 0) {
      c.with_wall = true;
      c.wall = static_cast<Wall>(w);
    } else {
      c.b = static_cast<SphereId>(id(rng));
    }
    log.push_back(c);
  }
  std::stringstream io;
  write_contacts(io, log);
  const auto back = read_contacts(io, "log");
  ASSERT_EQ(back.size(), log.size());
  for (std::size_t i = 0; i < log.size(); ++i) {
    EXPECT_EQ(back[i].time, log[i].time);
    EXPECT_EQ(back[i].a, log[i].a);
    EXPECT_EQ(back[i].with_wall, log[i].with_wall);
    if (log[i].with_wall)
      EXPECT_EQ(back[i].wall, log[i].wall);
    else
      EXPECT_EQ(back[i].b, log[i].b);
  }
}

TEST(ContactLog, StatesRoundTripExactly) {
  std::mt19937_64 rng(test_seed());
  std::normal_distribution<double> n(0, 100);
  std::vector<SphereState> states(50);
  for (auto& s : states)
    for (int k = 0; k < 3; ++k) {
      s.position[k] = n(rng);
      s.velocity[k] = n(rng);
    }
  std::stringstream io;
  write_states(io, states);
  const auto back = read_states(io, "states");
  ASSERT_EQ(back.size(), states.size());
  for (std::size_t i = 0; i < states.size(); ++i) {
    EXPECT_EQ(back[i].position, states[i].position);
    EXPECT_EQ(back[i].velocity, states[i].velocity);
  }
}

void expect_error(const std::string& text, const std::string& part) {
  std::istringstream in(text);
  try {
    (void)read_contacts(in, "run.log");
    ADD_FAILURE() << "no error for: " << text;
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(ContactLog, MalformedLinesNameTheLineAndField) {
  expect_error("# header\n1.5 2\n", "run.log:2: expected 'time i j'");
  expect_error("1.5 x 3\n", "run.log:1: field 'i'");
  expect_error("abc 1 3\n", "field 'time': 'abc' is not a number");
  expect_error("nan 1 3\n", "field 'time' is not finite");
  expect_error("1 1 wq+\n", "'wq+' is not a wall");
  expect_error("1 -1 2\n", "field 'i'");
}

}  // namespace
}  // namespace kds::testing
