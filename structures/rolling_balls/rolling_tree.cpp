#include "structures/rolling_balls/rolling_tree.hpp"

#include <algorithm>
#include <string>

#include "kds/errors.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/rolling_balls/rolling_plane.hpp"
#include "structures/rolling_balls/threshold_box.hpp"

namespace kds {

RollingTree::~RollingTree() = default;

void RollingTree::check_ball(SphereId id, bool at_now) const {
  // Runs at every collision: the message is built only when there is something to say.
  auto who = [&] {
    std::string w = std::string(name()) + ": ball " + std::to_string(id);
    if (at_now) w += " at t = " + text::shortest(world_->simulator().now().lo());
    return w;
  };
  if (!world_->ballistic(id))
    throw InvalidInput(who() + ": has an unknown trajectory (max_acceleration > 0); the collision tree needs "
                               "known polynomial motions");
  const std::string problem = rolling_problem(world_->centre_motion(id), world_->sphere(id).radius, world_->box(), world_->origin()[2]);
  if (!problem.empty()) throw InvalidInput(who() + ": " + problem);
}

void RollingTree::start(CollisionWorld& world) {
  world_ = &world;
  const std::size_t n = world.size();
  for (SphereId i = 0; i < n; ++i) check_ball(i, false);
  std::vector<double> radii(n);
  for (SphereId i = 0; i < n; ++i) radii[i] = world.sphere(i).radius;
  tree_ = CollisionTree(radii);
  memberships_.resize(n);
  build_lists();
}

void RollingTree::bound_was_reset(SphereId id) {
  check_ball(id, true);
}

void RollingTree::candidates(SphereId id, std::vector<SphereId>& out) {
  const std::vector<SphereId>& partners = memberships_.of(id);
  out.insert(out.end(), partners.begin(), partners.end());
}

// ---------------------------------------------------------------- the lists

void RollingTree::build_lists() {
  Simulator& sim = world_->simulator();
  const double t = sim.now().lo();  // a double: the world rounded the clock before starting us
  const auto& nodes = tree_.nodes();
  const std::size_t count = layout_ == RollingLists::per_node ? nodes.size() : std::min<std::size_t>(nodes.size(), 1);
  for (std::size_t k = 0; k < count; ++k) lists_.push_back(std::make_unique<PlaneLists>(sim));

  // Entries are inserted in the order of their values now, so that each lands at (or
  // near) the end of its list: building a list of m entries costs O(m log m), not O(m^2).
  struct Pending {
    double value;
    Key key;
    PlaneEntry what;
    EntryId* out;
  };
  std::vector<std::array<std::vector<Pending>, 2>> pending(count);
  auto add_point = [&](std::size_t l, SphereId j, std::uint32_t node, PointEntries& out) {
    const Vec<3> p = world_->centre_motion(j).position(t);
    for (int a = 0; a < 2; ++a)
      pending[l][a].push_back({p[a], Key::coordinate(world_->body(j), a), {j, node, PlaneEntry::Kind::point}, &out.axis[a]});
  };

  std::vector<PointEntries> global_points(layout_ == RollingLists::global ? world_->size() : 0);
  if (layout_ == RollingLists::global && count == 1)
    for (std::uint32_t r = 0; r + 1 < tree_.size(); ++r)  // the largest ball is never small
      add_point(0, tree_.ball(r), 0, global_points[tree_.ball(r)]);

  nodes_.resize(nodes.size());
  for (NodeId v = 0; v < nodes.size(); ++v) {
    const CollisionTree::Node& nd = nodes[v];
    const std::size_t l = layout_ == RollingLists::per_node ? v : 0;
    NodeRecord& rec = nodes_[v];
    rec.lists = lists_[l].get();
    rec.points.resize(nd.mid - nd.lo);
    rec.boxes.resize(nd.hi - nd.mid);
    if (layout_ == RollingLists::per_node)
      for (std::uint32_t r = nd.lo; r < nd.mid; ++r) add_point(l, tree_.ball(r), v, rec.points[r - nd.lo]);
    for (std::uint32_t r = nd.mid; r < nd.hi; ++r) {
      const SphereId i = tree_.ball(r);
      BoxEntries& b = rec.boxes[r - nd.mid];
      b.h = threshold_half_width(world_->sphere(i).radius, nd.r_min);
      const Vec<3> p = world_->centre_motion(i).position(t);
      for (int a = 0; a < 2; ++a) {
        pending[l][a].push_back({p[a] - b.h, Key::coordinate(world_->body(i), a, -b.h), {i, v, PlaneEntry::Kind::low},
                                 &b.side[2 * a]});
        pending[l][a].push_back({p[a] + b.h, Key::coordinate(world_->body(i), a, b.h), {i, v, PlaneEntry::Kind::high},
                                 &b.side[2 * a + 1]});
      }
    }
  }
  for (std::size_t l = 0; l < count; ++l)
    for (int a = 0; a < 2; ++a) {
      std::vector<Pending>& p = pending[l][a];
      std::stable_sort(p.begin(), p.end(), [](const Pending& x, const Pending& y) { return x.value < y.value; });
      for (const Pending& e : p) *e.out = lists_[l]->insert(a, e.key, e.what);
    }
  if (layout_ == RollingLists::global)
    for (NodeId v = 0; v < nodes.size(); ++v)
      for (std::uint32_t r = nodes[v].lo; r < nodes[v].mid; ++r)
        nodes_[v].points[r - nodes[v].lo] = global_points[tree_.ball(r)];

  for (auto& lists : lists_) {
    PlaneLists* l = lists.get();
    for (int a = 0; a < 2; ++a)
      l->list(a).on_swap().subscribe([this, l, a](EntryId left, EntryId right) { swapped(*l, a, left, right); });
    sweep(*l);
  }
}

void RollingTree::sweep(const PlaneLists& lists) {
  // Along x: the boxes whose x-interval is open at a point (low side passed, high side
  // not yet) are the only ones that may hold it; y ranks decide.
  struct Open {
    NodeId v;
    SphereId ball;
  };
  std::vector<Open> open;
  const SortedList& xs = lists.list(0);
  // By the entry of a box's x high side. Entry ids are dense only while no entry was ever
  // erased, so the table spans the largest id in the list, not the list's size.
  std::size_t id_limit = 0;
  for (EntryId e : xs.order()) id_limit = std::max(id_limit, std::size_t{e} + 1);
  std::vector<std::uint32_t> where(id_limit, 0);
  for (EntryId e : xs.order()) {
    const PlaneEntry& it = lists.item(0, e);
    switch (it.kind) {
      case PlaneEntry::Kind::low:
        where[box(it.node, it.ball).side[1]] = static_cast<std::uint32_t>(open.size());
        open.push_back({it.node, it.ball});
        break;
      case PlaneEntry::Kind::high: {
        const std::uint32_t k = where[e];
        open[k] = open.back();
        where[box(open[k].v, open[k].ball).side[1]] = k;
        open.pop_back();
        break;
      }
      case PlaneEntry::Kind::point:
        for (const Open& o : open)
          if (tree_.small_at(o.v, it.ball) && ranked_inside(o.v, it.ball, o.ball)) memberships_.add(it.ball, o.ball);
        break;
    }
  }
}

bool RollingTree::ranked_inside(NodeId v, SphereId small, SphereId large) const {
  const PlaneLists& lists = *nodes_[v].lists;
  const PointEntries& p = point(v, small);
  const BoxEntries& b = box(v, large);
  for (int a = 0; a < 2; ++a) {
    const std::size_t r = lists.rank(a, p.axis[a]);
    if (!(lists.rank(a, b.side[2 * a]) < r && r < lists.rank(a, b.side[2 * a + 1]))) return false;
  }
  return true;
}

void RollingTree::swapped(const PlaneLists& lists, int axis, EntryId left, EntryId right) {
  const PlaneEntry& a = lists.item(axis, left);
  const PlaneEntry& b = lists.item(axis, right);
  const bool a_point = a.kind == PlaneEntry::Kind::point, b_point = b.kind == PlaneEntry::Kind::point;
  if (a_point == b_point) return;  // two points, or two sides: no membership changes
  const PlaneEntry& pt = a_point ? a : b;
  const PlaneEntry& side = a_point ? b : a;
  // In the global lists a point also meets the boxes of nodes where its ball is large or
  // absent: those swaps are events that change nothing.
  if (!tree_.small_at(side.node, pt.ball)) return;
  const bool inside = ranked_inside(side.node, pt.ball, side.ball);
  if (inside == memberships_.contains(pt.ball, side.ball)) return;
  if (inside) memberships_.add(pt.ball, side.ball);
  else memberships_.remove(pt.ball, side.ball);
  ++membership_changes_;
  world_->candidates_changed(pt.ball);
}

// ---------------------------------------------------------------- counts

std::size_t RollingTree::list_entries() const {
  std::size_t s = 0;
  for (const auto& l : lists_) s += l->list(0).size() + l->list(1).size();
  return s;
}

std::size_t RollingTree::order_certificates() const {
  std::size_t s = 0;
  for (const auto& l : lists_)
    for (int a = 0; a < 2; ++a) s += l->list(a).size() > 0 ? l->list(a).size() - 1 : 0;
  return s;
}

std::uint64_t RollingTree::swaps() const {
  std::uint64_t s = 0;
  for (const auto& l : lists_) s += l->list(0).swaps() + l->list(1).swaps();
  return s;
}

void RollingTree::draw(SphereId id, Drawing& out) const {
  const double r = world_->sphere(id).radius;
  for (NodeId v = 0; v < nodes_.size(); ++v) {
    if (!tree_.large_at(v, id) || nodes_[v].boxes.empty()) continue;
    const double h = half_width(v, id);
    out.box_on(world_->body(id), {-h, -h, -r}, {h, h, -r}, "threshold box");
  }
}

}  // namespace kds
