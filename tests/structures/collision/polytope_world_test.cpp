// Convex polytopes moving by translation in a collision world: separating-plane
// certificates, on designed scenes (face to face, vertex on face, edge across edge,
// simultaneous contacts, contacts at time 0, sliding contact), against an independent
// brute-force reference (the first time a vertex crosses a face or an edge crosses an
// edge), on random dice scenes where every broad phase must agree with all-pairs bit for
// bit, audited after every event, and on bad input.
#include <gtest/gtest.h>

#include <limits>

#include "collision_world_support.hpp"
#include "structures/box_overlap/box_overlap.hpp"
#include "structures/collision/geometry.hpp"
#include "structures/collision/polytope.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

constexpr double kTolerance = 0x1p-20;
const std::vector<std::string> kBroadPhases = {"all-pairs", "box-overlap", "tvb-grid"};

CollisionWorldSettings settings_for(const std::string& broad_phase, double box = 100) {
  auto s = world_settings(cube(box), broad_phase);
  s.contact_tolerance = kTolerance;
  return s;
}

SimulatorSettings audited() {
  SimulatorSettings s;
  s.audit = true;
  return s;
}

// Runs the scene with every broad phase, audited; they must agree bit for bit. Returns
// the contacts.
std::vector<Contact> run_all(const std::vector<Sphere>& bodies, double t_end, double box = 100, bool audit = true) {
  std::vector<Contact> first;
  for (const std::string& bp : kBroadPhases) {
    WorldRun run(bodies, settings_for(bp, box), audit ? audited() : SimulatorSettings{});
    EXPECT_TRUE(run.run_until(t_end)) << bp;
    if (bp == kBroadPhases.front()) first = run.contacts();
    else EXPECT_TRUE(same_contacts(run.contacts(), first)) << bp;
  }
  return first;
}

// Tetrahedron with corners (1,1,1), (1,-1,-1), (-1,1,-1), (-1,-1,1): its edge on x = 1
// runs along (0,1,1), its edge on x = -1 along (0,1,-1).
std::shared_ptr<const ConvexPolytope> tetra() {
  return std::make_shared<const ConvexPolytope>(std::vector<Vec<3>>{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}});
}

TEST(PolytopeWorld, FaceToFace) {
  const auto c = ConvexPolytope::cube(1);
  const auto contacts = run_all({polytope_body(c, {10, 50, 50}, {1, 0, 0}), polytope_body(c, {20, 50.5, 50}, {-1, 0, 0})}, 5);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_TRUE(same_contact(contacts[0], pair_contact(4, 0, 1))) << describe(contacts[0]);
  EXPECT_EQ(contacts[0].normal, (Vec<3>{1, 0, 0}));
  // Elastic, equal masses, along the normal: the velocities are exchanged.
  WorldRun run({polytope_body(c, {10, 50, 50}, {1, 0, 0}), polytope_body(c, {20, 50.5, 50}, {-1, 0, 0})},
               settings_for("box-overlap"), audited());
  ASSERT_TRUE(run.run_until(5));
  EXPECT_EQ(run.world->state(0, 5).velocity, (Vec<3>{-1, 0, 0}));
  EXPECT_EQ(run.world->state(1, 5).velocity, (Vec<3>{1, 0, 0}));
}

TEST(PolytopeWorld, VertexOnFace) {
  const auto contacts = run_all({polytope_body(ConvexPolytope::octahedron(1), {10, 50, 50}, {2, 0, 0}),
                                 polytope_body(ConvexPolytope::cube(1), {20, 50.25, 49.5}, {0, 0, 0})},
                                5);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_TRUE(same_contact(contacts[0], pair_contact(4, 0, 1))) << describe(contacts[0]);
  EXPECT_EQ(contacts[0].normal, (Vec<3>{1, 0, 0}));
}

TEST(PolytopeWorld, EdgeAcrossEdge) {
  // Two copies of the tetrahedron: the right edge of the first, along (0,1,1), meets the
  // left edge of the second, along (0,1,-1), crosswise at t = (10 - 2) / 2 = 4.
  const auto t = tetra();
  const auto contacts = run_all({polytope_body(t, {40, 50, 50}, {1, 0, 0}), polytope_body(t, {50, 50, 50}, {-1, 0, 0})}, 5);
  ASSERT_GE(contacts.size(), 1u);
  EXPECT_TRUE(same_contact(contacts[0], pair_contact(4, 0, 1))) << describe(contacts[0]);
  EXPECT_NEAR(contacts[0].normal[0], 1, 1e-15);
  // Shifted up by 3 along z, the edges pass each other: no contact.
  EXPECT_TRUE(run_all({polytope_body(t, {40, 50, 53}, {1, 0, 0}), polytope_body(t, {50, 50, 50}, {-1, 0, 0})}, 5).empty());
}

TEST(PolytopeWorld, SimultaneousContactsInTieKeyOrder) {
  // A cube at rest hit from both sides at t = 4, and two other pairs meeting at t = 4.
  const auto c = ConvexPolytope::cube(1);
  // A cube at rest hit from both sides at t = 3 (gaps of 3 at speed 1), and two other
  // pairs meeting then (gaps of 6 at speed 2).
  const auto contacts = run_all({polytope_body(c, {10, 20, 20}, {1, 0, 0}), polytope_body(c, {15, 20, 20}, {0, 0, 0}),
                                 polytope_body(c, {20, 20, 20}, {-1, 0, 0}), polytope_body(c, {50, 50, 10}, {0, 0, 1}),
                                 polytope_body(c, {50, 50, 18}, {0, 0, -1}), polytope_body(c, {80, 80, 80}, {0, 2, 0}),
                                 polytope_body(c, {80, 88, 80}, {0, 0, 0})},
                                3.5);
  // Then 0-1 and 1-2 again at the same instant (the middle cube, struck from both sides,
  // passes the blows on): all at t = 3, in tie-key order (pairs by their smaller id).
  ASSERT_GE(contacts.size(), 4u);
  for (const Contact& x : contacts) EXPECT_EQ(x.time, 3.0) << describe(x);
  EXPECT_TRUE(same_contact(contacts[0], pair_contact(3, 0, 1))) << describe(contacts[0]);
  // Momentum: the outer cubes bounce back, the middle one stays.
  WorldRun run({polytope_body(c, {10, 20, 20}, {1, 0, 0}), polytope_body(c, {15, 20, 20}, {0, 0, 0}),
                polytope_body(c, {20, 20, 20}, {-1, 0, 0})},
               settings_for("box-overlap"), audited());
  ASSERT_TRUE(run.run_until(3.5));
  EXPECT_EQ(run.world->state(0, 3.5).velocity, (Vec<3>{-1, 0, 0}));
  EXPECT_EQ(run.world->state(1, 3.5).velocity, (Vec<3>{0, 0, 0}));
  EXPECT_EQ(run.world->state(2, 3.5).velocity, (Vec<3>{1, 0, 0}));
}

TEST(PolytopeWorld, SimultaneousContactsAtARoundedTime) {
  // A cube at rest struck from both sides at the same irrational-looking time 3 / v,
  // rounded up to a double: after the first response the second pair, re-created from
  // rounded positions, may seem an ulp apart or an ulp into each other; it must still be
  // a contact of that instant. Several speeds, so that both roundings occur.
  const auto c = ConvexPolytope::cube(1);
  for (double v : {0.3, 0.7, 0.1, 1.1, 1.3, 0.9, 2.3, 3.7}) {
    SCOPED_TRACE("speed " + std::to_string(v));
    const std::vector<Sphere> s = {polytope_body(c, {10, 20, 20}, {v, 0, 0}), polytope_body(c, {15, 20, 20}, {0, 0, 0}),
                                   polytope_body(c, {20, 20, 20}, {-v, 0, 0})};
    const auto contacts = run_all(s, 3.5 / v);
    ASSERT_GE(contacts.size(), 2u);
    EXPECT_EQ(contacts[0].time, contacts[1].time);
    EXPECT_NEAR(contacts[0].time, 3 / v, 1e-12 * (3 / v));
    WorldRun run(s, settings_for("box-overlap"), audited());
    ASSERT_TRUE(run.run_until(3.5 / v));
    EXPECT_NEAR(run.world->state(0, 3.5 / v).velocity[0], -v, 1e-12);
    EXPECT_NEAR(run.world->state(1, 3.5 / v).velocity[0], 0, 1e-12);
    EXPECT_NEAR(run.world->state(2, 3.5 / v).velocity[0], v, 1e-12);
  }
}

TEST(PolytopeWorld, ContactAtTimeZeroAndSlidingContact) {
  const auto c = ConvexPolytope::cube(1);
  // Touching face to face at the start: approaching (a contact at 0), sliding along the
  // face (never a contact), moving apart.
  const auto contacts = run_all({polytope_body(c, {10, 10, 10}, {1, 0, 0}), polytope_body(c, {12, 10, 10}, {0, 0, 0}),
                                 polytope_body(c, {10, 50, 50}, {0, 1, 0}), polytope_body(c, {12, 50, 50}, {0, -1, 0}),
                                 polytope_body(c, {50, 80, 50}, {-1, 0, 0}), polytope_body(c, {52, 80, 50}, {1, 0, 0})},
                                3);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_TRUE(same_contact(contacts[0], pair_contact(0, 0, 1))) << describe(contacts[0]);
  // A cube resting on the floor with a face, and one on its corner... touching the wall
  // at the start and moving away: accepted, no contact.
  EXPECT_TRUE(run_all({polytope_body(c, {1, 50, 50}, {1, 0, 0})}, 2).empty());
}

TEST(PolytopeWorld, Walls) {
  const auto contacts = run_all({polytope_body(ConvexPolytope::cube(2), {10, 50, 50}, {-1, 0, 0}),
                                 polytope_body(ConvexPolytope::octahedron(1), {50, 50, 95}, {0, 0, 2})},
                                10);
  ASSERT_EQ(contacts.size(), 2u);
  EXPECT_TRUE(same_contact(contacts[0], wall_contact(2, 1, Wall::z_hi))) << describe(contacts[0]);
  EXPECT_TRUE(same_contact(contacts[1], wall_contact(8, 0, Wall::x_lo))) << describe(contacts[1]);
}

// ---- brute force: the first contact of two polytopes in linear motion, from features

struct Moving {
  const ConvexPolytope* shape;
  Vec<3> x, v;
};

Vec<3> add(Vec<3> a, const Vec<3>& b) {
  for (int k = 0; k < 3; ++k) a[k] += b[k];
  return a;
}
Vec<3> scale(Vec<3> a, double s) {
  for (double& x : a) x *= s;
  return a;
}
Vec<3> cross3(const Vec<3>& a, const Vec<3>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
std::array<double, 4> plane_of(const ConvexPolytope::Facet& f) {
  return {f.normal[0].get_d(), f.normal[1].get_d(), f.normal[2].get_d(), f.offset.get_d()};
}
// Whether point y (relative to the shape's centre) lies in the shape, up to eps.
bool inside(const ConvexPolytope& p, const Vec<3>& y, double eps) {
  for (const auto& f : p.facets()) {
    const auto q = plane_of(f);
    const double n = std::hypot(q[0], q[1], q[2]);
    if ((q[0] * y[0] + q[1] * y[1] + q[2] * y[2] - q[3]) / n > eps) return false;
  }
  return true;
}

// The first time >= 0 at which a vertex of one crosses a face of the other, or an edge of
// one crosses an edge of the other (in doubles); infinity if never.
double reference_contact(const Moving& a, const Moving& b) {
  const double eps = 1e-9;
  double best = std::numeric_limits<double>::infinity();
  const Vec<3> w = sub(b.v, a.v);  // b relative to a
  const Vec<3> d0 = sub(b.x, a.x);
  // Vertex of `m` against faces of `f`, in the frame of f: the vertex at r + s t.
  auto vertex_face = [&](const Moving& m, const Moving& f, const Vec<3>& r0, const Vec<3>& s) {
    for (const Vec<3>& v : m.shape->vertices()) {
      const Vec<3> r = add(r0, v);
      for (const auto& face : f.shape->facets()) {
        const auto q = plane_of(face);
        const double num = q[3] - (q[0] * r[0] + q[1] * r[1] + q[2] * r[2]);
        const double den = q[0] * s[0] + q[1] * s[1] + q[2] * s[2];
        if (den >= 0) continue;  // not moving into the face
        const double t = num / den;
        if (t < -eps || t >= best) continue;
        if (inside(*f.shape, add(r, scale(s, t)), eps)) best = std::max(t, 0.0);
      }
    }
  };
  vertex_face(b, a, d0, w);                        // vertices of b, faces of a
  vertex_face(a, b, scale(d0, -1), scale(w, -1));  // vertices of a, faces of b
  // Edges: a's edge p + u alpha (alpha in [0,1]) and b's q + d0 + w t + e beta.
  for (const auto& ea : a.shape->edges()) {
    const Vec<3> p = a.shape->vertices()[ea[0]], u = sub(a.shape->vertices()[ea[1]], p);
    for (const auto& eb : b.shape->edges()) {
      const Vec<3> q = b.shape->vertices()[eb[0]], e = sub(b.shape->vertices()[eb[1]], q);
      const Vec<3> n = cross3(u, e);
      const double den = dot(n, w);
      if (std::fabs(den) < 1e-14) continue;
      const Vec<3> r = sub(add(q, d0), p);
      const double t = -dot(n, r) / den;
      if (t < -eps || t >= best) continue;
      // Solve p + u alpha = q' + e beta in the plane: least squares via cross products.
      const Vec<3> rt = add(r, scale(w, t));  // q'(t) - p
      const double nn = dot(n, n);
      const double alpha = dot(cross3(rt, e), n) / nn;
      const double beta = dot(cross3(rt, u), n) / nn;
      if (alpha >= -eps && alpha <= 1 + eps && beta >= -eps && beta <= 1 + eps) best = std::max(t, 0.0);
    }
  }
  return best;
}

TEST(PolytopeWorld, FirstContactMatchesBruteForceOnRandomShapes) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  int met = 0;
  for (int trial = 0; trial < 40; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const auto sa = ConvexPolytope::random_hull(8, 2, rng()), sb = ConvexPolytope::random_hull(8, 1.5, rng());
    // b starts 8 to the right of a, aimed at it with a random offset of up to 2.
    const Vec<3> xa{40, 50, 50}, xb{48, 50 + 2 * u(rng), 50 + 2 * u(rng)};
    const Vec<3> va{0.5 + 0.5 * u(rng), 0.1 * u(rng), 0.1 * u(rng)}, vb{-1 - u(rng) * 0.5, 0.1 * u(rng), 0.1 * u(rng)};
    const double expected = reference_contact({sa.get(), xa, va}, {sb.get(), xb, vb});
    const auto contacts = run_all({polytope_body(sa, xa, va), polytope_body(sb, xb, vb)}, 8);
    const Contact* first = nullptr;
    for (const Contact& c : contacts)
      if (!c.with_wall) {
        first = &c;
        break;
      }
    if (!std::isfinite(expected) || expected > 8) {
      EXPECT_EQ(first, nullptr) << describe(*first) << " but the reference finds none";
      continue;
    }
    ASSERT_NE(first, nullptr) << "the reference finds a contact at " << expected;
    EXPECT_NEAR(first->time, expected, 1e-9 * (1 + expected));
    ++met;
  }
  EXPECT_GE(met, 10) << "too few of the random pairs met: the test checks little";
}

// ---- random dice scenes: every broad phase agrees with all-pairs, audited

std::vector<Sphere> random_dice(std::mt19937_64& rng, int n, double box) {
  std::vector<std::shared_ptr<const ConvexPolytope>> shapes = {
      ConvexPolytope::cube(1), ConvexPolytope::tetrahedron(1.5), ConvexPolytope::octahedron(1.3),
      ConvexPolytope::random_hull(9, 1.4, rng()), ConvexPolytope::random_hull(12, 1.2, rng())};
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Sphere> s;
  while (static_cast<int>(s.size()) < n) {
    const auto& shape = shapes[s.size() % shapes.size()];
    const double r = shape->bounding_radius();
    Vec<3> x, v;
    for (int k = 0; k < 3; ++k) {
      x[k] = r + (box - 2 * r) * u(rng);
      v[k] = 10 * (2 * u(rng) - 1);
    }
    bool free = true;
    for (const Sphere& o : s) free = free && norm3(sub(o.position, x)) > o.radius + r;
    if (free) s.push_back(polytope_body(shape, x, v, 0.5 + u(rng)));
  }
  return s;
}

TEST(PolytopeWorld, RandomDiceAllBroadPhasesAgreeAndKeepEnergy) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  // The first scene small and audited after every event (the audit is exact and O(n^2)),
  // the second larger.
  for (int scene = 0; scene < 2; ++scene) {
    const auto dice = random_dice(rng, scene == 0 ? 16 : 30, scene == 0 ? 20 : 30);
    const auto contacts = run_all(dice, 3, scene == 0 ? 20 : 30, scene == 0);
    std::size_t pairs = 0;
    for (const Contact& c : contacts) pairs += !c.with_wall;
    EXPECT_GE(pairs, scene == 0 ? 2u : 5u) << "scene " << scene << ": too few contacts, the test checks little";
    WorldRun run(dice, settings_for("all-pairs", scene == 0 ? 20 : 30));  // the fastest here
    const double e0 = run.world->kinetic_energy(0);
    ASSERT_TRUE(run.run_until(3));
    EXPECT_NEAR(run.world->kinetic_energy(3), e0, 1e-9 * e0);
  }
}

// ---- two dimensions: convex polygons as prisms, all at one height, moving in the plane

std::shared_ptr<const ConvexPolytope> prism(int sides, double radius, double turn) {
  std::vector<Vec<3>> v;
  for (int i = 0; i < sides; ++i) {
    const double a = turn + 2 * M_PI * i / sides;
    for (double z : {-0.5, 0.5}) v.push_back({radius * std::cos(a), radius * std::sin(a), z});
  }
  return std::make_shared<const ConvexPolytope>(std::move(v), "prism");
}

TEST(PolytopeWorld, FlatPrismsAreTwoDimensionalPolygons) {
  const std::uint64_t seed = test_seed();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Sphere> s;
  while (s.size() < 30) {
    const auto shape = prism(3 + static_cast<int>(s.size() % 6), 1 + 0.3 * u(rng), 6 * u(rng));
    const Vec<3> x{2 + 36 * u(rng), 2 + 36 * u(rng), 20};
    bool free = true;
    for (const Sphere& o : s) free = free && norm3(sub(o.position, x)) > o.radius + shape->bounding_radius();
    if (free) s.push_back(polytope_body(shape, x, {8 * u(rng) - 4, 8 * u(rng) - 4, 0}));
  }
  WorldRun run(s, settings_for("box-overlap", 40));
  ASSERT_TRUE(run.run_until(6));
  std::size_t pairs = 0;
  for (const Contact& c : run.contacts()) {
    pairs += !c.with_wall;
    EXPECT_EQ(c.normal[2], 0.0) << describe(c);  // contacts in the plane
    if (c.with_wall) EXPECT_LT(wall_axis(c.wall), 2) << describe(c);
  }
  EXPECT_GE(pairs, 5u);
  for (SphereId i = 0; i < s.size(); ++i) {
    EXPECT_EQ(run.world->state(i, 6).position[2], 20.0);
    EXPECT_EQ(run.world->state(i, 6).velocity[2], 0.0);
  }
  // The z list of box overlap never swaps; the contacts are all-pairs', bit for bit.
  EXPECT_EQ(dynamic_cast<const BoxOverlap&>(run.world->broad_phase()).list(2).swaps(), 0u);
  WorldRun reference(s, settings_for("all-pairs", 40));
  ASSERT_TRUE(reference.run_until(6));
  EXPECT_TRUE(same_contacts(run.contacts(), reference.contacts()));
}

// ---- bad input

TEST(PolytopeWorld, BadInputNamesTheObjectAndTheProblem) {
  const auto c = ConvexPolytope::cube(1);
  Simulator sim;
  auto make = [&](std::vector<Sphere> s) { return invalid_input_message([&] { CollisionWorld w(sim, settings_for("all-pairs"), s); }); };
  // Overlapping at the start by an ulp, though touching is fine.
  EXPECT_TRUE(message_has(make({polytope_body(c, {10, 10, 10}, {}), polytope_body(c, {std::nextafter(12.0, 0.0), 10, 10}, {})}),
                          {"spheres 0 and 1", "overlap", "polytopes"}));
  EXPECT_NO_THROW(CollisionWorld(sim, settings_for("all-pairs"), {polytope_body(c, {10, 10, 10}, {}), polytope_body(c, {12, 12, 12}, {})}));
  // Edge-to-edge overlap of two cubes whose bounding spheres overlap deeply.
  EXPECT_TRUE(message_has(make({polytope_body(c, {10, 10, 10}, {}), polytope_body(c, {11.5, 11.5, 10}, {})}), {"overlap"}));
  EXPECT_TRUE(message_has(make({polytope_body(c, {10, 10, 10}, {}), ball({20, 20, 20}, {})}),
                          {"sphere 1 is a ball and sphere 0 a polytope"}));
  Sphere accelerated = polytope_body(c, {10, 10, 10}, {});
  accelerated.max_acceleration = 1;
  EXPECT_TRUE(message_has(make({accelerated}), {"sphere 0", "polytope", "ballistic"}));
  Sphere small = polytope_body(c, {10, 10, 10}, {});
  small.radius = 1;
  EXPECT_TRUE(message_has(make({small}), {"sphere 0", "radius", "bounding radius"}));
  EXPECT_TRUE(message_has(make({polytope_body(c, {0.5, 10, 10}, {})}), {"sphere 0", "outside the box", "reach"}));
}

}  // namespace
}  // namespace kds::testing
