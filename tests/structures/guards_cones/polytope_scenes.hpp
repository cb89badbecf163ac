#pragma once
// What the polytope tests of guards and cones share: the regular dice, random fields of
// them, and a run audited every few events beside all-pairs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "collision_world_support.hpp"
#include "structures/collision/geometry.hpp"
#include "guards_scenes.hpp"
#include "structures/collision/polytope.hpp"
#include "structures/guards_cones/guards_cones.hpp"
#include "structures/guards_cones/guards_cones_lists.hpp"

namespace kds::testing {

/// A cube (half side s / sqrt 3), a tetrahedron and an octahedron, all of circumradius
/// s: fatness sqrt 3, 3 and sqrt 3 about their centroids.
inline std::vector<std::shared_ptr<const ConvexPolytope>> regular_dice(double s) {
  return {ConvexPolytope::cube(s / std::sqrt(3.0)), ConvexPolytope::tetrahedron(s), ConvexPolytope::octahedron(s)};
}

/// n polytopes of the given shapes (cycled) at random, apart (bounding spheres), in a
/// cube of side `box`, with velocities up to `speed` per axis plus `inward` towards the
/// box's centre (so that a short run has contacts).
inline std::vector<Sphere> random_polytopes(std::mt19937_64& rng, const std::vector<std::shared_ptr<const ConvexPolytope>>& shapes,
                                            std::size_t n, double box, double speed, double inward = 0) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Sphere> s;
  for (int attempts = 0; s.size() < n && attempts < 100000; ++attempts) {
    const auto& shape = shapes[s.size() % shapes.size()];
    const double r = shape->bounding_radius();
    Vec<3> x, v;
    for (int k = 0; k < 3; ++k) {
      x[k] = r + (box - 2 * r) * u(rng);
      v[k] = speed * (2 * u(rng) - 1);
    }
    bool free = true;
    for (const Sphere& o : s) free = free && norm3(sub(o.position, x)) > o.radius + r;
    const Vec<3> to_centre = sub({box / 2, box / 2, box / 2}, x);
    const double l = norm3(to_centre);
    for (int k = 0; k < 3 && l > 0; ++k) v[k] += inward * to_centre[k] / l;
    if (free) s.push_back(polytope_body(shape, x, v, r * r * r));
  }
  EXPECT_EQ(s.size(), n) << "the field is too dense to place " << n << " polytopes";
  return s;
}

/// Pairs of polytopes on a collision course, one pair in each cell of a 2 x 2 x 2 grid of
/// the cube of side `box` (up to 8 pairs): the two apart by a gap of up to 1 along a
/// random direction, approaching at `speed` with a random sideways jitter (so they meet
/// face, edge or vertex first, or just miss), shapes drawn from `shapes`.
inline std::vector<Sphere> colliding_pairs(std::mt19937_64& rng, const std::vector<std::shared_ptr<const ConvexPolytope>>& shapes,
                                           int pairs, double box, double speed) {
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> nd(0, 1);
  std::vector<Sphere> s;
  for (int p = 0; p < pairs; ++p) {
    const Vec<3> cell{box * (0.25 + 0.5 * (p & 1)), box * (0.25 + 0.5 * ((p >> 1) & 1)), box * (0.25 + 0.5 * ((p >> 2) & 1))};
    const auto& a = shapes[rng() % shapes.size()];
    const auto& b = shapes[rng() % shapes.size()];
    Vec<3> dir{nd(rng), nd(rng), nd(rng)};
    const double l = norm3(dir);
    for (double& c : dir) c /= l;
    const double half = (a->bounding_radius() + b->bounding_radius() + u(rng)) / 2;
    Vec<3> xa, xb, va, vb;
    for (int k = 0; k < 3; ++k) {
      xa[k] = cell[k] - half * dir[k];
      xb[k] = cell[k] + half * dir[k];
      va[k] = speed * (dir[k] + 0.3 * nd(rng));
      vb[k] = -speed * (dir[k] + 0.3 * nd(rng));
    }
    s.push_back(polytope_body(a, xa, va, std::pow(a->bounding_radius(), 3)));
    s.push_back(polytope_body(b, xb, vb, std::pow(b->bounding_radius(), 3)));
  }
  return s;
}

/// The sphere-pair contacts (not with a wall) of the all-pairs reference on `bodies` in
/// a box of side `box` up to `t_end`: what a random scene is drawn again until it has
/// enough of (a random draw may just miss; the twin test on it would compare nothing).
inline std::size_t reference_pair_contacts(const std::vector<Sphere>& bodies, double t_end, double box) {
  WorldRun a(bodies, guards_settings(box, "all-pairs"));
  EXPECT_TRUE(a.run_until(t_end)) << "all pairs: event cap reached";
  return sphere_pair_contacts(a.contacts());
}

/// "guards: 128, box events: ..." for either variant of guards and cones.
template <class Structure>
std::string guards_counts(const Structure& gc) {
  return std::to_string(gc.guards()) + " guards, " + std::to_string(gc.box_events()) + " box events, " +
         std::to_string(gc.center_events()) + " center events";
}

/// Guards and cones (`broad_phase`: "guards-cones" or "guards-cones-lists") and all-pairs
/// on the same polytopes: the structure audited every `every` events and at the end
/// (every = 1: after every event), the contacts the same bit for bit. Returns the
/// structure's contacts.
inline std::vector<Contact> audited_polytope_twins(const std::vector<Sphere>& bodies, double t_end, double box,
                                                   int every, const std::string& what,
                                                   const std::string& broad_phase = "guards-cones") {
  const CollisionWorldSettings settings = guards_settings(box, broad_phase);
  WorldRun w(bodies, settings);
  std::uint64_t events = 0, audits = 0;
  while (compare(w.sim->next_event_time(), t_end) <= 0) {
    EXPECT_TRUE(w.sim->step());
    if (++events % every == 0) {
      bool audited = false;
      try {
        audited = w.sim->audit();  // false: no double between now and the next event
      } catch (const std::exception& e) {
        ADD_FAILURE() << what << ": after event " << events << ": " << e.what();
        return {};
      }
      audits += audited;
    }
    if (events > 2'000'000) {
      ADD_FAILURE() << what << ": event cap reached";
      return {};
    }
  }
  w.sim->run_until(t_end);
  EXPECT_NO_THROW(w.sim->audit()) << what << ": at the end";
  auto reference = settings;
  reference.broad_phase = "all-pairs";
  WorldRun a(bodies, reference);
  EXPECT_TRUE(a.run_until(t_end)) << what;
  EXPECT_TRUE(same_contacts(w.contacts(), a.contacts())) << what;
  const BroadPhase& bp = w.world->broad_phase();
  const auto* lists = dynamic_cast<const GuardsConesLists*>(&bp);
  const std::string counts = lists ? guards_counts(*lists) : guards_counts(dynamic_cast<const GuardsCones&>(bp));
  std::size_t pairs = 0;
  for (const Contact& c : w.contacts()) pairs += !c.with_wall;
  std::cout << "[ polytope ] " << broad_phase << ", " << what << ": " << bodies.size() << " bodies, " << events
            << " events, " << audits << " audits, " << w.contacts().size() << " contacts (" << pairs << " pairs), "
            << counts << "\n";
  return w.contacts();
}

}  // namespace kds::testing
