// The broad phases shipped with kds, by name (structures/collision/broad_phase_registry.hpp).
// A new broad phase is a folder of its own under structures/ and one line here: this is
// the only file that knows them all, so the collision layer depends on none of them.
#include "structures/box_overlap/box_overlap.hpp"
#include "structures/collision/all_pairs.hpp"
#include "structures/collision/broad_phase_registry.hpp"
#include "structures/guards_cones/guards_cones.hpp"
#include "structures/guards_cones/guards_cones_lists.hpp"
#include "structures/rolling_balls/rolling_tree.hpp"
#include "structures/tvb_grid/tvb_grid.hpp"

namespace kds::detail {
namespace {

template <class B>
std::unique_ptr<BroadPhase> make() {
  return std::make_unique<B>();
}
std::unique_ptr<BroadPhase> make_rolling_global() { return std::make_unique<RollingTree>(RollingLists::global); }
std::unique_ptr<BroadPhase> make_box_overlap_2d() { return std::make_unique<BoxOverlap>(2); }

constexpr BuiltinBroadPhase kBuiltin[] = {
    {"all-pairs", make<AllPairs>},  // the reference: every pair a candidate
    {"tvb-grid", make<TvbGrid>},    // Kim, Guibas, Shin: hierarchical grids of time-varying bounds
    {"rolling-tree", make<RollingTree>},             // Abam et al.: balls rolling on the floor, lists per node
    {"rolling-tree-global", make_rolling_global},  // the same tree with two global sorted lists
    {"box-overlap", make<BoxOverlap>},  // Abam et al. 3.1: sorted lists of box extremes, ballistic spheres
    {"box-overlap-2d", make_box_overlap_2d},  // the same with two lists (x, y): planar scenes
    {"guards-cones", make<GuardsCones>},  // Abam et al. 3.2: guards, cones, closest object per cone; ballistic
    {"guards-cones-lists", make<GuardsConesLists>},  // the same without member lists: centre lists per facet orientation
};

}  // namespace

std::span<const BuiltinBroadPhase> builtin_broad_phases() { return kBuiltin; }

}  // namespace kds::detail
