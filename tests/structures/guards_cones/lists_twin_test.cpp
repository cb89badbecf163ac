// Guards and cones with centre lists per facet orientation ("guards-cones-lists",
// GuardsConesLists) against its brute-force twin ("all-pairs") on random scenes, contact
// by contact and bit for bit; and what it keeps (lists, planes, certificates). The audit
// runs in lists_degenerate_test.cpp and lists_facet_test.cpp.
#include <gtest/gtest.h>

#include <random>

#include "collision_world_support.hpp"
#include "structures/guards_cones/guards_cones_lists.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

constexpr const char* kLists = "guards-cones-lists";

// One random scene per case, dense enough to collide within a short run (the facet
// lists swap tens of thousands of times per pair of balls passing each other): the same
// contacts as all-pairs, bit for bit.
struct ListsCase {
  const char* name;
  SceneSpec spec;
  bool gravity;
  double restitution, t_end;
};

class ListsRandomTwins : public ::testing::TestWithParam<ListsCase> {};

TEST_P(ListsRandomTwins, ReproducesAllPairsExactly) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const ListsCase& c = GetParam();
  for (int scene = 0; scene < 1; ++scene) {
    SCOPED_TRACE(std::string(c.name) + ", scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
    const auto settings = world_settings(cube(c.spec.box), kLists, c.restitution,
                                         c.gravity ? Vec<3>{0, 0, -9.81} : Vec<3>{});
    // A scene where two spheres meet (colliding_scene): 4 spheres often meet nothing in
    // 0.1 s (seeds 1, 2 and 3 among others drew scenes with no contact at all), and the
    // lists' work, finding pairs, was then compared with nothing (the walls are the
    // world's: this broad phase lets every sphere reach every wall).
    const CollidingScene s = colliding_scene(rng, c.spec, settings, c.t_end, 0);
    if (s.spheres.empty()) return;
    WorldRun w(s.spheres, settings);
    EXPECT_TRUE(w.run_until(c.t_end)) << kLists << ": event cap reached";
    EXPECT_TRUE(same_contacts(w.contacts(), s.reference));
    std::cout << "[ scene    ] " << c.name << " #" << scene << ": " << w.contacts().size() << " contacts ("
              << sphere_pair_contacts(w.contacts()) << " pairs), drawn " << s.draws << (s.draws == 1 ? " time\n" : " times\n");
  }
}

// Radii log-uniform: "sizes" spans a factor 20.
INSTANTIATE_TEST_SUITE_P(Scenes, ListsRandomTwins,
                         ::testing::Values(ListsCase{"n4_equal_elastic", {4, 6, 0.8, 0.8, 8, 1, 1}, false, 1.0, 0.1},
                                           ListsCase{"n4_sizes_gravity_inelastic", {4, 6, 0.1, 1.5, 8, 0.5, 4}, true, 0.8, 0.1}),
                         [](const ::testing::TestParamInfo<ListsCase>& i) { return std::string(i.param.name); });

const GuardsConesLists& lists_of(const WorldRun& w) {
  return dynamic_cast<const GuardsConesLists&>(w.world->broad_phase());
}

// What it keeps: one list per facet orientation (108 for balls, m = 10), each with every centre and
// every plane; the guards of one object share planes that coincide; the certificates
// counted per object add up.
TEST(GuardsConesLists, KeepsOneListPerFacetOrientation) {
  const std::vector<Sphere> s{ball({10, 10, 10}, {1, 0, 0}, 1), ball({20, 10, 10}, {-1, 0, 0}, 2),
                              ball({15, 20, 10}, {0, -1, 0}, 0.5)};
  WorldRun w(s, world_settings(cube(40), kLists));
  const auto& gl = lists_of(w);
  const FacetPlaneLists& f = gl.facet_lists();
  EXPECT_EQ(f.orientations(), gl.cones().facet_orientations());
  EXPECT_EQ(f.orientations(), 108u);
  std::size_t planes = 0;
  for (SphereId k = 0; k < 3; ++k) {
    planes += f.planes_of(k);
    EXPECT_LT(f.planes_of(k), f.orientations() * 128);  // some guards share planes
    EXPECT_GT(f.planes_of(k), f.orientations() * 8);
  }
  EXPECT_EQ(planes, f.planes());
  std::size_t entries = 0;
  for (std::size_t o = 0; o < f.orientations(); ++o) entries += f.list(o).size();
  EXPECT_EQ(entries, planes + 3 * f.orientations());
  // Guards on one plane lie on it: u . offset equal (exactly; in doubles to 1e-12).
  for (std::size_t o = 0; o < f.orientations(); o += 7)
    for (GuardId g = 0; g < gl.guards(); ++g)
      for (GuardId h = g + 1; h < gl.guards() && gl.guard_owner(h) == gl.guard_owner(g); ++h) {
        const bool same = f.plane_entry(o, g) == f.plane_entry(o, h);
        const IntVec& u = f.normal(o);
        const Vec<3>& a = gl.guard_offset(g);
        const Vec<3>& b = gl.guard_offset(h);
        const double d = u[0] * (a[0] - b[0]) + u[1] * (a[1] - b[1]) + u[2] * (a[2] - b[2]);
        if (same) EXPECT_NEAR(d, 0, 1e-12);
      }
  std::size_t per_object = 0;
  for (SphereId k = 0; k < 3; ++k) per_object += gl.order_certificates_of(k);
  // Each certificate names one or two objects.
  EXPECT_GE(per_object, gl.order_certificates());
  EXPECT_LE(per_object, 2 * gl.order_certificates());
  EXPECT_EQ(gl.order_certificates(), 3 * (gl.box_lists().list(0).size() - 1) + entries - f.orientations());
}

}  // namespace
}  // namespace kds::testing
