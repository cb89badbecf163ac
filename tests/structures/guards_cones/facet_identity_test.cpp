// The identity that lets compare() decide ties of cone facets without exact arithmetic
// (same_facet_line, cone_geometry.hpp): against its brute-force twin, the exact facet
// polynomials in rationals (one polynomial of degree 1 up to a factor), on the real guard
// offsets and cone normals, with and without gravity, centres at rest relative to the
// owner, guards of one owner on one plane, two objects on each other's mirrored guard
// planes, and guards of another owner. Then a scene run beside all-pairs, where the ties
// are decided that way and the contacts stay the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "collision_world_support.hpp"
#include "structures/guards_cones/cone_geometry.hpp"
#include "structures/guards_cones/cones.hpp"
#include "structures/guards_cones/facet_plane_key.hpp"
#include "structures/guards_cones/guards.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

/// One polynomial of degree 1 up to a non-zero factor, exactly.
bool same_line_exactly(const Polynomial<Rational>& f, const Polynomial<Rational>& g) {
  return f.degree() == 1 && g.degree() == 1 && f[0] * g[1] == f[1] * g[0];
}

bool parallel(const IntVec& a, const IntVec& b) {
  return a[1] * b[2] == a[2] * b[1] && a[2] * b[0] == a[0] * b[2] && a[0] * b[1] == a[1] * b[0];
}

Rational along(const IntVec& n, const Vec<3>& o) {
  Rational s(0);
  for (int k = 0; k < 3; ++k) s += Rational(n[k]) * Rational(o[k]);
  return s;
}

void expect_identity_matches_exact_polynomials(const Vec<3>& gravity, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const std::vector<Vec<3>> offsets = guard_offsets(1.0, 1.0);
  const ConeSet cones(1.0);
  std::vector<IntVec> normals;  // distinct, both orientations of a plane kept
  for (ConeIndex c = 0; c < cones.size(); ++c)
    for (const IntVec& n : cones.cone(c).normal)
      if (std::find(normals.begin(), normals.end(), n) == normals.end()) normals.push_back(n);
  // Each normal's parallels, and for each normal the offsets grouped by their plane.
  std::vector<std::vector<IntVec>> parallels(normals.size());
  std::vector<std::vector<Rational>> plane(normals.size());
  for (std::size_t i = 0; i < normals.size(); ++i) {
    for (const IntVec& n : normals)
      if (parallel(n, normals[i])) parallels[i].push_back(n);
    for (const Vec<3>& o : offsets) plane[i].push_back(along(normals[i], o));
  }
  const auto index_of = [&](const IntVec& n) {
    return static_cast<std::size_t>(std::find(normals.begin(), normals.end(), n) - normals.begin());
  };

  int identical = 0, different = 0, at_rest = 0, swapped_identical = 0;
  for (int scene = 0; scene < 40; ++scene) {
    // Owner 0, owner 2 (another object) and the centre 1; in a few scenes the centre
    // moves with the owner (its facet functions are constants: never identical).
    const bool rest = scene % 8 == 0;
    const Vec<3> v0{10 * u(rng), 10 * u(rng), 10 * u(rng)};
    const Vec<3> v1 = rest ? v0 : Vec<3>{10 * u(rng), 10 * u(rng), 10 * u(rng)};
    const std::vector<Sphere> spheres{ball({20, 20, 20}, v0), ball({30 + 5 * u(rng), 25, 20}, v1),
                                      ball({50, 50, 50}, {u(rng), u(rng), u(rng)})};
    WorldRun run(spheres, world_settings(cube(100), "all-pairs", 1.0, gravity));
    const CollisionWorld& w = *run.world;
    for (int trial = 0; trial < 400; ++trial) {
      const std::size_t ia = rng() % normals.size();
      const IntVec na = normals[ia];
      // Mostly parallel normals and guards on one plane (same owner and object) or on
      // mirrored planes (owner and object swapped): the cases the identity is for.
      const IntVec nb = trial % 4 == 0 ? normals[rng() % normals.size()] : parallels[ia][rng() % parallels[ia].size()];
      const int roles = trial % 10;  // 0: another owner; 1 to 3: swapped; else the same
      const bool swapped = roles >= 1 && roles <= 3;
      const std::size_t ib = index_of(nb), a_at = rng() % offsets.size();
      std::vector<std::size_t> on_plane;
      for (std::size_t j = 0; j < offsets.size(); ++j)
        if (plane[ib][j] == (swapped ? -plane[ib][a_at] : plane[ib][a_at])) on_plane.push_back(j);
      const Vec<3> oa = offsets[a_at];
      const Vec<3> ob = offsets[trial % 3 == 0 || on_plane.empty() ? rng() % offsets.size()
                                                                   : on_plane[rng() % on_plane.size()]];
      const FacetOf a{{0, oa}, na, 1};
      const FacetOf b = roles == 0 ? FacetOf{{2, ob}, nb, 1} : swapped ? FacetOf{{1, ob}, nb, 0} : FacetOf{{0, ob}, nb, 1};
      const bool claimed = same_facet_line(w, a, b);
      const bool exact = same_line_exactly(facet_polynomial<Rational>(w, a.guard, a.object, a.normal, 0.0),
                                           facet_polynomial<Rational>(w, b.guard, b.object, b.normal, 0.0));
      ASSERT_EQ(claimed, exact) << "seed " << seed << ", scene " << scene << ", trial " << trial << ": normals ("
                                << na[0] << ", " << na[1] << ", " << na[2] << ") and (" << nb[0] << ", " << nb[1]
                                << ", " << nb[2] << "), roles " << roles;
      swapped_identical += claimed && swapped;
      (claimed ? identical : different) += 1;
      at_rest += rest;
    }
  }
  EXPECT_GT(identical, 2000) << "seed " << seed;
  EXPECT_GT(different, 2000) << "seed " << seed;
  EXPECT_GT(at_rest, 1000) << "seed " << seed;
  EXPECT_GT(swapped_identical, 500) << "seed " << seed;
}

TEST(FacetIdentity, MatchesTheExactPolynomials) { expect_identity_matches_exact_polynomials({0, 0, 0}, test_seed()); }

TEST(FacetIdentity, MatchesTheExactPolynomialsUnderGravity) {
  expect_identity_matches_exact_polynomials({0, 0, -9.81}, test_seed());
}

// The centre lists' keys (facet_plane_key.hpp) say they are linear forms of one body's
// centre: for an object's centre and the planes through its own guards, with one normal,
// the sign the form gives is the exact constant's of their exact polynomials, under
// gravity (where intervals cannot see the constant); other normals are not decided.
TEST(FacetIdentity, FacetPlaneKeysOfOneObjectDifferByTheirFormsConstant) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const std::vector<Vec<3>> offsets = guard_offsets(1.0, 1.0);
  const ConeSet cones(1.0);
  std::vector<IntVec> normals;
  for (ConeIndex c = 0; c < cones.size(); ++c)
    for (const IntVec& n : cones.cone(c).normal)
      if (std::find(normals.begin(), normals.end(), n) == normals.end()) normals.push_back(n);
  const std::vector<Sphere> spheres{ball({20, 20, 20}, {3 * u(rng), 3 * u(rng), 3 * u(rng)})};
  WorldRun run(spheres, world_settings(cube(100), "all-pairs", 1.0, {0, 0, -9.81}));
  const Bodies& bodies = run.sim->bodies();
  const BodyId body = run.world->body(0);
  int zeros = 0, decided = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const IntVec na = normals[rng() % normals.size()];
    const IntVec nb = trial % 5 == 0 ? normals[rng() % normals.size()] : na;
    // A guard's plane, or the centre itself (offset 0).
    const Vec<3> oa = trial % 7 == 0 ? Vec<3>{0, 0, 0} : offsets[rng() % offsets.size()];
    const Vec<3> ob = trial % 11 == 0 ? Vec<3>{0, 0, 0} : offsets[rng() % offsets.size()];
    const FacetPlaneKey a(body, na, oa), b(body, nb, ob);
    LinearForm fa, fb;
    ASSERT_TRUE(a.linear_form(fa) && b.linear_form(fb));
    const Sign claimed = sign_of_difference(fa, fb);
    const Polynomial<Rational> d = a.function<Rational>(bodies, 0.0) - b.function<Rational>(bodies, 0.0);
    if (na != nb) {
      EXPECT_EQ(claimed, Sign::unknown) << "seed " << seed << ", trial " << trial;
      continue;
    }
    ASSERT_LE(d.degree(), 0) << "seed " << seed << ", trial " << trial;
    const Rational c = d.degree() < 0 ? Rational(0) : d[0];
    ASSERT_EQ(claimed, c > 0 ? Sign::positive : c < 0 ? Sign::negative : Sign::zero)
        << "seed " << seed << ", trial " << trial;
    zeros += c == 0;
    ++decided;
  }
  EXPECT_GT(decided, 2000) << "seed " << seed;
  EXPECT_GT(zeros, 50) << "seed " << seed;  // guards on one plane, and the same guard twice
}

// An asteroid scene (radii over a factor 100, so that the large bodies have many guards in
// each small body's box) beside all-pairs: the same contacts, and ties of cone facets
// decided as one linear function.
TEST(FacetIdentity, TiesOfConeFacetsAreDecidedAsOneFunctionWithTheSameContacts) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  const SceneSpec spec{30, 30, 0.08, 8, 10, 0.5, 4};
  const std::vector<Sphere> spheres = random_scene(rng, spec);
  WorldRun g(spheres, world_settings(cube(spec.box), "guards-cones"));
  ASSERT_TRUE(g.run_until(1.0));
  WorldRun a(spheres, world_settings(cube(spec.box), "all-pairs"));
  ASSERT_TRUE(a.run_until(1.0));
  EXPECT_TRUE(same_contacts(g.contacts(), a.contacts())) << "seed " << seed;
  EXPECT_GT(g.sim->statistics().solver.comparisons_same_line, 0u) << "seed " << seed;
}

}  // namespace
}  // namespace kds::testing
