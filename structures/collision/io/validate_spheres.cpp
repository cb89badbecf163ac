#include "structures/collision/io/validate_spheres.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kds/error_free.hpp"
#include "kds/errors.hpp"
#include "kds/interval.hpp"
#include "kds/number_types.hpp"
#include "structures/collision/input_range.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/collision/polytope.hpp"

namespace kds {
namespace {

constexpr const char* kAxis[3] = {"x", "y", "z"};

/// The rounding error of fl(a + b) (kds/error_free.hpp's two_sum).
double sum_error(double a, double b) {
  double s, e;
  two_sum(a, b, s, e);
  return e;
}

/// Sign of |xa - xb|^2 - (ra + rb)^2, exactly, in three stages:
///  1. doubles with a relative error bound: every term is a sum of non-negative squares,
///     so both sides carry a relative error below 8 ulps (away from underflow);
///  2. when they are that close, the double computation is checked for exactness
///     (TwoSum, fma): spheres exactly touching on a lattice are decided here;
///  3. otherwise GMP rationals.
int separation_sign(const Vec<3>& xa, double ra, const Vec<3>& xb, double rb) {
  double d2 = 0;
  bool exact = true;
  for (int k = 0; k < 3; ++k) {
    const double d = xa[k] - xb[k];
    const double p = d * d;
    const double sum = d2 + p;
    exact = exact && sum_error(xa[k], -xb[k]) == 0 && std::fma(d, d, -p) == 0 && sum_error(d2, p) == 0;
    d2 = sum;
  }
  const double reach = ra + rb;
  const double r2 = reach * reach;
  exact = exact && sum_error(ra, rb) == 0 && std::fma(reach, reach, -r2) == 0;
  constexpr double kRelative = 1e-14;  // far above 8 ulps
  constexpr double kTiny = 1e-280;     // below this, underflow voids the relative bound
  if (r2 > kTiny && d2 > kTiny) {
    if (d2 > r2 * (1 + kRelative)) return 1;
    if (d2 < r2 * (1 - kRelative)) return -1;
  }
  if (exact && std::isfinite(d2) && std::isfinite(r2)) return (d2 > r2) - (d2 < r2);
  Rational g = -(Rational(ra) + Rational(rb)) * (Rational(ra) + Rational(rb));
  for (int k = 0; k < 3; ++k) {
    const Rational d = Rational(xa[k]) - Rational(xb[k]);
    g += d * d;
  }
  return sgn(g);
}

/// Sign of a - b - c, exactly. First in doubles: rounding is monotonic and c is a double,
/// so the rounded a - b lies on the same side of c as a - b, or on c; and the difference of
/// two doubles has the exact sign. So a non-zero (a - b) - c has the sign of a - b - c
/// (an overflow of a - b keeps its sign too). Zero (or NaN): intervals, then exactly.
int difference_sign(double a, double b, double c) {
  const double value = (a - b) - c;
  if (value > 0) return 1;
  if (value < 0) return -1;
  const Interval f = Interval(a) - Interval(b) - Interval(c);
  if (f.sign_known()) return to_int(f.sign());
  return sgn(Rational(a) - Rational(b) - Rational(c));
}

std::string describe_non_finite(double x) { return std::isnan(x) ? "NaN" : x > 0 ? "+infinity" : "-infinity"; }

/// "must be at most 1e+50 in magnitude, got 1e+308" when |x| is beyond the accepted range.
std::optional<std::string> magnitude_problem(double x) {
  if (std::fabs(x) <= input_range::max_magnitude) return std::nullopt;
  return "must be at most " + text::shortest(input_range::max_magnitude) + " in magnitude, got " + text::shortest(x);
}

double largest_side(const Box3& box) {
  double side = 0;
  for (int k = 0; k < 3; ++k) side = std::max(side, box.hi[k] - box.lo[k]);
  return side;
}

// ---- the hierarchical grid of the overlap search ---------------------------------------

/// Level of a sphere: the binade of its radius, so that radii within a level differ by
/// less than a factor 2 and cells are a power of two (cell indices are exact).
int level_of(double r) { return std::ilogb(r); }

using CellKey = std::array<std::int64_t, 3>;

/// Cell index along one axis; clamped so that absurd box-to-cell ratios merge cells
/// (more candidates, still exact) instead of overflowing.
std::int64_t cell_index(double x, double cell) {
  constexpr double limit = 4.0e18;
  const double c = std::floor(x / cell);
  return static_cast<std::int64_t>(std::clamp(c, -limit, limit));
}

std::uint64_t hash_key(const CellKey& k) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (std::int64_t v : k) {
    h ^= static_cast<std::uint64_t>(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ULL;
  }
  return h ^ (h >> 31);
}

/// One grid level: the spheres sorted by cell, and an open-addressing table from a cell
/// to its run in that order.
class Level {
 public:
  Level(int level, const std::vector<Sphere>& spheres, std::vector<std::uint32_t> members)
      : cell_(std::ldexp(1.0, level + 2)) {
    entries_.reserve(members.size());
    for (std::uint32_t i : members) {
      const Vec<3>& x = spheres[i].position;
      entries_.push_back({{cell_index(x[0], cell_), cell_index(x[1], cell_), cell_index(x[2], cell_)}, i});
      max_radius_ = std::max(max_radius_, spheres[i].radius);
    }
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.key != b.key ? a.key < b.key : a.sphere < b.sphere; });
    std::size_t capacity = 16;
    while (capacity < 2 * entries_.size()) capacity *= 2;
    slots_.assign(capacity, Slot{});
    for (std::uint32_t b = 0; b < entries_.size();) {
      std::uint32_t e = b;
      while (e < entries_.size() && entries_[e].key == entries_[b].key) ++e;
      std::size_t s = hash_key(entries_[b].key) & (slots_.size() - 1);
      while (slots_[s].end != 0) s = (s + 1) & (slots_.size() - 1);
      slots_[s] = {entries_[b].key, b, e};
      b = e;
    }
  }

  double cell() const { return cell_; }
  double max_radius() const { return max_radius_; }
  /// The level's spheres, cell by cell: queries in this order reuse the cells just read.
  std::vector<std::uint32_t> spatial_order() const {
    std::vector<std::uint32_t> out;
    out.reserve(entries_.size());
    for (const Entry& e : entries_) out.push_back(e.sphere);
    return out;
  }

  /// Calls visit(j) for every sphere j of this level in the cells the box [lo, hi] meets,
  /// in a fixed order; stops early when visit returns true (and returns true).
  template <class Visit>
  bool for_each_in(const Vec<3>& lo, const Vec<3>& hi, Visit&& visit) const {
    CellKey a, b;
    for (int k = 0; k < 3; ++k) {
      a[k] = cell_index(lo[k], cell_);
      b[k] = cell_index(hi[k], cell_);
    }
    for (std::int64_t i = a[0]; i <= b[0]; ++i)
      for (std::int64_t j = a[1]; j <= b[1]; ++j)
        for (std::int64_t k = a[2]; k <= b[2]; ++k) {
          const CellKey key{i, j, k};
          for (std::size_t s = hash_key(key) & (slots_.size() - 1); slots_[s].end != 0; s = (s + 1) & (slots_.size() - 1))
            if (slots_[s].key == key) {
              for (std::uint32_t e = slots_[s].begin; e < slots_[s].end; ++e)
                if (visit(entries_[e].sphere)) return true;
              break;
            }
        }
    return false;
  }

 private:
  struct Entry {
    CellKey key;
    std::uint32_t sphere;
  };
  struct Slot {
    CellKey key{};
    std::uint32_t begin = 0;
    std::uint32_t end = 0;  ///< 0: empty slot (a run is never empty)
  };
  double cell_;
  double max_radius_ = 0;
  std::vector<Entry> entries_;
  std::vector<Slot> slots_;
};

SphereProblem overlap_problem(const std::vector<Sphere>& spheres, std::size_t a, std::size_t b) {
  const Sphere &sa = spheres[a], &sb = spheres[b];
  const double d = std::hypot(sa.position[0] - sb.position[0], sa.position[1] - sb.position[1],
                              sa.position[2] - sb.position[2]);
  return SphereProblem{a, b, "position",
                       "distance between centres " + text::shortest(d) + " < sum of radii " +
                           text::shortest(sa.radius + sb.radius) + " (touching is allowed, overlapping is not)"};
}

std::optional<SphereProblem> overlapping_pair(const std::vector<Sphere>& spheres) {
  std::vector<int> level(spheres.size());
  std::vector<int> levels;
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    level[i] = level_of(spheres[i].radius);
    levels.push_back(level[i]);
  }
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  std::vector<std::vector<std::uint32_t>> members(levels.size());
  std::vector<std::size_t> slot(spheres.size());
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    slot[i] = static_cast<std::size_t>(std::lower_bound(levels.begin(), levels.end(), level[i]) - levels.begin());
    members[slot[i]].push_back(static_cast<std::uint32_t>(i));
  }
  std::vector<Level> grids;
  grids.reserve(levels.size());
  for (std::size_t l = 0; l < levels.size(); ++l) grids.emplace_back(levels[l], spheres, std::move(members[l]));

  // Each pair is looked for from its sphere of lower level (same level: lower index), in
  // the cells that the other sphere's centre can occupy if they overlap. Spheres are taken
  // level by level in cell order, for locality; the order is deterministic.
  for (std::size_t own = 0; own < grids.size(); ++own) {
    for (const std::uint32_t i : grids[own].spatial_order()) {
      const Sphere& s = spheres[i];
      for (std::size_t l = own; l < grids.size(); ++l) {
        const double reach = s.radius + grids[l].max_radius();
        Vec<3> lo, hi;
        for (int k = 0; k < 3; ++k) {
          lo[k] = s.position[k] - reach;
          hi[k] = s.position[k] + reach;
        }
        std::size_t found = 0;
        const bool hit = grids[l].for_each_in(lo, hi, [&](std::uint32_t j) {
          if (l == own && j <= i) return false;
          // Two polytopes may be closer than their bounding spheres: the world tests them exactly.
          if (s.polytope && spheres[j].polytope) return false;
          if (!strictly_overlapping(s.position, s.radius, spheres[j].position, spheres[j].radius)) return false;
          found = j;
          return true;
        });
        if (hit) return overlap_problem(spheres, std::min<std::size_t>(i, found), std::max<std::size_t>(i, found));
      }
    }
  }
  return std::nullopt;
}

}  // namespace

bool strictly_overlapping(const Vec<3>& xa, double ra, const Vec<3>& xb, double rb) {
  return separation_sign(xa, ra, xb, rb) < 0;
}

bool inside_box(const Vec<3>& x, double r, const Box3& box) {
  for (int k = 0; k < 3; ++k)
    if (difference_sign(x[k], r, box.lo[k]) < 0 || difference_sign(box.hi[k], r, x[k]) < 0) return false;
  return true;
}

std::optional<std::string> box_problem(const Box3& box) {
  for (int k = 0; k < 3; ++k) {
    const std::string lo = kAxis[k] + std::string("0"), hi = kAxis[k] + std::string("1");
    if (!std::isfinite(box.lo[k])) return "box corner " + lo + " is " + describe_non_finite(box.lo[k]);
    if (!std::isfinite(box.hi[k])) return "box corner " + hi + " is " + describe_non_finite(box.hi[k]);
    if (auto m = magnitude_problem(box.lo[k])) return "box corner " + lo + " " + *m;
    if (auto m = magnitude_problem(box.hi[k])) return "box corner " + hi + " " + *m;
    if (!(box.lo[k] < box.hi[k]))
      return "box " + hi + " = " + text::shortest(box.hi[k]) + " must be greater than " + lo + " = " +
             text::shortest(box.lo[k]);
  }
  return std::nullopt;
}

std::optional<std::string> gravity_problem(const Vec<3>& gravity) {
  for (int k = 0; k < 3; ++k) {
    const std::string field = std::string("gravity.") + kAxis[k];
    if (!std::isfinite(gravity[k])) return field + " is " + describe_non_finite(gravity[k]);
    if (auto m = magnitude_problem(gravity[k])) return field + " " + *m;
  }
  return std::nullopt;
}

std::optional<std::string> tolerance_problem(double tolerance, const Box3& box) {
  if (!(tolerance > 0) || !std::isfinite(tolerance))
    return "must be positive and finite, got " + text::shortest(tolerance);
  // Coordinates in the world's local frame (box.hpp, local_origin): a box far from zero is
  // held relative to its corner.
  const Vec<3> origin = local_origin(box);
  double corner = 0;
  for (int k = 0; k < 3; ++k)
    corner = std::max({corner, std::fabs(box.lo[k] - origin[k]), std::fabs(box.hi[k] - origin[k])});
  const double least = input_range::min_tolerance_per_coordinate * corner;  // exact: a power of two
  if (tolerance < least)
    return "must be at least 2^-40 times the largest coordinate of the box relative to its local origin (" +
           text::shortest(corner) + "), " + text::shortest(least) + ", got " + text::shortest(tolerance);
  return std::nullopt;
}

std::optional<SphereProblem> single_sphere_problem(const Sphere& s, std::size_t index, const Box3& box) {
  auto problem = [&](std::string field, std::string message) {
    return SphereProblem{index, std::nullopt, std::move(field), std::move(message)};
  };
  for (int k = 0; k < 3; ++k) {
    if (!std::isfinite(s.position[k]))
      return problem(std::string("position.") + kAxis[k], "is " + describe_non_finite(s.position[k]));
    if (!std::isfinite(s.velocity[k]))
      return problem(std::string("velocity.") + kAxis[k], "is " + describe_non_finite(s.velocity[k]));
  }
  for (int k = 0; k < 3; ++k)
    if (auto m = magnitude_problem(s.velocity[k])) return problem(std::string("velocity.") + kAxis[k], *m);
  if (!std::isfinite(s.radius)) return problem("radius", "is " + describe_non_finite(s.radius));
  if (!(s.radius > 0)) return problem("radius", "must be > 0, got " + text::shortest(s.radius));
  const double min_radius = input_range::min_radius_per_box_side * largest_side(box);  // exact: a power of two
  if (s.radius < min_radius)
    return problem("radius", "must be at least 2^-40 times the largest side of the box, " + text::shortest(min_radius) +
                                 ", got " + text::shortest(s.radius));
  if (!std::isfinite(s.mass)) return problem("mass", "is " + describe_non_finite(s.mass));
  if (!(s.mass > 0)) return problem("mass", "must be > 0, got " + text::shortest(s.mass));
  if (!(s.mass >= input_range::min_mass && s.mass <= input_range::max_magnitude))
    return problem("mass", "must lie in [" + text::shortest(input_range::min_mass) + ", " +
                               text::shortest(input_range::max_magnitude) + "], got " + text::shortest(s.mass));
  if (!std::isfinite(s.max_acceleration))
    return problem("max_acceleration", "is " + describe_non_finite(s.max_acceleration));
  if (s.max_acceleration < 0)
    return problem("max_acceleration", "must be >= 0, got " + text::shortest(s.max_acceleration));
  if (auto m = magnitude_problem(s.max_acceleration)) return problem("max_acceleration", *m);
  // A polytope reaches as far as its extreme vertices, not its bounding sphere.
  const char* reach = s.polytope ? " - reach = " : " - radius = ";
  const char* high_reach = s.polytope ? " + reach = " : " + radius = ";
  for (int k = 0; k < 3; ++k) {
    const double lo = s.polytope ? s.polytope->reach(k, false) : s.radius;
    const double hi = s.polytope ? s.polytope->reach(k, true) : s.radius;
    if (difference_sign(s.position[k], lo, box.lo[k]) < 0)
      return problem("position", std::string("lies outside the box: ") + kAxis[k] + reach +
                                     text::shortest(s.position[k] - lo) + " < " + kAxis[k] + "0 = " +
                                     text::shortest(box.lo[k]));
    if (difference_sign(box.hi[k], hi, s.position[k]) < 0)
      return problem("position", std::string("lies outside the box: ") + kAxis[k] + high_reach +
                                     text::shortest(s.position[k] + hi) + " > " + kAxis[k] + "1 = " +
                                     text::shortest(box.hi[k]));
  }
  return std::nullopt;
}

std::optional<SphereProblem> find_sphere_problem(const std::vector<Sphere>& spheres, const Box3& box) {
  // Ids are 32 bits, and the world's tie keys (tie_keys.hpp) need the last 16 values.
  if (spheres.size() > 0xFFFFFFF0u)
    return SphereProblem{spheres.size() - 1, std::nullopt, "", "too many spheres for 32-bit ids"};
  for (std::size_t i = 0; i < spheres.size(); ++i)
    if (auto p = single_sphere_problem(spheres[i], i, box)) return p;
  return overlapping_pair(spheres);
}

void validate_spheres(const std::vector<Sphere>& spheres, const Box3& box) {
  if (auto b = box_problem(box)) throw InvalidInput(*b);
  const auto p = find_sphere_problem(spheres, box);
  if (!p) return;
  if (p->other)
    throw InvalidInput("spheres " + std::to_string(p->sphere) + " and " + std::to_string(*p->other) +
                       " overlap: " + p->message);
  throw InvalidInput("sphere " + std::to_string(p->sphere) + ", " + p->field + ": " + p->message);
}

}  // namespace kds
