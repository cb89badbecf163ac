// Scene files: reading the documented format, exact round trips, and one clear error per
// kind of bad input (file, line, field, problem).
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "kds/errors.hpp"
#include "structures/collision/io/scene.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

Scene parse(const std::string& text) {
  std::istringstream in(text);
  return read_scene(in, "test.scene");
}

TEST(SceneFile, ReadsTheDocumentedExample) {
  const Scene s = parse(
      "# two balls and a wall\n"
      "box 0 0 0  10 10 10   # the domain\n"
      "mode ballistic\n"
      "gravity 0 0 -9.81\n"
      "restitution 0.9\n"
      "tolerance 1e-6\n"
      "spheres\n"
      "1 1 1  +1 0 0  1 2\n"
      "\n"
      "5 5 5  -1 0 0.5  0.5 1 0   # max_acceleration 0 is allowed in ballistic mode\n");
  EXPECT_EQ(s.box.lo, (Vec<3>{0, 0, 0}));
  EXPECT_EQ(s.box.hi, (Vec<3>{10, 10, 10}));
  EXPECT_FALSE(s.unknown);
  EXPECT_EQ(s.gravity, (Vec<3>{0, 0, -9.81}));
  EXPECT_EQ(s.restitution, 0.9);
  ASSERT_TRUE(s.tolerance.has_value());
  EXPECT_EQ(*s.tolerance, 1e-6);
  ASSERT_EQ(s.spheres.size(), 2u);
  EXPECT_EQ(s.spheres[0].velocity, (Vec<3>{1, 0, 0}));
  EXPECT_EQ(s.spheres[0].mass, 2);
  EXPECT_EQ(s.spheres[1].radius, 0.5);
}

TEST(SceneFile, DefaultsAndUnknownMode) {
  const Scene s = parse("mode unknown\nbox -1 -1 -1 1 1 1\nspheres\n0 0 0 0 0 0 0.5 1 20\n");
  EXPECT_TRUE(s.unknown);
  EXPECT_EQ(s.gravity, (Vec<3>{0, 0, 0}));
  EXPECT_EQ(s.restitution, 1.0);
  EXPECT_FALSE(s.tolerance.has_value());
  ASSERT_EQ(s.spheres.size(), 1u);
  EXPECT_EQ(s.spheres[0].max_acceleration, 20);
}

TEST(SceneFile, EmptySphereSectionIsAScene) {
  EXPECT_TRUE(parse("box 0 0 0 1 1 1\nmode ballistic\nspheres\n").spheres.empty());
}

TEST(SceneFile, RoundTripsExactly) {
  std::mt19937_64 rng(test_seed());
  std::uniform_real_distribution<double> u(0, 1);
  for (bool unknown : {false, true}) {
    Scene scene;
    scene.box = {{-50.125, 0, 3}, {50, 100.1, 103}};
    scene.unknown = unknown;
    if (!unknown) scene.gravity = {0.1, -0.2, -9.80665};
    scene.restitution = 0.95;
    scene.tolerance = 1.0 / 3.0;
    // Spheres on a coarse lattice so that they never overlap, with random digits.
    for (int i = 0; i < 10; ++i)
      for (int j = 0; j < 10; ++j) {
        Sphere s;
        s.position = {-45.0 + 10 * i + u(rng), 5.0 + 10 * j + u(rng), 50 + u(rng)};
        s.velocity = {u(rng) - 0.5, 1e-7 * u(rng), -1e5 * u(rng)};
        s.radius = 0.1 + 3 * u(rng);
        s.mass = 1e-3 + u(rng);
        s.max_acceleration = unknown ? 30 * u(rng) : 0;
        scene.spheres.push_back(s);
      }
    std::stringstream io;
    write_scene(io, scene);
    const Scene back = read_scene(io, "round trip");
    EXPECT_EQ(back.box.lo, scene.box.lo);
    EXPECT_EQ(back.box.hi, scene.box.hi);
    EXPECT_EQ(back.unknown, scene.unknown);
    EXPECT_EQ(back.gravity, scene.gravity);
    EXPECT_EQ(back.restitution, scene.restitution);
    EXPECT_EQ(back.tolerance, scene.tolerance);
    ASSERT_EQ(back.spheres.size(), scene.spheres.size());
    for (std::size_t i = 0; i < scene.spheres.size(); ++i) {
      EXPECT_EQ(back.spheres[i].position, scene.spheres[i].position);
      EXPECT_EQ(back.spheres[i].velocity, scene.spheres[i].velocity);
      EXPECT_EQ(back.spheres[i].radius, scene.spheres[i].radius);
      EXPECT_EQ(back.spheres[i].mass, scene.spheres[i].mass);
      EXPECT_EQ(back.spheres[i].max_acceleration, scene.spheres[i].max_acceleration);
    }
  }
}

struct BadScene {
  const char* what;
  std::string text;
  std::vector<std::string> parts;  ///< every one must appear in the message
  friend void PrintTo(const BadScene& b, std::ostream* os) { *os << b.what; }
};

const std::string kHeader = "box 0 0 0 10 10 10\nmode ballistic\nspheres\n";  // sphere lines start at line 4
const std::string kUnknownHeader = "box 0 0 0 10 10 10\nmode unknown\nspheres\n";

class SceneErrors : public ::testing::TestWithParam<BadScene> {};

TEST_P(SceneErrors, NameFileLineFieldAndProblem) {
  const BadScene& bad = GetParam();
  try {
    (void)parse(bad.text);
    FAIL() << "accepted: " << bad.text;
  } catch (const InvalidInput& e) {
    const std::string msg = e.what();
    for (const std::string& p : bad.parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllKinds, SceneErrors,
    ::testing::Values(
        BadScene{"missing field", kHeader + "1 1 1 0 0 0 1 1\n2 5 5 0 0 0 1\n",
                 {"test.scene:5:", "sphere 1", "'mass' missing"}},
        BadScene{"extra field", kUnknownHeader + "1 1 1 0 0 0 1 1 2 7\n", {"test.scene:4:", "unexpected 10th field '7'"}},
        BadScene{"not a number", kHeader + "1 1 1 0 0 0 1o 1\n", {"test.scene:4:", "field 'radius'", "'1o' is not a number"}},
        BadScene{"NaN", kHeader + "1 1 nan 0 0 0 1 1\n", {"test.scene:4:", "field 'z' is NaN"}},
        BadScene{"infinity", kHeader + "1 1 1 0 -inf 0 1 1\n", {"test.scene:4:", "field 'vy' is infinite"}},
        BadScene{"out of range", kHeader + "1 1 1 1e999 0 0 1 1\n", {"field 'vx'", "out of the range"}},
        BadScene{"zero radius", kHeader + "1 1 1 0 0 0 0 1\n", {"test.scene:4:", "field 'radius'", "must be > 0, got 0"}},
        BadScene{"negative mass", kHeader + "1 1 1 0 0 0 1 -2\n", {"test.scene:4:", "field 'mass'", "must be > 0, got -2"}},
        BadScene{"negative acceleration", kUnknownHeader + "1 1 1 0 0 0 1 1 -3\n",
                 {"test.scene:4:", "field 'max_acceleration'", "must be >= 0, got -3"}},
        BadScene{"acceleration in ballistic mode", kHeader + "1 1 1 0 0 0 1 1 3\n",
                 {"test.scene:4:", "max_acceleration", "mode ballistic"}},
        BadScene{"outside the box", kHeader + "1 1 1 0 0 0 1 1\n9.5 5 5 0 0 0 1 1\n",
                 {"test.scene:5:", "sphere 1", "outside the box", "x + radius = 10.5 > x1 = 10"}},
        BadScene{"overlap", kHeader + "2 2 2 0 0 0 1 1\n8 8 8 0 0 0 1 1\n3.5 2 2 0 0 0 1 1\n",
                 {"test.scene:6:", "sphere 2 overlaps sphere 0 (line 4)", "1.5 < sum of radii 2"}},
        BadScene{"unknown keyword", "box 0 0 0 1 1 1\nmodus ballistic\n", {"test.scene:2:", "unknown keyword 'modus'"}},
        BadScene{"duplicate keyword", "box 0 0 0 1 1 1\nbox 0 0 0 2 2 2\n", {"test.scene:2:", "'box' given twice (first on line 1)"}},
        BadScene{"bad mode", "mode ballistc\n", {"test.scene:1:", "'ballistc' is neither"}},
        BadScene{"flat box", "box 0 0 0 1 0 1\n", {"test.scene:1:", "y1 = 0 must be greater than y0 = 0"}},
        BadScene{"box arity", "box 0 0 0 1 1\n", {"test.scene:1:", "'box' takes 6 values", "got 5"}},
        BadScene{"restitution", "restitution 1.5\n", {"test.scene:1:", "restitution must be in [0, 1]"}},
        BadScene{"tolerance", "tolerance 0\n", {"test.scene:1:", "tolerance must be > 0"}},
        BadScene{"velocity beyond the range", kHeader + "1 1 1 0 0 1e308 1 1\n",
                 {"test.scene:4:", "sphere 0", "field 'velocity.z'", "at most 1e+50", "got 1e+308"}},
        BadScene{"radius below the range", kHeader + "1 1 1 0 0 0 1 1\n5 5 5 0 0 0 1e-320 1\n",
                 {"test.scene:5:", "sphere 1", "field 'radius'", "2^-40 times the largest side of the box"}},
        BadScene{"keyword after spheres", kHeader + "1 1 1 0 0 0 1 1\nrestitution 0.5\n",
                 {"test.scene:5:", "'restitution' after the 'spheres' line (line 3)", "header lines come before it"}},
        BadScene{"huge field", kHeader + "1 1 1 0 0 " + std::string(1 << 20, '7') + "x 1 1\n",
                 {"test.scene:4:", "sphere 0, field 'vz': '" + std::string(40, '7') + "...' (1048577 characters) is"}},
        BadScene{"mass beyond the range", kHeader + "1 1 1 0 0 0 1 1e60\n", {"test.scene:4:", "field 'mass'", "[1e-50, 1e+50]"}},
        BadScene{"box beyond the range", "box 0 0 0 1e60 1 1\n", {"test.scene:1:", "box corner x1", "at most 1e+50"}},
        BadScene{"gravity beyond the range", "gravity 0 0 -1e51\n", {"test.scene:1:", "gravity.z", "at most 1e+50"}},
        BadScene{"tolerance below the resolution of the box", "box 1e9 0 0 2e9 1 1\ntolerance 1e-9\nmode ballistic\nspheres\n",
                 {"test.scene:2:", "field 'd'", "2^-40 times the largest coordinate of the box relative to its local origin (1e+09)"}},
        BadScene{"gravity in unknown mode", "box 0 0 0 1 1 1\ngravity 0 0 -1\nmode unknown\nspheres\n",
                 {"test.scene:4:", "gravity in mode unknown (line 2)"}},
        BadScene{"sphere before spheres", "box 0 0 0 1 1 1\nmode ballistic\n0.5 0.5 0.5 0 0 0 0.1 1\n",
                 {"test.scene:3:", "sphere line before the 'spheres' line"}},
        BadScene{"spheres before box", "mode ballistic\nspheres\n", {"test.scene:2:", "'spheres' before the 'box' line"}},
        BadScene{"no box", "mode ballistic\n", {"test.scene:", "missing 'box"}},
        BadScene{"no spheres line", "box 0 0 0 1 1 1\nmode ballistic\n", {"test.scene:", "missing 'spheres' line"}}));

// A 1 MB field is cut to its first 40 characters in the message (it was echoed whole).
TEST(SceneFile, AHugeFieldIsCutInTheMessage) {
  try {
    parse("box 0 0 0 10 10 " + std::string(1 << 20, '9') + "q\n");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_LT(std::string(e.what()).size(), 200u) << std::string(e.what()).substr(0, 300);
  }
}

// Some editors start a UTF-8 file with a byte-order mark: it is not part of the keyword.
TEST(SceneFile, AByteOrderMarkIsIgnored) {
  const Scene s = parse("\xEF\xBB\xBF" "box 0 0 0 10 10 10\nmode ballistic\nspheres\n5 5 5 0 0 0 1 1\n");
  EXPECT_EQ(s.spheres.size(), 1u);
  // ... at the start of the file only.
  EXPECT_THROW(parse("box 0 0 0 10 10 10\n\xEF\xBB\xBF" "mode ballistic\nspheres\n"), InvalidInput);
}

TEST(SceneFile, LoadNamesADirectory) {
  try {
    (void)load_scene("/tmp");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("/tmp: is a directory, not a scene file"), std::string::npos) << e.what();
  }
}

TEST(SceneFile, LoadNamesAMissingFile) {
  try {
    (void)load_scene("/nonexistent/kds.scene");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/kds.scene: cannot open"), std::string::npos);
  }
}

}  // namespace
}  // namespace kds::testing
