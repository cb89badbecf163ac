// Guards and cones with centre lists per facet orientation ("guards-cones-lists",
// GuardsConesLists) against its brute-force twin ("all-pairs") on random scenes, contact
// by contact and bit for bit; audited during random runs (GuardsConesLists::audit); and
// against the member-list variant ("guards-cones"): the same closest object in every cone
// at the same times, and every candidate pair certified by the world.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "collision_world_support.hpp"
#include "structures/guards_cones/guards_cones.hpp"
#include "structures/guards_cones/guards_cones_lists.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

constexpr const char* kLists = "guards-cones-lists";

// Three random scenes per case, dense enough to collide within a short run (the facet
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
  std::size_t pairs = 0;
  for (int scene = 0; scene < 3; ++scene) {
    SCOPED_TRACE(std::string(c.name) + ", scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
    const auto spheres = random_scene(rng, c.spec);
    const auto settings = world_settings(cube(c.spec.box), kLists, c.restitution,
                                         c.gravity ? Vec<3>{0, 0, -9.81} : Vec<3>{});
    const TwinResult r = run_twins(spheres, settings, c.t_end, {}, kLists);
    EXPECT_TRUE(same_contacts(r.tested, r.all_pairs));
    for (const Contact& k : r.tested) pairs += !k.with_wall;
    std::cout << "[ scene    ] " << c.name << " #" << scene << ": " << r.tested.size() << " contacts\n";
  }
  EXPECT_GT(pairs, 0u) << "the scenes should collide";
}

// Radii log-uniform: "sizes" spans a factor 20.
INSTANTIATE_TEST_SUITE_P(Scenes, ListsRandomTwins,
                         ::testing::Values(ListsCase{"n5_equal_elastic", {5, 5, 0.6, 0.6, 8, 1, 1}, false, 1.0, 0.15},
                                           ListsCase{"n5_sizes", {5, 6, 0.1, 2, 8, 0.5, 4}, false, 1.0, 0.15},
                                           ListsCase{"n5_gravity_inelastic", {5, 5, 0.5, 1, 8, 1, 3}, true, 0.8, 0.15}),
                         [](const ::testing::TestParamInfo<ListsCase>& i) { return std::string(i.param.name); });

const GuardsConesLists& lists_of(const WorldRun& w) {
  return dynamic_cast<const GuardsConesLists&>(w.world->broad_phase());
}

// Audited every 1000th event (Simulator::audit checks every certificate, thousands per
// ball in the facet lists), with the all-pairs twin; the events of both kinds happened.
TEST(GuardsConesListsAudit, RandomScenesPassTheAudits) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  for (int scene = 0; scene < 3; ++scene) {
    SCOPED_TRACE("scene " + std::to_string(scene) + " of seed " + std::to_string(seed));
    const SceneSpec spec{4, 6, 0.2, 1.5, 6, 1, 3};
    const auto spheres = random_scene(rng, spec);
    const auto settings = world_settings(cube(spec.box), kLists, scene >= 2 ? 0.85 : 1.0,
                                         scene % 2 == 1 ? Vec<3>{0, 0, -9.81} : Vec<3>{});
    WorldRun w(spheres, settings);
    int events = 0, audits = 0;
    while (compare(w.sim->next_event_time(), 0.15) <= 0) {
      ASSERT_TRUE(w.sim->step());
      if (++events % 1000 == 0) {
        ASSERT_NO_THROW(audits += w.sim->audit() ? 1 : 0) << "after event " << events;
      }
    }
    ASSERT_NO_THROW(w.sim->audit());
    auto reference = settings;
    reference.broad_phase = "all-pairs";
    WorldRun a(spheres, reference);
    ASSERT_TRUE(a.run_until(0.15));
    EXPECT_TRUE(same_contacts(w.contacts(), a.contacts()));
    const auto& gl = lists_of(w);
    EXPECT_GT(audits, 0);
    EXPECT_GT(gl.box_events(), 0u);
    EXPECT_GT(gl.center_events(), 0u);
    std::cout << "[ audited  ] " << events << " events, " << audits << " audits, " << w.contacts().size()
              << " contacts, " << gl.box_events() << " box events, " << gl.center_events() << " center events, "
              << gl.queries() << " queries (" << gl.query_scans() << " objects scanned)\n";
  }
}

// Both variants keep K*(gamma) for the same cones: run side by side (the same contacts, so
// the same motions), they name the same closest object in every cone at every stop (a
// centre exactly on a facet could be assigned differently; random scenes have none).
TEST(GuardsConesLists, SameClosestObjectsAsTheMemberListVariant) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const SceneSpec spec{5, 7, 0.1, 2, 6, 0.5, 4};
  const auto spheres = random_scene(rng, spec);
  WorldRun m(spheres, world_settings(cube(spec.box), "guards-cones"));
  WorldRun l(spheres, world_settings(cube(spec.box), kLists));
  const auto& gm = dynamic_cast<const GuardsCones&>(m.world->broad_phase());
  const auto& gl = lists_of(l);
  ASSERT_EQ(gm.guards(), gl.guards());
  std::size_t compared = 0;
  for (double t = 0; t <= 0.15; t += 0.03125) {
    SCOPED_TRACE("t = " + std::to_string(t) + ", seed " + std::to_string(seed));
    ASSERT_TRUE(m.run_until(t));
    ASSERT_TRUE(l.run_until(t));
    ASSERT_TRUE(same_contacts(m.contacts(), l.contacts()));
    for (GuardId g = 0; g < gm.guards(); ++g) {
      auto a = gm.closest(g), b = gl.closest(g);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      ASSERT_EQ(a, b) << "guard " << g << " of sphere " << gm.guard_owner(g);
      compared += a.size();
    }
    EXPECT_EQ(gm.candidate_pairs(), gl.candidate_pairs());
  }
  EXPECT_GT(compared, 20u);
  EXPECT_GT(gl.center_events(), 0u);
}

// The structure after every event, for a few hundred events: every closest object is a
// pair the world certifies.
TEST(GuardsConesLists, EveryCandidatePairHasACollisionCertificate) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const SceneSpec spec{5, 7, 0.1, 2, 6, 1, 3};
  WorldRun w(random_scene(rng, spec), world_settings(cube(spec.box), kLists));
  const auto& gl = lists_of(w);
  std::size_t checked = 0;
  for (int e = 0; e < 500 && w.sim->step(); ++e)
    for (GuardId g = 0; g < gl.guards(); ++g)
      for (const auto& [cone, k] : gl.closest(g)) {
        ASSERT_NE(w.world->pair_certificate(gl.guard_owner(g), k), nullptr)
            << "seed " << seed << ": guard " << g << ", cone " << cone << ": pair {" << gl.guard_owner(g) << ", " << k
            << "} has no certificate";
        ++checked;
      }
  EXPECT_GT(checked, 50u);
}

// What it keeps: one list per facet orientation (63 for balls), each with every centre and
// every plane; the guards of one object share planes that coincide; the certificates
// counted per object add up.
TEST(GuardsConesLists, KeepsOneListPerFacetOrientation) {
  const std::vector<Sphere> s{ball({10, 10, 10}, {1, 0, 0}, 1), ball({20, 10, 10}, {-1, 0, 0}, 2),
                              ball({15, 20, 10}, {0, -1, 0}, 0.5)};
  WorldRun w(s, world_settings(cube(40), kLists));
  const auto& gl = lists_of(w);
  const FacetPlaneLists& f = gl.facet_lists();
  EXPECT_EQ(f.orientations(), gl.cones().facet_orientations());
  EXPECT_EQ(f.orientations(), 63u);
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
