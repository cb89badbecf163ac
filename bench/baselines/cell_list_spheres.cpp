#include "bench/baselines/cell_list_spheres.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "bench/baselines/input_checks.hpp"

namespace kds::baseline {

CellListSpheres::CellListSpheres(const Vec3& lo, const Vec3& hi, const std::vector<Ball>& balls) : lo_(lo), hi_(hi) {
  if (balls.size() >= wall_event) throw std::invalid_argument("too many spheres");
  double largest = 0;
  for (std::size_t i = 0; i < balls.size(); ++i) {
    const Ball& b = balls[i];
    check_ball(i, b.position, b.velocity, b.radius, b.mass, lo, hi);
    largest = std::max(largest, 2 * b.radius);
  }
  // Cells at least one largest diameter wide (with a margin for rounding), so that spheres
  // in contact are always in the same or adjacent cells.
  for (int k = 0; k < 3; ++k) {
    const double extent = hi[k] - lo[k];
    cells_[k] =
        largest > 0 ? std::max(1, static_cast<int>(std::min(1024.0, std::floor(extent / (largest * (1 + 1e-9)))))) : 1;
    cell_side_[k] = extent / cells_[k];
  }
  head_.assign(static_cast<std::size_t>(cells_[0]) * cells_[1] * cells_[2], -1);
  heap_ = LazyEventHeap(balls.size());
  next_.assign(balls.size(), -1);
  prev_.assign(balls.size(), -1);
  spheres_.reserve(balls.size());
  for (const Ball& b : balls)
    spheres_.push_back(State{b.position, b.velocity, 0, b.radius, b.mass, INFINITY, INFINITY, 0, 0});
  for (std::uint32_t i = 0; i < spheres_.size(); ++i) {
    std::array<int, 3> c{};
    for (int k = 0; k < 3; ++k)
      c[k] = std::clamp(static_cast<int>((spheres_[i].x[k] - lo_[k]) / cell_side_[k]), 0, cells_[k] - 1);
    insert_in_cell(i, cell_index(c[0], c[1], c[2]));
  }
  // The first events: walls and crossings (which bound the pairs' predictions), then each
  // pair once, checking for overlaps.
  for (std::uint32_t i = 0; i < spheres_.size(); ++i) {
    predict_wall(i);
    predict_crossing(i);
  }
  for (std::uint32_t i = 0; i < spheres_.size(); ++i) {
    const std::array<int, 3> c = cell_coords(spheres_[i].cell);
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          const int x = c[0] + dx, y = c[1] + dy, z = c[2] + dz;
          if (x < 0 || y < 0 || z < 0 || x >= cells_[0] || y >= cells_[1] || z >= cells_[2]) continue;
          for (std::int32_t j = head_[cell_index(x, y, z)]; j >= 0; j = next_[j]) {
            if (static_cast<std::uint32_t>(j) <= i) continue;
            Vec3 d{};
            for (int k = 0; k < 3; ++k) d[k] = spheres_[i].x[k] - spheres_[j].x[k];
            const double sigma = spheres_[i].radius + spheres_[j].radius;
            if (dot(d, d) < sigma * sigma) reject(i, "overlaps sphere " + std::to_string(j));
            predict_pair(i, static_cast<std::uint32_t>(j));
          }
        }
  }
}

std::array<int, 3> CellListSpheres::cell_coords(std::uint32_t cell) const {
  const int c = static_cast<int>(cell);
  return {c % cells_[0], (c / cells_[0]) % cells_[1], c / (cells_[0] * cells_[1])};
}

std::uint32_t CellListSpheres::cell_index(int i, int j, int k) const {
  return static_cast<std::uint32_t>(i + cells_[0] * (j + cells_[1] * k));
}

void CellListSpheres::insert_in_cell(std::uint32_t s, std::uint32_t cell) {
  spheres_[s].cell = cell;
  prev_[s] = -1;
  next_[s] = head_[cell];
  if (head_[cell] >= 0) prev_[head_[cell]] = static_cast<std::int32_t>(s);
  head_[cell] = static_cast<std::int32_t>(s);
}

void CellListSpheres::remove_from_cell(std::uint32_t s) {
  if (prev_[s] >= 0)
    next_[prev_[s]] = next_[s];
  else
    head_[spheres_[s].cell] = next_[s];
  if (next_[s] >= 0) prev_[next_[s]] = prev_[s];
}

Vec3 CellListSpheres::position(std::uint32_t i, double t) const {
  const State& s = spheres_[i];
  return {s.x[0] + s.v[0] * (t - s.t), s.x[1] + s.v[1] * (t - s.t), s.x[2] + s.v[2] * (t - s.t)};
}

double CellListSpheres::kinetic_energy() const {
  double e = 0;
  for (const State& s : spheres_) e += 0.5 * s.mass * dot(s.v, s.v);
  return e;
}

void CellListSpheres::push(const Event& e) {
  heap_.push(e, counter_of());
  ++counters_.predicted;
}

void CellListSpheres::predict_pair(std::uint32_t a, std::uint32_t b) {
  ++counters_.pair_tests;
  if (a > b) std::swap(a, b);  // simultaneous events go by the smaller index first, as in kds
  const State& p = spheres_[a];
  const State& q = spheres_[b];
  const Vec3 pa = position(a, now_), pb = position(b, now_);
  const Vec3 d{pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]};
  const Vec3 w{p.v[0] - q.v[0], p.v[1] - q.v[1], p.v[2] - q.v[2]};
  const double approach = dot(d, w);
  if (approach >= 0) return;  // moving apart: no contact ahead
  const double sigma = p.radius + q.radius;
  const double c = dot(d, d) - sigma * sigma;
  const double w2 = dot(w, w);
  const double disc = approach * approach - w2 * c;
  if (disc < 0) return;  // they pass each other
  // The smaller root of w2 t^2 + 2 approach t + c, in the form without cancellation; a
  // pair already touching (c <= 0 by rounding) collides now.
  const double t = now_ + (c <= 0 ? 0 : c / (-approach + std::sqrt(disc)));
  // Later than a wall or a cell crossing of either sphere: predicted again by then.
  if (t >= std::min(std::min(p.wall_time, p.crossing_time), std::min(q.wall_time, q.crossing_time))) return;
  push(Event{t, a, b, p.counter, q.counter});
}

void CellListSpheres::predict_neighbours(std::uint32_t s) {
  const std::array<int, 3> c = cell_coords(spheres_[s].cell);
  for (int x = std::max(0, c[0] - 1); x <= std::min(cells_[0] - 1, c[0] + 1); ++x)
    for (int y = std::max(0, c[1] - 1); y <= std::min(cells_[1] - 1, c[1] + 1); ++y)
      for (int z = std::max(0, c[2] - 1); z <= std::min(cells_[2] - 1, c[2] + 1); ++z)
        for (std::int32_t j = head_[cell_index(x, y, z)]; j >= 0; j = next_[j])
          if (static_cast<std::uint32_t>(j) != s) predict_pair(s, static_cast<std::uint32_t>(j));
}

template <class Plane>
double CellListSpheres::first_plane(const State& p, Plane plane, std::uint32_t& which) {
  double best = INFINITY;
  for (int k = 0; k < 3; ++k) {
    if (p.v[k] == 0) continue;
    const bool up = p.v[k] > 0;
    const double t = p.t + (plane(k, up) - p.x[k]) / p.v[k];  // NaN (no plane) never wins
    if (t < best) {
      best = t;
      which = static_cast<std::uint32_t>(2 * k + (up ? 1 : 0));
    }
  }
  return best;
}

void CellListSpheres::predict_wall(std::uint32_t s) {
  State& p = spheres_[s];
  std::uint32_t wall = 0;
  const double t = first_plane(
      p, [&](int k, bool up) { return up ? hi_[k] - p.radius : lo_[k] + p.radius; }, wall);
  p.wall_time = std::max(t, now_);
  if (t < INFINITY) push(Event{p.wall_time, s, wall_event + wall, p.counter, 0});
}

void CellListSpheres::predict_crossing(std::uint32_t s) {
  State& p = spheres_[s];
  const std::array<int, 3> c = cell_coords(p.cell);
  std::uint32_t face = 0;
  const double t = first_plane(
      p,
      [&](int k, bool up) {
        if ((up && c[k] == cells_[k] - 1) || (!up && c[k] == 0))
          return double{NAN};  // the last cell: a wall comes first
        return lo_[k] + cell_side_[k] * (c[k] + (up ? 1 : 0));
      },
      face);
  p.crossing_time = std::max(t, now_);
  if (t < INFINITY) push(Event{p.crossing_time, s, crossing_event + face, p.counter, 0});
}

void CellListSpheres::predict_all(std::uint32_t s) {
  predict_wall(s);
  predict_crossing(s);
  predict_neighbours(s);
}

void CellListSpheres::advance(State& s) const {
  for (int k = 0; k < 3; ++k) s.x[k] += s.v[k] * (now_ - s.t);
  s.t = now_;
}

bool CellListSpheres::step() {
  Event e;
  if (!heap_.pop(e, counter_of(), counters_.stale_events)) return false;
  now_ = e.time;
  if (e.other < wall_event)
    collide(e);
  else if (e.other < crossing_event)
    bounce(e);
  else
    cross(e);
  return true;
}

void CellListSpheres::collide(const Event& e) {
  State& a = spheres_[e.a];
  State& b = spheres_[e.other];
  advance(a);
  advance(b);
  // The elastic impulse along the line of centres, with masses.
  Vec3 n{b.x[0] - a.x[0], b.x[1] - a.x[1], b.x[2] - a.x[2]};
  const double length = std::sqrt(dot(n, n));
  for (double& c : n) c /= length;
  const Vec3 w{a.v[0] - b.v[0], a.v[1] - b.v[1], a.v[2] - b.v[2]};
  const double approach = dot(w, n);
  if (approach > 0) {
    const double p = 2 * approach / (a.mass + b.mass);
    for (int k = 0; k < 3; ++k) {
      a.v[k] -= p * b.mass * n[k];
      b.v[k] += p * a.mass * n[k];
    }
  }
  ++a.counter;
  ++b.counter;
  ++counters_.sphere_collisions;
  if (log_ != nullptr) log_->push_back(BallContact{now_, e.a, e.other, false, 0});
  predict_all(e.a);
  predict_all(e.other);
}

void CellListSpheres::bounce(const Event& e) {
  State& s = spheres_[e.a];
  advance(s);
  const int wall = static_cast<int>(e.other - wall_event);
  s.v[static_cast<std::size_t>(wall / 2)] *= -1;
  ++s.counter;
  ++counters_.wall_collisions;
  if (log_ != nullptr) log_->push_back(BallContact{now_, e.a, 0, true, wall});
  predict_all(e.a);
}

void CellListSpheres::cross(const Event& e) {
  const int face = static_cast<int>(e.other - crossing_event);
  const int axis = face / 2, direction = face % 2 == 1 ? 1 : -1;
  std::array<int, 3> c = cell_coords(spheres_[e.a].cell);
  c[static_cast<std::size_t>(axis)] += direction;
  remove_from_cell(e.a);
  insert_in_cell(e.a, cell_index(c[0], c[1], c[2]));
  ++counters_.cell_crossings;
  // Every neighbour again: the cells that just came into the neighbourhood, and the
  // collisions not pushed because they came after this crossing.
  predict_crossing(e.a);
  predict_neighbours(e.a);
}

}  // namespace kds::baseline
