#include "structures/tvb_grid/tvb_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kds/errors.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/collision/tie_keys.hpp"

namespace kds {
namespace {

constexpr const char* kEntering = "entering";
constexpr const char* kLeaving = "leaving";

}  // namespace

TvbGrid::~TvbGrid() {
  if (sim_ == nullptr) return;
  for (SphereId i = 0; i < spheres_.size(); ++i) destroy_faces(i);
}

void TvbGrid::start(CollisionWorld& world) {
  world_ = &world;
  sim_ = &world.simulator();
  spheres_.resize(world.size());
  stamp_.assign(world.size(), 0);
  if (world.size() == 0) return;
  const CellSides& sides = world.cell_sides();
  const Box3& box = world.box();
  // Shift the grid off the box by an irrational-looking fraction of a cell, so that no
  // cell face coincides with a wall (equal failure times would need exact comparisons).
  Vec<3> origin;
  for (int k = 0; k < 3; ++k) origin[k] = box.lo[k] - 0.3819660112501051 * sides.side(0);
  grid_ = std::make_unique<HierarchicalGrid>(sides.side(0), sides.levels(), origin);
  for (SphereId i = 0; i < spheres_.size(); ++i) {
    Record& r = spheres_[i];
    r.level = world.level(i);
    r.cells = region_now(i);
    grid_->insert(i, r.level, r.cells);
  }
  for (SphereId i = 0; i < spheres_.size(); ++i) create_faces(i);
}

CellRange TvbGrid::region_now(SphereId id) const {
  const Bound& b = world_->bound(id);
  const double t = sim_->now().hi();
  const Vec<3> c = world_->centre_motion(id).position(t);
  const double rad = b.radius_at(t);
  // A little margin so that a bound touching a face counts in both cells: the face
  // certificates decide membership from then on, exactly.
  Vec<3> lo, hi;
  for (int k = 0; k < 3; ++k) {
    const double m = 1e-12 * (std::fabs(c[k]) + rad);
    lo[k] = c[k] - rad - m;
    hi[k] = c[k] + rad + m;
  }
  return grid_->cells_of(spheres_[id].level, lo, hi);
}

void TvbGrid::move(SphereId id, const CellRange& cells) {
  Record& r = spheres_[id];
  if (cells == r.cells) return;
  grid_->move(id, r.level, r.cells, cells);
  r.cells = cells;
}

void TvbGrid::bound_will_reset(SphereId id) {
  // A bound restarting inside the old one reaches every face out later than the old one
  // did: its "entering" certificates that are idle or deferred stay (Simulator::keep; the
  // world keeps its deadline, their horizon). A "leaving" certificate proves the bound
  // still reaches past a face, which a smaller bound may not: those go, as do all faces
  // of any other reset.
  const bool inside = world_->restarting_inside(id);
  for (std::size_t i = 0; i < spheres_[id].faces.size(); ++i) {
    FaceCertificate*& c = spheres_[id].faces[i];
    if (c == nullptr) continue;
    if (inside && c->reach() < 0 && sim_->keep(c)) continue;
    sim_->destroy(c);
    c = nullptr;
  }
}

void TvbGrid::bound_was_reset(SphereId id) {
  const CellRange cells = region_now(id);
  // A region that shrank: its kept faces belong to the old region's planes.
  spheres_[id].region_kept = cells == spheres_[id].cells;
  if (!spheres_[id].region_kept) destroy_faces(id);
  move(id, cells);
  create_faces(id);
}

void TvbGrid::candidates(SphereId id, std::vector<SphereId>& out) {
  if (stamp_now_ == std::numeric_limits<std::uint32_t>::max()) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    stamp_now_ = 0;
  }
  const std::uint32_t seen = ++stamp_now_;
  const Record& r = spheres_[id];
  grid_->for_each_candidate(r.level, r.cells, [&](std::uint32_t j) {
    if (j == id || stamp_[j] == seen) return;
    stamp_[j] = seen;
    if (grid_->regions_overlap(r.level, r.cells, spheres_[j].level, spheres_[j].cells)) out.push_back(j);
  });
}

bool TvbGrid::may_reach_wall(SphereId id, Wall w) const {
  // The bound lies within its cells: it cannot reach a wall its cells do not reach
  // before an entering event changes them.
  const Record& r = spheres_[id];
  const int k = wall_axis(w);
  const Box3& box = world_->box();
  return wall_is_low(w) ? grid_->plane(r.level, k, r.cells.lo[k]) <= box.lo[k]
                        : grid_->plane(r.level, k, r.cells.hi[k] + 1) >= box.hi[k];
}

void TvbGrid::create_faces(SphereId id, const FaceCertificate* crossed, int axis) {
  Record& r = spheres_[id];
  const double horizon = world_->horizon(id);
  for (int k = 0; k < 3; ++k) {
    if (axis >= 0 && k != axis) continue;
    const std::int32_t lo = r.cells.lo[k], hi = r.cells.hi[k];
    auto make = [&](double plane, int side, int reach, const char* kind, int code) {
      if (r.faces[code - 1] != nullptr) return;  // kept through a restart (bound_will_reset)
      const bool negation = crossed != nullptr && crossed->axis() == k && crossed->plane() == plane &&
                            crossed->side() == -side && crossed->reach() == -reach;
      const auto key = tie_key::bookkeeping(id, static_cast<std::uint8_t>(code));
      FaceCertificate* c =
          negation ? sim_->create_vanishing_now<FaceCertificate>(*this, world_->body(id), k, plane, side, kind, key, reach)
                   : sim_->create<FaceCertificate>(*this, world_->body(id), k, plane, side, kind, key, reach);
      c->set_horizon(horizon);
      r.faces[code - 1] = c;
    };
    make(grid_->plane(r.level, k, hi + 1), -1, -1, kEntering, 1 + 4 * k);  // the top reaches the next cell up
    make(grid_->plane(r.level, k, lo), +1, -1, kEntering, 2 + 4 * k);      // the bottom reaches the next cell down
    if (hi > lo) {
      make(grid_->plane(r.level, k, hi), +1, +1, kLeaving, 3 + 4 * k);  // the top drops out of the upper cell
      make(grid_->plane(r.level, k, hi), -1, +1, kLeaving, 4 + 4 * k);  // the bottom rises out of the lower cell
    }
  }
}

void TvbGrid::destroy_faces(SphereId id) {
  for (FaceCertificate*& c : spheres_[id].faces)
    if (c != nullptr) {
      sim_->destroy(c);
      c = nullptr;
    }
}

void TvbGrid::plane_crossed(FaceCertificate& cert, Simulator&) {
  const SphereId id = world_->sphere_of(cert.sphere());
  // The region grows or shrinks by one cell on one side of one axis.
  const int k = cert.axis();
  CellRange cells = spheres_[id].cells;
  if (cert.reach() < 0) {
    if (cert.side() < 0) ++cells.hi[k];
    else --cells.lo[k];
  } else {
    if (cert.side() > 0) --cells.hi[k];
    else ++cells.lo[k];
  }
  move(id, cells);
  // Only axis k's faces change: the bound and the region on the other axes are the same,
  // so their certificates (same functions, same tie keys) stay, and so do their failure
  // times; recomputing them was two thirds of the face work of an entering or leaving
  // event. New faces first: the replacement of `cert` reads it.
  std::array<FaceCertificate*, 4> old{};
  for (int j = 0; j < 4; ++j) std::swap(old[j], spheres_[id].faces[4 * k + j]);
  create_faces(id, &cert, k);
  for (FaceCertificate* c : old)
    if (c != nullptr) sim_->destroy(c);
  world_->candidates_changed(id);
}

void TvbGrid::audit(const AuditContext& ctx) const {
  // The world's pairs are exactly the candidates (regions that overlap): the restart that
  // keeps the candidates without asking (candidates_kept) relies on it, and nothing else
  // would notice an extra pair, or a missing one whose bounds do not meet yet. O(n^2).
  for (SphereId i = 0; i < spheres_.size(); ++i)
    for (SphereId j = i + 1; j < spheres_.size(); ++j) {
      const bool overlap = grid_->regions_overlap(spheres_[i].level, spheres_[i].cells, spheres_[j].level, spheres_[j].cells);
      const bool paired = world_->pair_certificate(i, j) != nullptr || world_->facet_certificate(i, j) != nullptr;
      if (overlap != paired)
        throw AuditFailure("tvb-grid: at t = " + text::shortest(ctx.time) + " spheres " + std::to_string(i) + " and " +
                           std::to_string(j) + (overlap ? " are candidates without a pair certificate"
                                                        : " have a pair certificate but are not candidates"));
    }
  const Rational t = ctx.exact_time();
  for (SphereId i = 0; i < spheres_.size(); ++i) {
    const Record& r = spheres_[i];
    const Rational rad = world_->radius<Rational>(world_->body(i), 0.0)(t);
    for (int k = 0; k < 3; ++k) {
      const Rational c = world_->centre<Rational>(world_->body(i), k, 0.0)(t);
      if (Rational(c - rad) < Rational(grid_->plane(r.level, k, r.cells.lo[k])) ||
          Rational(c + rad) > Rational(grid_->plane(r.level, k, r.cells.hi[k] + 1)))
        throw AuditFailure("tvb-grid: at t = " + text::shortest(ctx.time) + " the bound of sphere " +
                           std::to_string(i) + " leaves its registered cells on axis " + std::to_string(k));
    }
  }
}

void TvbGrid::draw(SphereId id, Drawing& out) const {
  if (!grid_) return;
  const Record& r = spheres_[id];
  Drawing::Point lo, hi;
  for (int k = 0; k < 3; ++k) {
    lo[k] = grid_->plane(r.level, k, r.cells.lo[k]);
    hi[k] = grid_->plane(r.level, k, r.cells.hi[k] + 1);
  }
  out.box(lo, hi, "cell");
}

}  // namespace kds
