// The drawable schema of kds/report/drawing.hpp: every shape kind written as the replay
// files document it (docs/viewer.md), and translate() moving fixed shapes only.
#include <gtest/gtest.h>

#include "json.hpp"
#include "kds/report/drawing.hpp"

namespace kds::testing {
namespace {

std::vector<double> point(const Json& j) {
  std::vector<double> p;
  for (const Json& x : j.array()) p.push_back(x.number());
  return p;
}

TEST(Drawing, EveryShapeKindIsWrittenWithItsFields) {
  Drawing d;
  d.box({0, 1, 2}, {3, 4, 5}, "cell");
  d.box_on(BodyId{7, 0}, {-1, -1, -1}, {1, 1, 1}, "box");
  d.sphere({1, 2, 3}, 0.5, "guard");
  d.segment({0, 0, 0}, {1, 1, 1}, "cone");
  d.label({2, 2, 2}, "level \"1\"", "note");
  const Json j = JsonReader::parse(d.json());
  ASSERT_EQ(j.array().size(), 5u);
  const Json& box = j.array()[0];
  EXPECT_EQ(box["shape"].string(), "box");
  EXPECT_EQ(box["role"].string(), "cell");
  EXPECT_EQ(point(box["lo"]), (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(point(box["hi"]), (std::vector<double>{3, 4, 5}));
  EXPECT_FALSE(box.object().contains("follow"));
  EXPECT_EQ(j.array()[1]["follow"].number(), 7);
  EXPECT_EQ(j.array()[2]["radius"].number(), 0.5);
  EXPECT_EQ(point(j.array()[2]["centre"]), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(point(j.array()[3]["b"]), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(j.array()[4]["text"].string(), "level \"1\"");
}

TEST(Drawing, TranslateMovesFixedShapesAndNotCarriedOnes) {
  Drawing d;
  d.box({0, 0, 0}, {1, 1, 1}, "cell");
  d.box_on(BodyId{0, 0}, {-1, -1, -1}, {1, 1, 1}, "box");
  d.translate({10, 20, 30});
  EXPECT_EQ(d.shapes()[0].a, (Drawing::Point{10, 20, 30}));
  EXPECT_EQ(d.shapes()[0].b, (Drawing::Point{11, 21, 31}));
  EXPECT_EQ(d.shapes()[1].a, (Drawing::Point{-1, -1, -1}));
}

TEST(Drawing, NumbersKeepSeventeenDigits) {
  Drawing d;
  d.sphere({0.1, 1.0 / 3.0, 2e-300}, 1e300, "x");
  const Json j = JsonReader::parse(d.json());
  EXPECT_EQ(point(j.array()[0]["centre"]), (std::vector<double>{0.1, 1.0 / 3.0, 2e-300}));
  EXPECT_EQ(j.array()[0]["radius"].number(), 1e300);
}

}  // namespace
}  // namespace kds::testing
