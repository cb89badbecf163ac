#pragma once
/// \file
/// The time-varying-bound grid of Kim, Guibas and Shin (sections 3.1-3.3) as a broad
/// phase of the collision world: hierarchical uniform grids (hierarchical_grid.hpp) in
/// which every sphere's *region* is the box of cells its bound meets. Two spheres are
/// candidates when their regions overlap; a sphere may reach a wall when its region does.
///
/// Events of its own, one certificate per face of the region (eq. 7):
///   - "entering": the bound's extent reaches the next cell face out: the region grows;
///   - "leaving": the bound's extent drops off a face it straddled: the region shrinks.
/// After either, the world is told that the sphere's candidates changed. A bound never
/// spans more than two cells per axis, because the world resets it when its diameter
/// reaches the cell side of its level (cell_sides.hpp, eq. 8).

#include <array>
#include <memory>
#include <vector>

#include "certificates/plane_side.hpp"
#include "structures/collision/broad_phase.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/tvb_grid/hierarchical_grid.hpp"

namespace kds {

class TvbGrid final : public BroadPhase {
 public:
  using FaceCertificate = PlaneSide<TvbGrid>;

  TvbGrid() = default;
  ~TvbGrid() override;
  TvbGrid(const TvbGrid&) = delete;
  TvbGrid& operator=(const TvbGrid&) = delete;

  const char* name() const override { return "tvb-grid"; }
  void start(CollisionWorld& world) override;
  void bound_will_reset(SphereId id) override;
  void bound_was_reset(SphereId id) override;
  bool candidates_kept(SphereId id) const override { return spheres_[id].region_kept; }
  void candidates(SphereId id, std::vector<SphereId>& out) override;
  bool may_reach_wall(SphereId id, Wall w) const override;
  /// Every bound lies within its registered cells.
  void audit(const AuditContext& ctx) const override;
  /// The cells of the sphere's region, as one box (role "cell"), and its level (a label).
  void draw(SphereId id, Drawing& out) const override;

  /// The grid (nullptr for a world without spheres).
  const HierarchicalGrid* grid() const { return grid_.get(); }
  const CellRange& region(SphereId id) const { return spheres_[id].cells; }

  // Owner interface of the face certificates: the world's bounds.
  template <class NT>
  Polynomial<NT> centre(BodyId id, int axis, double origin) const {
    return world_->centre<NT>(id, axis, origin);
  }
  template <class NT>
  Polynomial<NT> radius(BodyId id, double origin) const {
    return world_->radius<NT>(id, origin);
  }
  /// The fast path (certificates/plane_side.hpp: holds_before under the bound's horizon).
  template <class NT>
  bool centre_line(BodyId id, int axis, double origin, Line<NT>& out) const {
    return world_->centre_line<NT>(id, axis, origin, out);
  }
  template <class NT>
  ShortPolynomial<NT> short_radius(BodyId id, double origin) const {
    return world_->short_radius<NT>(id, origin);
  }
  void plane_crossed(FaceCertificate& c, Simulator& sim);

 private:
  /// Four faces per axis: the two "entering" faces just outside the region, and (when the
  /// region spans two cells) the two "leaving" ones of its middle plane.
  static constexpr int kFaces = 12;
  struct Record {
    int level = 0;
    CellRange cells;
    std::array<FaceCertificate*, kFaces> faces{};
    bool region_kept = false;  // the last bound_was_reset left the region as it was
  };

  /// The cells the bound of `id` meets now.
  CellRange region_now(SphereId id) const;
  void move(SphereId id, const CellRange& cells);
  /// `crossed`: the face certificate that just failed, if any; its replacement on the same
  /// plane is its negation, which vanishes now (Birth::vanishes_now).
  /// The face certificates of `id`'s region, on every axis or only on `axis` (0-2; -1:
  /// all). `crossed` is the face whose crossing made the region change, if any.
  void create_faces(SphereId id, const FaceCertificate* crossed = nullptr, int axis = -1);
  void destroy_faces(SphereId id);

  CollisionWorld* world_ = nullptr;
  Simulator* sim_ = nullptr;
  std::unique_ptr<HierarchicalGrid> grid_;
  std::vector<Record> spheres_;
  std::vector<std::uint32_t> stamp_;  // for deduplicating candidates, by sphere
  std::uint32_t stamp_now_ = 0;
};

}  // namespace kds
