#include "structures/collision/baseline/frame_baseline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "kds/errors.hpp"
#include "structures/collision/baseline/swept_sphere.hpp"
#include "structures/collision/io/validate_spheres.hpp"
#include "structures/collision/response.hpp"

namespace kds {
namespace {

using CellKey = std::array<std::int64_t, 3>;

struct SweptBox {
  Vec<3> lo, hi;
};

/// The box around the sphere's path x + v s + g/2 s^2, s in [0, dt]: per axis the
/// extremes are at the ends or at the parabola's vertex.
SweptBox swept_box(const SphereState& s, double r, const Vec<3>& g, double dt) {
  SweptBox b;
  for (int k = 0; k < 3; ++k) {
    const double x0 = s.position[k], x1 = x0 + s.velocity[k] * dt + 0.5 * g[k] * dt * dt;
    double lo = std::min(x0, x1), hi = std::max(x0, x1);
    if (g[k] != 0) {
      const double tv = -s.velocity[k] / g[k];
      if (tv > 0 && tv < dt) {
        const double xv = x0 + s.velocity[k] * tv + 0.5 * g[k] * tv * tv;
        lo = std::min(lo, xv);
        hi = std::max(hi, xv);
      }
    }
    b.lo[k] = lo - r;
    b.hi[k] = hi + r;
  }
  return b;
}

std::int64_t cell_of(double x, double origin, double cell) {
  constexpr double limit = 4.0e18;
  return static_cast<std::int64_t>(std::clamp(std::floor((x - origin) / cell), -limit, limit));
}

}  // namespace

FrameBaseline::FrameBaseline(const FrameBaselineSettings& settings, const std::vector<Sphere>& spheres)
    : settings_(settings), spheres_(spheres) {
  if (!(settings.dt > 0) || !std::isfinite(settings.dt)) throw InvalidInput("frame baseline: dt must be positive and finite");
  if (!(settings.cell_size >= 0) || !std::isfinite(settings.cell_size))
    throw InvalidInput("frame baseline: cell_size must be >= 0 and finite");
  if (!(settings.restitution >= 0 && settings.restitution <= 1))
    throw InvalidInput("frame baseline: restitution must be in [0, 1]");
  for (double g : settings.gravity)
    if (!std::isfinite(g)) throw InvalidInput("frame baseline: gravity must be finite");
  validate_spheres(spheres, settings.box);
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    if (spheres[i].max_acceleration != 0)
      throw InvalidInput("sphere " + std::to_string(i) +
                         ", max_acceleration: the frame baseline moves ballistic spheres only (must be 0)");
    state_.push_back({spheres[i].position, spheres[i].velocity});
  }
}

SphereState FrameBaseline::at(SphereId i, double s) const {
  SphereState out;
  for (int k = 0; k < 3; ++k) {
    const double g = settings_.gravity[k];
    out.position[k] = state_[i].position[k] + state_[i].velocity[k] * s + 0.5 * g * s * s;
    out.velocity[k] = state_[i].velocity[k] + g * s;
  }
  return out;
}

SphereState FrameBaseline::fly(const SphereState& from, double s) const {
  const double rest = settings_.dt - s;
  SphereState out;
  for (int k = 0; k < 3; ++k) {
    const double g = settings_.gravity[k];
    out.position[k] = from.position[k] + from.velocity[k] * rest + 0.5 * g * rest * rest;
    out.velocity[k] = from.velocity[k] + g * rest;
  }
  return out;
}

void FrameBaseline::find_pair_events(std::vector<Event>& events) {
  const double dt = settings_.dt;
  const std::size_t n = spheres_.size();
  std::vector<SweptBox> boxes(n);
  double cell = settings_.cell_size;
  double widest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    boxes[i] = swept_box(state_[i], spheres_[i].radius, settings_.gravity, dt);
    for (int k = 0; k < 3; ++k) widest = std::max(widest, boxes[i].hi[k] - boxes[i].lo[k]);
  }
  if (cell == 0) cell = widest;
  if (!(cell > 0)) return;
  const Vec<3>& origin = settings_.box.lo;

  struct Entry {
    CellKey key;
    SphereId sphere;
  };
  std::vector<Entry> entries;
  entries.reserve(8 * n);
  for (SphereId i = 0; i < n; ++i) {
    CellKey a, b;
    for (int k = 0; k < 3; ++k) {
      a[k] = cell_of(boxes[i].lo[k], origin[k], cell);
      b[k] = cell_of(boxes[i].hi[k], origin[k], cell);
    }
    for (std::int64_t x = a[0]; x <= b[0]; ++x)
      for (std::int64_t y = a[1]; y <= b[1]; ++y)
        for (std::int64_t z = a[2]; z <= b[2]; ++z) entries.push_back({{x, y, z}, i});
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& p, const Entry& q) { return p.key != q.key ? p.key < q.key : p.sphere < q.sphere; });

  for (std::size_t begin = 0; begin < entries.size();) {
    std::size_t end = begin;
    while (end < entries.size() && entries[end].key == entries[begin].key) ++end;
    for (std::size_t u = begin; u < end; ++u)
      for (std::size_t w = u + 1; w < end; ++w) {
        const SphereId i = entries[u].sphere, j = entries[w].sphere;
        const SweptBox &bi = boxes[i], &bj = boxes[j];
        bool overlap = true;
        CellKey home;
        for (int k = 0; k < 3; ++k) {
          overlap = overlap && bi.lo[k] <= bj.hi[k] && bj.lo[k] <= bi.hi[k];
          home[k] = cell_of(std::max(bi.lo[k], bj.lo[k]), origin[k], cell);
        }
        if (!overlap || home != entries[begin].key) continue;
        ++counters_.candidate_pairs;
        // Same gravity on both: the relative motion is linear.
        Vec<3> p, v;
        for (int k = 0; k < 3; ++k) {
          p[k] = state_[j].position[k] - state_[i].position[k];
          v[k] = state_[j].velocity[k] - state_[i].velocity[k];
        }
        if (auto s = swept_sphere_contact(p, v, spheres_[i].radius + spheres_[j].radius, dt))
          events.push_back({*s, i, j, false});
      }
    begin = end;
  }
}

void FrameBaseline::find_wall_events(std::vector<Event>& events) const {
  for (SphereId i = 0; i < spheres_.size(); ++i) {
    std::optional<double> first;
    int first_wall = 0;
    for (int w = 0; w < 6; ++w) {
      const int k = w / 2;
      const bool low = w % 2 == 0;
      const double plane = low ? settings_.box.lo[k] : settings_.box.hi[k];
      const auto s = wall_contact(state_[i].position[k], state_[i].velocity[k], settings_.gravity[k], spheres_[i].radius,
                                  plane, low, settings_.dt);
      if (s && (!first || *s < *first)) {
        first = s;
        first_wall = w;
      }
    }
    if (first) events.push_back({*first, i, static_cast<SphereId>(first_wall), true});
  }
}

void FrameBaseline::step() {
  std::vector<Event> events;
  find_pair_events(events);
  find_wall_events(events);
  std::sort(events.begin(), events.end(), [](const Event& p, const Event& q) {
    if (p.time != q.time) return p.time < q.time;
    if (p.a != q.a) return p.a < q.a;
    if (p.with_wall != q.with_wall) return !p.with_wall;
    return p.b < q.b;
  });

  const double start = time();
  std::vector<SphereState> next(spheres_.size());
  std::vector<bool> busy(spheres_.size(), false);
  for (const Event& e : events) {
    if (busy[e.a] || (!e.with_wall && busy[e.b])) {
      ++counters_.dropped;
      continue;
    }
    Contact c;
    c.time = start + e.time;
    c.a = e.a;
    SphereState sa = at(e.a, e.time);
    if (e.with_wall) {
      c.with_wall = true;
      c.wall = static_cast<Wall>(e.b);
      sa.velocity = wall_response(c.wall, sa.velocity, settings_.restitution);
      ++counters_.wall_contacts;
    } else {
      c.b = e.b;
      SphereState sb = at(e.b, e.time);
      const auto [va, vb] = collision_response(sa.position, sa.velocity, spheres_[e.a].mass, sb.position, sb.velocity,
                                               spheres_[e.b].mass, settings_.restitution);
      sa.velocity = va;
      sb.velocity = vb;
      next[e.b] = fly(sb, e.time);
      busy[e.b] = true;
      ++counters_.sphere_contacts;
    }
    next[e.a] = fly(sa, e.time);
    busy[e.a] = true;
    contacts_.push_back(c);
  }
  for (SphereId i = 0; i < spheres_.size(); ++i)
    if (!busy[i]) next[i] = at(i, settings_.dt);
  state_ = std::move(next);
  ++counters_.frames;
}

void FrameBaseline::run_until(double t) {
  while (time() < t) step();
}

}  // namespace kds
