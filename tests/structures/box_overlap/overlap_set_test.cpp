// The overlap set of kinetic box overlap: symmetric pairs, erase, and its own check.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "kds/errors.hpp"
#include "structures/box_overlap/overlap_set.hpp"

namespace kds::testing {
namespace {

TEST(OverlapSet, PairsAreSymmetricAndErasedFromBothSides) {
  OverlapSet s;
  s.reset(5);
  s.add(0, 3);
  s.add(4, 0);
  s.add(1, 2);
  EXPECT_EQ(s.size(), 3u);
  EXPECT_TRUE(s.contains(3, 0));
  EXPECT_TRUE(s.contains(0, 4));
  EXPECT_FALSE(s.contains(0, 1));
  EXPECT_EQ(s.partners(0).size(), 2u);
  EXPECT_NO_THROW(s.check());
  EXPECT_TRUE(s.erase(3, 0));
  EXPECT_FALSE(s.erase(0, 3));
  EXPECT_FALSE(s.contains(0, 3));
  EXPECT_EQ(s.partners(3).size(), 0u);
  EXPECT_EQ(s.size(), 2u);
  EXPECT_NO_THROW(s.check());
}

TEST(OverlapSet, AddingAPairTwiceOrASelfPairIsABug) {
  OverlapSet s;
  s.reset(3);
  s.add(0, 1);
  EXPECT_THROW(s.add(1, 0), std::logic_error);
  EXPECT_THROW(s.add(2, 2), std::logic_error);
  EXPECT_EQ(s.size(), 1u);
}

TEST(OverlapSet, ResetEmptiesIt) {
  OverlapSet s;
  s.reset(3);
  s.add(0, 1);
  s.reset(4);
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(s.spheres(), 4u);
  EXPECT_FALSE(s.contains(0, 1));
}

}  // namespace
}  // namespace kds::testing
