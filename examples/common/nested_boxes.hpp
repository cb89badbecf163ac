#pragma once
/// \file
/// Nested boxes: the scene of Abam, de Berg, Poon, Speckmann section 3.2, Fig. 6 ("a guard
/// can be contained in many bounding boxes ... the objects must become larger and larger,
/// with the larger objects behind the smaller ones"), where kinetic box overlap holds
/// quadratically many overlapping box pairs among disjoint balls. Shared by
/// `kds_bench_guards_cones --field nested`, `kds generate nested-boxes` and its test.
///
/// A ball of radius r whose centre lies at distance d from a point p in the unit
/// direction u holds p in its bounding box but not in itself when r / d lies in
/// [|u|_inf, 1). Along a diagonal |u|_inf = 1 / sqrt 3, the least possible. So the scene
/// puts *chain balls* on the eight diagonals through p, radius alpha d with alpha = 0.63
/// (just above 1 / sqrt 3 = 0.577, so that p lies strictly inside every box), in
/// half-levels: the even ones on the four diagonals of one tetrahedron, (1,1,1),
/// (1,-1,-1), (-1,1,-1), (-1,-1,1), at distances d0 q^k, the odd ones on the four opposite
/// diagonals at d0 q^(k + 1/2), with q = 4.7. Two balls on one diagonal are disjoint when
/// q > (1 + alpha) / (1 - alpha) = 4.41; the offset half-levels keep balls on neighbouring
/// diagonals (70.5 degrees apart) disjoint too: the closest pair of chain balls has a gap
/// of about a tenth of the smaller radius. Every chain box holds p, so every two chain
/// boxes overlap: M chain balls give M (M - 1) / 2 box pairs, with the sizes growing by
/// sqrt q = 2.17 per half-level.
///
/// *Small bodies* (radii log-uniform in [s, 1.25 s]) fill a cube about p at a given
/// volume fraction; d0 is chosen so that the cube lies inside the box of every chain ball
/// from the second half-level on (the box of a chain ball at distance d reaches
/// (alpha - 1 / sqrt 3) d past p on each axis), and it stays well clear of the balls
/// (the nearest chain ball is (1 - alpha) d0 = 3.2 half sides from p). So each small body
/// overlaps the boxes of nearly all M chain balls: S small bodies give about S M pairs.
///
/// The family: n bodies, M = max(4, round(n chain_fraction)) of them chain balls and the
/// rest small. With M a fixed share of n, the box pairs grow as n^2 (about 0.2 n^2 with
/// the default quarter), and the sizes as q^(M / 8): sigma is 25 at n = 16 and about 2000
/// at n = 96. That is the only way to get there: a point lies in the boxes of O(1)
/// disjoint balls of each size class, so the box pairs are O(n log sigma), and a quadratic
/// count needs sigma exponential in n (docs/structures/guards-cones.md, "Growing sigma").
///
/// Motions (ballistic): the chain balls drift towards p at `chain_speed`; the small
/// bodies converge on p (each velocity component -(x - p) / (2 h) plus a uniform random
/// part in [-1/2, 1/2], times `small_speed`, h the cube's half side). Masses
/// proportional to volume. Every scene is checked before it is returned: all bodies
/// pairwise disjoint, p inside every chain box and outside every chain ball (a
/// std::logic_error naming the first failure otherwise). The doubles come from the raw
/// bits of std::mt19937_64: a seed gives the same scene on every platform.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "structures/collision/box.hpp"
#include "structures/collision/sphere.hpp"

namespace kds::examples {

struct NestedBoxesSpec {
  std::size_t n = 96;             ///< bodies in all (at least 5)
  double chain_fraction = 0.25;   ///< share of the bodies on the chains (at least 4 of them)
  double small_radius = 1;        ///< s: the small bodies' radii are log-uniform in [s, 1.25 s]
  double small_packing = 0.1;     ///< volume fraction of the small bodies in their cube
  double small_speed = 1;
  double chain_speed = 0.1;       ///< speed of the chain balls towards the common point
};

struct NestedBoxes {
  Box3 box;                  ///< the world: a cube centred on `centre`
  Vec<3> centre{};           ///< p: in every chain box, outside every ball
  std::size_t chain = 0;     ///< spheres [0, chain) are the chain balls, smallest first; then the small bodies
  double cube_half_side = 0; ///< the small bodies lie in the cube of this half side about p
  std::vector<Sphere> spheres;
};

/// The chain's constants: radius over distance to p, and the ratio of distances between
/// the levels of one diagonal.
inline constexpr double nested_alpha = 0.63;
inline constexpr double nested_ratio = 4.7;
/// The largest ratio of radii (largest chain ball over smallest small body) the generator
/// accepts: beyond it positions would need more digits than the scene's contacts.
inline constexpr double nested_max_sigma = 1e6;

/// Whether the closed axis-aligned boxes (centre +- radius) of a and b overlap.
inline bool boxes_overlap(const Sphere& a, const Sphere& b) {
  for (int k = 0; k < 3; ++k)
    if (std::abs(a.position[k] - b.position[k]) > a.radius + b.radius) return false;
  return true;
}

/// The pairs of overlapping boxes, by brute force: what kinetic box overlap certifies.
inline std::size_t box_overlap_pairs(const std::vector<Sphere>& s) {
  std::size_t pairs = 0;
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t j = i + 1; j < s.size(); ++j) pairs += boxes_overlap(s[i], s[j]) ? 1 : 0;
  return pairs;
}

inline NestedBoxes nested_boxes(const NestedBoxesSpec& spec, std::uint64_t seed) {
  if (spec.n < 5 || !(spec.chain_fraction > 0 && spec.chain_fraction < 1) || !(spec.small_radius > 0) ||
      !(spec.small_packing > 0 && spec.small_packing <= 0.3) || !(spec.small_speed >= 0) || !(spec.chain_speed >= 0))
    throw std::invalid_argument("nested_boxes: needs n >= 5, a chain fraction in (0, 1), a small radius > 0, a "
                                "packing in (0, 0.3] and speeds >= 0");
  const double inv_sqrt3 = 1 / std::sqrt(3.0);
  NestedBoxes f;
  f.chain = std::max<std::size_t>(4, static_cast<std::size_t>(std::lround(spec.chain_fraction * static_cast<double>(spec.n))));
  if (f.chain + 1 > spec.n)
    throw std::invalid_argument("nested_boxes: n = " + std::to_string(spec.n) + " leaves no small body beside " +
                                std::to_string(f.chain) + " chain balls");
  const std::size_t small = spec.n - f.chain;
  const double s_max = 1.25 * spec.small_radius;
  // The small bodies' cube: their volume (at the largest radius) over the packing, at
  // least four largest diameters across.
  const double volume = static_cast<double>(small) * 4.0 / 3.0 * M_PI * s_max * s_max * s_max / spec.small_packing;
  f.cube_half_side = std::max(0.5 * std::cbrt(volume), 4 * s_max);
  // d0: the boxes of the second half-level (distance d0 sqrt q) reach the cube's sides.
  const double reach = nested_alpha - inv_sqrt3;
  const double d0 = f.cube_half_side / (reach * std::sqrt(nested_ratio));
  const std::size_t half_levels = (f.chain + 3) / 4;
  const double d_max = d0 * std::pow(nested_ratio, 0.5 * static_cast<double>(half_levels - 1));
  if (nested_alpha * d_max / spec.small_radius > nested_max_sigma)
    throw std::invalid_argument("nested_boxes: " + std::to_string(f.chain) + " chain balls span radii " +
                                std::to_string(nested_alpha * d_max / spec.small_radius) +
                                " times the small radius, beyond 1e6: take fewer bodies or a smaller chain fraction");
  // The world: a cube about p holding every chain ball with a margin of a tenth.
  const double half = 1.1 * d_max * (inv_sqrt3 + nested_alpha);
  f.box = Box3{{0, 0, 0}, {2 * half, 2 * half, 2 * half}};
  f.centre = {half, half, half};
  const Vec<3>& p = f.centre;

  // Chain balls: half-level j on the tetrahedron of sign product (-1)^j.
  static constexpr int kTetrahedron[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  for (std::size_t i = 0; i < f.chain; ++i) {
    const std::size_t j = i / 4;
    const double sign = j % 2 == 0 ? 1 : -1;
    const double d = d0 * std::pow(nested_ratio, 0.5 * static_cast<double>(j));
    Sphere s;
    s.radius = nested_alpha * d;
    for (int a = 0; a < 3; ++a) {
      const double u = sign * kTetrahedron[i % 4][a] * inv_sqrt3;
      s.position[a] = p[a] + d * u;
      s.velocity[a] = -spec.chain_speed * u;
    }
    s.mass = s.radius * s.radius * s.radius;
    f.spheres.push_back(s);
  }

  // Small bodies: rejection in the cube, against the small bodies placed so far (the
  // chain balls are far outside the cube).
  std::mt19937_64 rng(seed);
  auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  for (std::size_t k = 0; k < small; ++k) {
    for (int attempt = 0;; ++attempt) {
      if (attempt > 100000) throw std::runtime_error("nested_boxes: too dense to place the small bodies");
      Sphere s;
      s.radius = spec.small_radius * std::pow(1.25, unit());
      for (int a = 0; a < 3; ++a) s.position[a] = p[a] + (2 * unit() - 1) * (f.cube_half_side - s_max);
      bool free = true;
      for (std::size_t j = f.chain; j < f.spheres.size() && free; ++j) {
        const Sphere& o = f.spheres[j];
        const double dx = s.position[0] - o.position[0], dy = s.position[1] - o.position[1],
                     dz = s.position[2] - o.position[2];
        const double touch = (s.radius + o.radius) * (1 + 1e-9);
        free = dx * dx + dy * dy + dz * dz > touch * touch;
      }
      if (!free) continue;
      // Towards p, faster the farther out, plus a random part: they meet about p.
      for (int a = 0; a < 3; ++a)
        s.velocity[a] = spec.small_speed * ((unit() - 0.5) - 0.5 * (s.position[a] - p[a]) / f.cube_half_side);
      s.mass = s.radius * s.radius * s.radius;
      f.spheres.push_back(s);
      break;
    }
  }

  // The checks the scene's claims rest on, on every scene returned.
  for (std::size_t i = 0; i < f.spheres.size(); ++i)
    for (std::size_t j = i + 1; j < f.spheres.size(); ++j) {
      const Sphere &a = f.spheres[i], &b = f.spheres[j];
      const double dx = a.position[0] - b.position[0], dy = a.position[1] - b.position[1],
                   dz = a.position[2] - b.position[2];
      const double touch = (a.radius + b.radius) * (1 + 1e-9);
      if (!(dx * dx + dy * dy + dz * dz > touch * touch))
        throw std::logic_error("nested_boxes: spheres " + std::to_string(i) + " and " + std::to_string(j) + " overlap");
    }
  for (std::size_t i = 0; i < f.chain; ++i) {
    const Sphere& c = f.spheres[i];
    double d2 = 0;
    bool in_box = true;
    for (int a = 0; a < 3; ++a) {
      d2 += (c.position[a] - p[a]) * (c.position[a] - p[a]);
      in_box = in_box && std::abs(c.position[a] - p[a]) < c.radius;
    }
    if (!in_box || !(d2 > c.radius * c.radius))
      throw std::logic_error("nested_boxes: chain ball " + std::to_string(i) +
                             (in_box ? " holds the common point" : "'s box misses the common point"));
  }
  return f;
}

}  // namespace kds::examples
