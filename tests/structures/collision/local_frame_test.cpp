// Precision does not depend on where the box is: a world holds its coordinates relative to
// a local origin (the box's corner when the box is far from zero), so a scene in a box at
// [1e9, 1e9 + 100]^3 or [1e10, 1e10 + 20]^3 runs exactly like the same scene in a box at
// the origin: the same contacts, at the same times, and states that differ only by the
// offset (docs/structures/collision.md, "Precision").
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../../collision_world_support.hpp"
#include "../../test_seed.hpp"

namespace {

using kds::Box3;
using kds::Sphere;
using kds::Vec;
using namespace kds::testing;

struct Far {
  double offset;  // the box is [offset, offset + side]^3
  double side;
  int n;
};

// A random scene in the far box, and the same scene moved by the box's corner nearest zero
// to a box at the origin: the far positions are doubles near the offset, and the move is
// exact (the box lies within a factor 2 of that corner), so both scenes hold exactly the
// same relative data.
void expect_same_as_at_origin(const Far& far, const std::string& broad_phase, std::uint64_t seed) {
  SCOPED_TRACE("offset " + std::to_string(far.offset) + ", " + broad_phase + ", seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  SceneSpec spec;
  spec.n = far.n;
  spec.box = far.side;
  spec.speed = 10;
  const Box3 box{{far.offset, far.offset, far.offset}, {far.offset + far.side, far.offset + far.side, far.offset + far.side}};
  ASSERT_EQ(box.hi[0] - box.lo[0], far.side);
  const double corner = far.offset > 0 ? box.lo[0] : box.hi[0];
  const Box3 moved{{box.lo[0] - corner, box.lo[1] - corner, box.lo[2] - corner},
                   {box.hi[0] - corner, box.hi[1] - corner, box.hi[2] - corner}};
  std::vector<Sphere> at_origin = random_scene(rng, spec), away = at_origin;
  for (std::size_t i = 0; i < away.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      away[i].position[k] = far.offset + at_origin[i].position[k];  // rounded near the offset
      at_origin[i].position[k] = away[i].position[k] - corner;      // exact
    }

  const double until = 20;
  WorldRun origin_run(at_origin, world_settings(moved, broad_phase));
  WorldRun far_run(away, world_settings(box, broad_phase));
  ASSERT_TRUE(origin_run.run_until(until));
  ASSERT_TRUE(far_run.run_until(until));
  EXPECT_GT(origin_run.contacts().size(), 20u);
  // Bit for bit: the same contacts in the same order at the same times.
  EXPECT_TRUE(same_contacts(far_run.contacts(), origin_run.contacts()));
  // States in the user's coordinates: the local ones plus the offset, rounded once.
  for (kds::SphereId i = 0; i < away.size(); ++i) {
    const kds::SphereState a = far_run.world->state(i, until), b = origin_run.world->state(i, until);
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(a.position[k], corner + b.position[k]) << "sphere " << i << " axis " << k;
      EXPECT_EQ(a.velocity[k], b.velocity[k]) << "sphere " << i << " axis " << k;
    }
  }
  EXPECT_EQ(far_run.world->origin()[0], corner);
  EXPECT_EQ(origin_run.world->origin()[0], 0.0);
}

TEST(LocalFrame, FarBoxesRunLikeTheBoxAtTheOrigin) {
  const std::uint64_t seed = test_seed();
  const Far cases[] = {{1e6, 100, 60}, {1e9, 100, 60}, {1e10, 20, 12}, {-1e9 - 100, 100, 60}};
  for (const Far& far : cases)
    for (const char* broad_phase : {"all-pairs", "tvb-grid"}) expect_same_as_at_origin(far, broad_phase, seed);
}

// The user's responses see positions in the user's coordinates.
TEST(LocalFrame, ResponsesSeeTheUsersCoordinates) {
  const double offset = 1e9;
  const Box3 box{{offset, offset, offset}, {offset + 20, offset + 20, offset + 20}};
  std::vector<Sphere> s{ball({offset + 5, offset + 10, offset + 10}, {1, 0, 0}),
                        ball({offset + 15, offset + 10, offset + 10}, {-1, 0, 0})};
  WorldRun run(s, world_settings(box, "all-pairs"));
  double seen_x = 0;
  run.world->set_pair_response([&](const kds::Contact&, kds::SphereState& a, kds::SphereState& b) {
    seen_x = a.position[0];
    std::swap(a.velocity, b.velocity);
  });
  ASSERT_TRUE(run.run_until(5));
  ASSERT_EQ(run.contacts().size(), 1u);
  EXPECT_EQ(seen_x, offset + 9);  // touching at x = offset + 9 and offset + 11, at t = 4
  EXPECT_EQ(run.world->state(0, 5).position[0], offset + 8);
}

}  // namespace
