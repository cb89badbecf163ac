// The convex polytope shape (its hull, exact) and the Minkowski difference of two shapes:
// counts on the regular solids, invariants on random hulls, and each bad input.
#include <gtest/gtest.h>

#include <set>

#include "certificates/facet_side.hpp"
#include "collision_world_support.hpp"
#include "structures/collision/minkowski_difference.hpp"
#include "structures/collision/polytope.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

std::string invalid(const std::vector<Vec<3>>& v) {
  try {
    ConvexPolytope p(v, "polytope 7");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InvalidInput";
  return "";
}

const std::vector<Vec<3>> kCube = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                   {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};

// Euler's formula and every vertex on the inner side of every facet, exactly.
void expect_valid_hull(const ConvexPolytope& p) {
  const auto V = static_cast<long>(p.vertices().size()), E = static_cast<long>(p.edges().size()),
             F = static_cast<long>(p.facets().size());
  EXPECT_EQ(V - E + F, 2) << V << " vertices, " << E << " edges, " << F << " facets";
  for (const auto& f : p.facets()) {
    EXPECT_GE(f.vertices.size(), 3u);
    for (std::size_t i = 0; i < p.vertices().size(); ++i) {
      Rational s = -f.offset;
      for (int k = 0; k < 3; ++k) s += f.normal[k] * p.vertices()[i][k];
      const bool on = std::find(f.vertices.begin(), f.vertices.end(), i) != f.vertices.end();
      EXPECT_EQ(sgn(s) == 0, on) << "vertex " << i;
      EXPECT_LE(sgn(s), 0) << "vertex " << i << " outside a facet";
    }
  }
}

TEST(PolytopeShape, RegularSolids) {
  const auto cube = ConvexPolytope::cube(1), tetra = ConvexPolytope::tetrahedron(1), octa = ConvexPolytope::octahedron(1);
  EXPECT_EQ(cube->facets().size(), 6u);
  EXPECT_EQ(cube->edges().size(), 12u);
  EXPECT_EQ(tetra->facets().size(), 4u);
  EXPECT_EQ(tetra->edges().size(), 6u);
  EXPECT_EQ(octa->facets().size(), 8u);
  EXPECT_EQ(octa->edges().size(), 12u);
  for (const auto& p : {cube, tetra, octa}) expect_valid_hull(*p);
  EXPECT_EQ(cube->reach(0, true), 1.0);
  EXPECT_EQ(cube->reach(2, false), 1.0);
  EXPECT_GE(cube->bounding_radius(), std::sqrt(3.0));
  EXPECT_LE(cube->bounding_radius(), std::sqrt(3.0) * (1 + 1e-14));
  EXPECT_EQ(octa->reach(1, false), 1.0);
}

TEST(PolytopeShape, RandomHulls) {
  const std::uint64_t seed = test_seed();
  for (std::uint64_t i = 0; i < 10; ++i) {
    const auto p = ConvexPolytope::random_hull(10, 1.0, seed + i);
    SCOPED_TRACE("hull seed " + std::to_string(seed + i));
    expect_valid_hull(*p);
    EXPECT_GE(p->vertices().size(), 4u);
    for (const Vec<3>& v : p->vertices()) EXPECT_LE(norm3(v), p->bounding_radius());
  }
}

TEST(PolytopeShape, HullCornersDropsInnerPoints) {
  std::vector<Vec<3>> pts = kCube;
  pts.push_back({0, 0, 0});    // inside
  pts.push_back({1, 0, 0});    // middle of a facet
  pts.push_back({1, 1, 0});    // middle of an edge
  pts.push_back({1, 1, 1});    // duplicate
  EXPECT_EQ(hull_corners(pts), kCube);
}

TEST(PolytopeShape, BadInputNamesTheShapeAndTheProblem) {
  std::vector<Vec<3>> v = kCube;
  v.push_back({0, 0, 0});
  EXPECT_TRUE(message_has(invalid(v), {"polytope 7", "not convex", "vertex 8", "inside"}));
  v.back() = {1, 0.5, 0};
  EXPECT_TRUE(message_has(invalid(v), {"polytope 7", "not convex", "vertex 8", "middle of a facet"}));
  v.back() = {0, 1, 1};
  EXPECT_TRUE(message_has(invalid(v), {"not convex", "vertex 8", "middle of an edge"}));
  // A point an ulp below the centre of the top face is inside; an ulp above, a corner.
  v = kCube;
  v.push_back({0, 0, std::nextafter(1.0, 0.0)});
  EXPECT_TRUE(message_has(invalid(v), {"not convex", "vertex 8", "inside"}));
  v.back() = {0, 0, std::nextafter(1.0, 2.0)};
  EXPECT_NO_THROW(ConvexPolytope(v, "roof"));
  EXPECT_TRUE(message_has(invalid({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}), {"polytope 7", "flat"}));
  EXPECT_TRUE(message_has(invalid({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}), {"flat"}));
  EXPECT_TRUE(message_has(invalid({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}), {"polytope 7", "at least 4"}));
  EXPECT_TRUE(message_has(invalid({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 0}}),
                          {"duplicate vertices 1 and 4"}));
  EXPECT_TRUE(message_has(invalid({{0, 0, 0}, {1, 0, NAN}, {0, 1, 0}, {0, 0, 1}}), {"vertex 1", "NaN"}));
}

// The Minkowski difference: every point a_i - b_j on the inner side of every facet, and
// every facet a plane that such points span (so each is a facet of M, exactly).
void expect_valid_difference(const ConvexPolytope& a, const ConvexPolytope& b, std::size_t facets = 0) {
  const MinkowskiDifference m(a, b);
  if (facets != 0) EXPECT_EQ(m.facets().size(), facets);
  for (const ExactPlane& f : m.facets()) {
    std::vector<std::array<Rational, 3>> on;
    for (const Vec<3>& x : a.vertices())
      for (const Vec<3>& y : b.vertices()) {
        std::array<Rational, 3> d;
        Rational s = -f.offset;
        for (int k = 0; k < 3; ++k) {
          d[k] = Rational(x[k]) - y[k];
          s += f.normal[k] * d[k];
        }
        ASSERT_LE(sgn(s), 0);
        if (sgn(s) == 0) on.push_back(d);
      }
    bool spans = false;
    for (std::size_t i = 1; i < on.size() && !spans; ++i)
      for (std::size_t j = i + 1; j < on.size() && !spans; ++j) {
        std::array<Rational, 3> u, v;
        for (int k = 0; k < 3; ++k) {
          u[k] = on[i][k] - on[0][k];
          v[k] = on[j][k] - on[0][k];
        }
        spans = sgn(u[1] * v[2] - u[2] * v[1]) != 0 || sgn(u[2] * v[0] - u[0] * v[2]) != 0 ||
                sgn(u[0] * v[1] - u[1] * v[0]) != 0;
      }
    EXPECT_TRUE(spans) << "a plane that is not a facet";
  }
}

TEST(MinkowskiDifference, RegularSolids) {
  const auto cube = ConvexPolytope::cube(1), tetra = ConvexPolytope::tetrahedron(1), octa = ConvexPolytope::octahedron(1);
  expect_valid_difference(*cube, *cube, 6);
  // A tetrahedron minus itself is a cuboctahedron: 8 triangles and 6 squares.
  expect_valid_difference(*tetra, *tetra, 14);
  expect_valid_difference(*cube, *octa);
  expect_valid_difference(*tetra, *cube);
  const MinkowskiDifference m(*cube, *cube);
  for (const ExactPlane& f : m.facets()) EXPECT_EQ(f.offset, 2);
}

TEST(MinkowskiDifference, RandomHulls) {
  const std::uint64_t seed = test_seed();
  for (std::uint64_t i = 0; i < 6; ++i) {
    SCOPED_TRACE("hull seeds " + std::to_string(seed + 2 * i) + ", " + std::to_string(seed + 2 * i + 1));
    expect_valid_difference(*ConvexPolytope::random_hull(8, 1.0, seed + 2 * i),
                            *ConvexPolytope::random_hull(8, 1.5, seed + 2 * i + 1));
  }
}


// A separating-plane certificate whose plane is not dyadic (normal (1, 1/3, 0)): its
// exact value at a double is the value of its exact polynomial there, not of the
// polynomial with the normal rounded to doubles (FacetSide is not exact in Dyadic).
struct LinearCentres {
  template <class NT>
  Polynomial<NT> centre(BodyId b, int k, double origin) const {
    const double x = b.index == 0 ? 0.1 * (k + 1) : 3 - 0.7 * k, v = b.index == 0 ? 1 : -0.3;
    return Polynomial<NT>::linear(NT(x) + NT(v) * NT(origin), NT(v));
  }
  void facet_failed(FacetSide<LinearCentres>&, Simulator&) {}
};

TEST(FacetSide, ExactValueOfANonDyadicPlane) {
  LinearCentres owner;
  const ExactPlane plane({Rational(1), Rational(1, 3), Rational(0)}, Rational(2, 3));
  FacetSide<LinearCentres> c(owner, BodyId{0, 0}, BodyId{1, 0}, plane, 0, "separating plane", 0);
  EXPECT_FALSE(c.dyadic_polynomial(0.25).has_value());
  for (double t : {0.0, 0.25, 1.0 / 3, 7.5}) {
    const Rational direct = c.exact_polynomial()(Rational(t));
    EXPECT_EQ(c.exact_value_at(t), direct) << "t = " << t;
    // What the rounded normal gives differs: the test would catch a return to it.
    Polynomial<Rational> rounded;
    for (int k = 0; k < 3; ++k) {
      const Polynomial<Rational> d = owner.centre<Rational>(BodyId{1, 0}, k, 0) - owner.centre<Rational>(BodyId{0, 0}, k, 0);
      rounded += Polynomial<Rational>(Rational(plane.normal_double[k])) * d;
    }
    rounded += Polynomial<Rational>(-Rational(plane.offset_double));
    EXPECT_NE(rounded(Rational(t)), direct) << "t = " << t;
  }
}

}  // namespace
}  // namespace kds::testing
