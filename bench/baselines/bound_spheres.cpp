#include "bench/baselines/bound_spheres.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "bench/baselines/input_checks.hpp"

namespace kds::baseline {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

/// The real roots of a s^2 + b s + c, in increasing order, in the form without
/// cancellation (a linear or constant function when a = 0). Returns how many.
int quadratic_roots(double a, double b, double c, double out[2]) {
  int n = 0;
  if (a == 0) {
    if (b != 0) out[n++] = -c / b;
    return n;
  }
  const double disc = b * b - 4 * a * c;
  if (disc < 0) return 0;
  const double q = -0.5 * (b + std::copysign(std::sqrt(disc), b));
  out[n++] = q / a;
  if (q != 0) out[n++] = c / q;
  if (n == 2 && out[0] > out[1]) std::swap(out[0], out[1]);
  return n;
}

/// The first s >= 0 at which a s^2 + b s + c crosses zero rising (direction +1) or falling
/// (-1), strictly: a root where the slope 2 a s + b has that sign. Infinity if none.
double crossing(double a, double b, double c, int direction) {
  double roots[2];
  const int n = quadratic_roots(a, b, c, roots);
  double best = infinity;
  for (int i = 0; i < n; ++i) {
    const double s = roots[i], slope = 2 * a * s + b;
    if (s >= 0 && s < best && (direction > 0 ? slope > 0 : slope < 0)) best = s;
  }
  return best;
}

/// The quartic of eq. (10) and its derivative.
struct Quartic {
  double c[5];
  double at(double s) const { return (((c[4] * s + c[3]) * s + c[2]) * s + c[1]) * s + c[0]; }
  double slope(double s) const { return ((4 * c[4] * s + 3 * c[3]) * s + 2 * c[2]) * s + c[1]; }
  double bend(double s) const { return (12 * c[4] * s + 6 * c[3]) * s + 2 * c[2]; }
};

/// The roots of f' in (0, window), in increasing order: f'' is a quadratic, whose roots
/// (stable) split the window into pieces on which f' is monotone; a piece where f' changes
/// sign holds one root, found by bisection. (Closed forms of the cubic lost its roots when
/// the growth was tiny against the motion: a reviewer's case, A = 1e-34.) Returns how many.
int critical_points(const Quartic& f, double window, double out[3]) {
  double cuts[4] = {0, 0, 0, window};
  int n = 1;
  double bends[2];
  const int m = quadratic_roots(12 * f.c[4], 6 * f.c[3], 2 * f.c[2], bends);
  for (int i = 0; i < m; ++i)
    if (bends[i] > 0 && bends[i] < window) cuts[n++] = bends[i];
  cuts[n++] = window;
  int found = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double lo = cuts[i], hi = cuts[i + 1];
    const double at_lo = f.slope(lo), at_hi = f.slope(hi);
    if (at_lo == 0) {
      if (lo > 0 && (found == 0 || out[found - 1] != lo)) out[found++] = lo;
      continue;
    }
    if ((at_lo > 0) == (at_hi > 0) || at_hi == 0) continue;  // no change of sign inside
    for (int k = 0; k < 200 && hi - lo > 4 * std::numeric_limits<double>::epsilon() * hi; ++k) {
      const double mid = 0.5 * (lo + hi);
      ((f.slope(mid) > 0) == (at_lo > 0) ? lo : hi) = mid;
    }
    out[found++] = 0.5 * (lo + hi);
  }
  return found;
}

/// The root of f in [lo, hi], where f(lo) > 0 >= f(hi) and f is monotone: Newton steps kept
/// inside the bracket (bisection when a step leaves it), until the bracket is a few ulps.
/// Returns its upper end, where the bounds touch or overlap by a rounding.
double narrow(const Quartic& f, double lo, double hi) {
  double s = 0.5 * (lo + hi);
  for (int i = 0; i < 100 && hi - lo > 4 * std::numeric_limits<double>::epsilon() * hi; ++i) {
    const double v = f.at(s);
    if (v > 0)
      lo = s;
    else
      hi = s;
    const double d = f.slope(s);
    double next = d != 0 ? s - v / d : lo;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (next == s) break;
    s = next;
  }
  return hi;
}

}  // namespace

double first_meeting(const Vec3& d0, const Vec3& d1, double r0, double r1, double r2, double window, bool both_reset,
                     double tolerance) {
  // Apart for the whole window by the triangle inequality: the centres close at most |d1|
  // per unit of time, the radii grow to at most r(window).
  const double gap0 = std::sqrt(dot(d0, d0)), speed = std::sqrt(dot(d1, d1));
  const double reach = r0 + (r1 + r2 * window) * window;
  if (gap0 - speed * window > reach) return infinity;
  // f(s) = |d0 + d1 s|^2 - (r0 + r1 s + r2 s^2)^2.
  // Bounds that overlap now meet now (the real spheres may touch anywhere in the overlap),
  // unless both are their spheres, in contact and not approaching (after a response, at
  // rest, or sliding): then they meet when the bounds overlap by more than the tolerance,
  // as if each were that much smaller (without it, two spheres at rest in contact and
  // pushed together would never be looked at again: a reviewer's case).
  if (dot(d0, d0) <= r0 * r0) {
    if (!both_reset || dot(d0, d1) < 0) return 0;
    r0 -= tolerance;
    if (!(r0 > 0) || dot(d0, d0) < r0 * r0) return infinity;  // deeper than the tolerance: not a state of the scheme
  }
  const Quartic f{{dot(d0, d0) - r0 * r0, 2 * (dot(d0, d1) - r0 * r1), dot(d1, d1) - (r1 * r1 + 2 * r0 * r2),
                   -2 * r1 * r2, -r2 * r2}};
  // Pieces of [0, window] on which f is monotone, at the roots of f'.
  double cuts[5];
  int n = 0;
  cuts[n++] = 0;
  double roots[3];
  const int found = critical_points(f, window, roots);
  for (int i = 0; i < found; ++i) cuts[n++] = roots[i];
  cuts[n++] = window;
  // The first piece on which f falls to zero (f(0) > 0 here).
  bool apart = true;
  for (int i = 1; i < n; ++i) {
    const double next = f.at(cuts[i]);
    if (apart && next <= 0) return narrow(f, cuts[i - 1], cuts[i]);
    if (next > 0) apart = true;
  }
  return infinity;
}

BoundSpheres::BoundSpheres(const Vec3& lo, const Vec3& hi, const std::vector<BoundBall>& balls, TrueMotions& motions,
                           double cell_ratio, double contact_tolerance)
    : lo_(lo), hi_(hi), motions_(&motions), tolerance_(contact_tolerance) {
  if (balls.size() >= wall_event) throw std::invalid_argument("too many spheres");
  if (!(cell_ratio >= 2)) throw std::invalid_argument("cell ratio must be at least 2, got " + std::to_string(cell_ratio));
  double r_min = infinity, r_max = 0;
  for (std::size_t i = 0; i < balls.size(); ++i) {
    const BoundBall& b = balls[i];
    check_ball(i, b.position, b.velocity, b.radius, b.mass, lo, hi);
    if (!(b.max_acceleration >= 0) || !std::isfinite(b.max_acceleration))
      reject(i, "acceleration bound must be finite and non-negative");
    r_min = std::min(r_min, b.radius);
    r_max = std::max(r_max, b.radius);
  }
  if (balls.empty()) return;
  // Levels as the paper's (and kds's CellSides without its floors): L_0 = k 2 r_min, doubling.
  sides_.push_back(cell_ratio * 2 * r_min);
  while (sides_.back() < cell_ratio * 2 * r_max) sides_.push_back(2 * sides_.back());
  spheres_.reserve(balls.size());
  natives_.assign(sides_.size(), 0);
  for (const BoundBall& b : balls) {
    State s{};
    s.x = b.position;
    s.v = b.velocity;
    s.radius = b.radius;
    s.mass = b.mass;
    s.accel = b.max_acceleration;
    s.level = 0;
    while (sides_[static_cast<std::size_t>(s.level)] < cell_ratio * 2 * b.radius) ++s.level;
    s.deadline = s.accel > 0 ? std::sqrt((sides_[static_cast<std::size_t>(s.level)] - 2 * s.radius) / s.accel) : infinity;
    s.region = region_of(s.level, s.x, s.radius);
    ++natives_[static_cast<std::size_t>(s.level)];
    spheres_.push_back(s);
  }
  stamp_.assign(spheres_.size(), 0);
  heap_ = LazyEventHeap(spheres_.size());
  for (std::uint32_t i = 0; i < spheres_.size(); ++i) list(i, true);
  // Overlaps at the start: two spheres that overlap are each other's candidates.
  for (std::uint32_t i = 0; i < spheres_.size(); ++i)
    for_each_candidate(i, [&](std::uint32_t j) {
      const State &a = spheres_[i], &b = spheres_[j];
      const Vec3 d{a.x[0] - b.x[0], a.x[1] - b.x[1], a.x[2] - b.x[2]};
      if (dot(d, d) < (a.radius + b.radius) * (a.radius + b.radius))
        reject(std::min(i, j), "overlaps sphere " + std::to_string(std::max(i, j)));
    });
  for (std::uint32_t i = 0; i < spheres_.size(); ++i) predict_all(i);
}

template <class F>
void BoundSpheres::for_each_candidate(std::uint32_t s, F&& f) {
  const State& p = spheres_[s];
  if (++stamp_now_ == 0) {  // wrapped: clear the stamps
    std::fill(stamp_.begin(), stamp_.end(), 0);
    stamp_now_ = 1;
  }
  stamp_[s] = stamp_now_;
  auto visit = [&](std::uint32_t o) {
    if (stamp_[o] == stamp_now_) return;  // met already in another cell
    stamp_[o] = stamp_now_;
    f(o);
  };
  for (int l = p.level; l < levels(); ++l) {
    if (l > p.level && natives_[static_cast<std::size_t>(l)] == 0) continue;  // no sphere of that size
    const int shift = l - p.level;
    for (std::int32_t i = p.region.lo[0] >> shift; i <= p.region.hi[0] >> shift; ++i)
      for (std::int32_t j = p.region.lo[1] >> shift; j <= p.region.hi[1] >> shift; ++j)
        for (std::int32_t k = p.region.lo[2] >> shift; k <= p.region.hi[2] >> shift; ++k) {
          const Cells::Cell* cell = cells_.find(key(l, i, j, k));
          if (!cell) continue;
          // Every sphere listed at s's own level; only those of each coarser level above it.
          const std::size_t end = l == p.level ? cell->entries.size() : cell->leading;
          for (std::size_t m = 0; m < end; ++m) visit(cell->entries[m]);
        }
  }
}

std::uint64_t BoundSpheres::key(int level, std::int32_t i, std::int32_t j, std::int32_t k) {
  constexpr std::int64_t offset = std::int64_t{1} << 18;  // 19 bits per index
  return (std::uint64_t(level) << 57) | (std::uint64_t(i + offset) << 38) | (std::uint64_t(j + offset) << 19) |
         std::uint64_t(k + offset);
}

BoundSpheres::Region BoundSpheres::region_of(int level, const Vec3& centre, double radius) const {
  // A little margin, so that a bound touching a face counts in both cells: the face events
  // decide from then on.
  const double side = sides_[static_cast<std::size_t>(level)];
  Region r{};
  for (int k = 0; k < 3; ++k) {
    const double m = 1e-12 * (std::fabs(centre[k]) + radius);
    r.lo[k] = static_cast<std::int32_t>(std::floor((centre[k] - radius - m - lo_[k]) / side));
    r.hi[k] = static_cast<std::int32_t>(std::floor((centre[k] + radius + m - lo_[k]) / side));
  }
  return r;
}

void BoundSpheres::list(std::uint32_t s, bool add) {
  const State& p = spheres_[s];
  for (int l = p.level; l < levels(); ++l) {
    const int shift = l - p.level;  // the coarser cells' planes are planes of the finer levels
    for (std::int32_t i = p.region.lo[0] >> shift; i <= p.region.hi[0] >> shift; ++i)
      for (std::int32_t j = p.region.lo[1] >> shift; j <= p.region.hi[1] >> shift; ++j)
        for (std::int32_t k = p.region.lo[2] >> shift; k <= p.region.hi[2] >> shift; ++k) {
          const std::uint64_t at = key(l, i, j, k);
          const bool native = l == p.level;
          if (add) {
            Cells::Cell& cell = cells_[at];
            cell.entries.push_back(s);
            if (native) std::swap(cell.entries[cell.leading++], cell.entries.back());
            continue;
          }
          Cells::Cell& cell = *cells_.find(at);
          std::vector<std::uint32_t>& e = cell.entries;
          const auto first = e.begin() + (native ? 0 : cell.leading), last = native ? e.begin() + cell.leading : e.end();
          auto place = std::find(first, last, s);
          if (native) {  // the last native fills the hole, the last entry fills the last native's place
            *place = e[--cell.leading];
            e[cell.leading] = e.back();
          } else {
            *place = e.back();
          }
          e.pop_back();
          if (e.empty()) cells_.erase(at);
        }
  }
}

void BoundSpheres::push(const Event& e) {
  heap_.push(e, counter_of());
  ++counters_.predicted;
}

Vec3 BoundSpheres::centre(const State& p, double t) const {
  const double h = t - p.t0;
  return {p.x[0] + p.v[0] * h, p.x[1] + p.v[1] * h, p.x[2] + p.v[2] * h};
}

double BoundSpheres::bound_radius(const State& p, double t) const {
  const double h = t - p.t0;
  return p.radius + 0.5 * p.accel * h * h;
}

void BoundSpheres::predict_pair(std::uint32_t a, std::uint32_t b) {
  ++counters_.pair_tests;
  if (a > b) std::swap(a, b);  // simultaneous events go by the smaller index first
  const State& p = spheres_[a];
  const State& q = spheres_[b];
  const double window = std::min(p.limit, q.limit) - now_;
  if (!(window > 0)) return;
  const Vec3 ca = centre(p, now_), cb = centre(q, now_);
  const Vec3 d0{cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]};
  const Vec3 d1{q.v[0] - p.v[0], q.v[1] - p.v[1], q.v[2] - p.v[2]};
  // R(s) = r_a + A_a/2 (h_a + s)^2 + r_b + A_b/2 (h_b + s)^2, h = now - t0.
  const double ha = now_ - p.t0, hb = now_ - q.t0;
  const double r0 = bound_radius(p, now_) + bound_radius(q, now_), r1 = p.accel * ha + q.accel * hb,
               r2 = 0.5 * (p.accel + q.accel);
  const double s = first_meeting(d0, d1, r0, r1, r2, window, ha == 0 && hb == 0, tolerance_);
  if (s == infinity) return;
  ++counters_.quartics;
  push(Event{now_ + s, a, b, p.counter, q.counter});
}

void BoundSpheres::predict_neighbours(std::uint32_t s) {
  for_each_candidate(s, [&](std::uint32_t o) { predict_pair(s, o); });
}

void BoundSpheres::predict_all(std::uint32_t s) {
  State& p = spheres_[s];
  const double h = now_ - p.t0;
  const Vec3 c = centre(p, now_);
  const double rad = bound_radius(p, now_);
  p.limit = p.deadline;
  if (p.deadline < infinity) push(Event{p.deadline, s, deadline_event, p.counter, 0});
  // The bound reaches a wall: c_k + v_k s +/- (R + A h s + A/2 s^2) = wall. As the
  // distance g(s) = gap - (+/-v_k) s - (A h s + A/2 s^2), convex in -g: the first s >= 0
  // at which the bound reaches the plane moving into it (at 0 if it is there already and
  // moving in; else the larger root of q(s) = alpha s^2 + beta s + gamma).
  for (int w = 0; w < 6; ++w) {
    const int k = w / 2;
    const bool up = w % 2 == 1;
    const double alpha = 0.5 * p.accel, beta = (up ? p.v[k] : -p.v[k]) + p.accel * h;
    const double gamma = up ? c[k] + rad - hi_[k] : lo_[k] - (c[k] - rad);
    double t = infinity;
    if (gamma >= 0 && beta > 0) {
      t = 0;
    } else if (gamma >= 0) {
      // At the wall (or over it by a rounding) and not moving in: when the bound has pushed
      // the tolerance further (else a sphere at rest against a wall would stall the code,
      // or, its bound moving out too slowly, never be looked at again: a reviewer's cases).
      t = crossing(alpha, beta, -tolerance_, +1);
    } else if (alpha > 0) {
      const double disc = beta * beta - 4 * alpha * gamma;
      if (disc >= 0) t = beta > 0 ? -2 * gamma / (beta + std::sqrt(disc)) : (-beta + std::sqrt(disc)) / (2 * alpha);
    } else if (beta > 0) {
      t = -gamma / beta;
    }
    if (t < infinity) {
      p.limit = std::min(p.limit, now_ + t);
      push(Event{now_ + t, s, wall_event + static_cast<std::uint32_t>(w), p.counter, 0});
    }
  }
  // The region changes (eq. 7): the bound's extent c +/- R on an axis reaches the next
  // face out (entering), or drops off a face it straddles (leaving). Only the earliest of
  // the twelve faces is pushed: the others are predicted again after it.
  const double side = sides_[static_cast<std::size_t>(p.level)];
  const double R1 = p.accel * h, R2 = 0.5 * p.accel;
  double first = infinity;
  std::uint32_t which = 0;
  for (int k = 0; k < 3; ++k) {
    const double below = lo_[k] + side * p.region.lo[k], above = lo_[k] + side * (p.region.hi[k] + 1);
    // c + R - plane = (c + R - plane) + (v + R1) s + R2 s^2, c - R - plane = ... - R2 s^2.
    const double up[4] = {crossing(-R2, p.v[k] - R1, c[k] - rad - below, -1),  // entering below
                          crossing(R2, p.v[k] + R1, c[k] + rad - above, +1),   // entering above
                          p.region.hi[k] > p.region.lo[k] ? crossing(-R2, p.v[k] - R1, c[k] - rad - (below + side), +1)
                                                          : infinity,  // leaving the lowest cell
                          p.region.hi[k] > p.region.lo[k] ? crossing(R2, p.v[k] + R1, c[k] + rad - (above - side), -1)
                                                          : infinity};  // leaving the highest cell
    for (int f = 0; f < 4; ++f)
      if (up[f] < first) {
        first = up[f];
        which = static_cast<std::uint32_t>(4 * k + f);
      }
  }
  if (first < infinity) {
    p.limit = std::min(p.limit, now_ + first);
    push(Event{now_ + first, s, crossing_event + which, p.counter, 0});
  }
  predict_neighbours(s);
}

void BoundSpheres::reset(std::uint32_t s, const Vec3& x, const Vec3& v) {
  State& p = spheres_[s];
  list(s, false);
  p.x = x;
  p.v = v;
  p.t0 = now_;
  p.deadline = p.accel > 0 ? now_ + std::sqrt((sides_[static_cast<std::size_t>(p.level)] - 2 * p.radius) / p.accel) : infinity;
  p.region = region_of(p.level, x, p.radius);
  ++p.counter;
  list(s, true);
}

bool BoundSpheres::step() {
  Event e;
  if (!heap_.pop(e, counter_of(), counters_.stale_events)) return false;
  // A degenerate scene (a sphere exactly touching a wall or another at rest) can make a
  // plain code like this one repeat an event at one instant: stop instead of hanging.
  same_instant_ = e.time == now_ ? same_instant_ + 1 : 0;
  if (same_instant_ > 100 * spheres_.size() + 1000)
    throw std::runtime_error("BoundSpheres: stalled at t = " + std::to_string(now_));
  now_ = e.time;
  if (e.other < wall_event)
    meet(e);
  else if (e.other < crossing_event)
    reach_wall(e);
  else if (e.other < deadline_event)
    change_region(e);
  else
    fill(e);
  return true;
}

void BoundSpheres::meet(const Event& e) {
  ++counters_.bound_meetings;
  Vec3 xa, va, xb, vb;
  motions_->state(e.a, now_, xa, va);
  motions_->state(e.other, now_, xb, vb);
  const State &a = spheres_[e.a], &b = spheres_[e.other];
  Vec3 n{xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
  const double length = std::sqrt(dot(n, n));
  for (double& c : n) c /= length;
  const double approach = dot({va[0] - vb[0], va[1] - vb[1], va[2] - vb[2]}, n);
  if (length - a.radius - b.radius <= tolerance_ && approach > 0) {
    // The elastic impulse along the line of centres, with masses.
    const double p = 2 * approach / (a.mass + b.mass);
    for (int k = 0; k < 3; ++k) {
      va[k] -= p * b.mass * n[k];
      vb[k] += p * a.mass * n[k];
    }
    motions_->set_velocity(e.a, now_, va);
    motions_->set_velocity(e.other, now_, vb);
    ++counters_.sphere_contacts;
    if (log_ != nullptr) log_->push_back(BallContact{now_, e.a, e.other, false, 0});
  }
  reset(e.a, xa, va);
  reset(e.other, xb, vb);
  predict_all(e.a);
  predict_all(e.other);
}

void BoundSpheres::reach_wall(const Event& e) {
  ++counters_.wall_reaches;
  Vec3 x, v;
  motions_->state(e.a, now_, x, v);
  const int w = static_cast<int>(e.other - wall_event), k = w / 2;
  const bool up = w % 2 == 1;
  const double r = spheres_[e.a].radius;
  const double gap = up ? hi_[k] - (x[k] + r) : (x[k] - r) - lo_[k];
  if (gap <= tolerance_ && (up ? v[k] > 0 : v[k] < 0)) {
    v[k] = -v[k];
    motions_->set_velocity(e.a, now_, v);
    ++counters_.wall_contacts;
    if (log_ != nullptr) log_->push_back(BallContact{now_, e.a, 0, true, w});
  }
  reset(e.a, x, v);
  predict_all(e.a);
}

void BoundSpheres::fill(const Event& e) {
  ++counters_.deadlines;
  Vec3 x, v;
  motions_->state(e.a, now_, x, v);
  reset(e.a, x, v);
  predict_all(e.a);
}

void BoundSpheres::change_region(const Event& e) {
  ++counters_.region_changes;
  const int face = static_cast<int>(e.other - crossing_event), k = face / 4;
  Region& r = spheres_[e.a].region;
  list(e.a, false);
  switch (face % 4) {
    case 0: --r.lo[k]; break;  // entering below
    case 1: ++r.hi[k]; break;  // entering above
    case 2: ++r.lo[k]; break;  // leaving the lowest cell
    default: --r.hi[k]; break;  // leaving the highest cell
  }
  list(e.a, true);
  ++spheres_[e.a].counter;
  predict_all(e.a);
}

}  // namespace kds::baseline
