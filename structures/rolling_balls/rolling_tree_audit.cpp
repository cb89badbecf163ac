// RollingTree::audit: the memberships checked against the sorted lists' ranks and against
// the exact positions at the audit's rational time (docs/architecture.md, section 8).
// O(n^2): audits are for tests.
#include <vector>

#include "kds/errors.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/rolling_balls/rolling_plane.hpp"
#include "structures/rolling_balls/rolling_tree.hpp"

namespace kds {

void RollingTree::audit(const AuditContext& ctx) const {
  const Rational t = ctx.exact_time();
  const std::string when = std::string(name()) + ": at t = " + text::shortest(ctx.time);
  const std::size_t n = world_->size();
  std::vector<std::array<Rational, 2>> p(n);
  for (SphereId i = 0; i < n; ++i) {
    const std::string problem =
        rolling_problem(world_->centre_motion(i), world_->sphere(i).radius, world_->box(), world_->origin()[2]);
    if (!problem.empty()) throw AuditFailure(when + " ball " + std::to_string(i) + ": " + problem);
    for (int a = 0; a < 2; ++a) p[i][a] = world_->centre<Rational>(world_->body(i), a, 0.0)(t);
  }
  std::size_t members = 0;
  for (NodeId v = 0; v < tree_.nodes().size(); ++v) {
    const CollisionTree::Node& nd = tree_.node(v);
    for (std::uint32_t rs = nd.lo; rs < nd.mid; ++rs)
      for (std::uint32_t rl = nd.mid; rl < nd.hi; ++rl) {
        const SphereId j = tree_.ball(rs), i = tree_.ball(rl);
        const std::string pair = " ball " + std::to_string(j) + " and the box of ball " + std::to_string(i) +
                                 " at node " + std::to_string(v);
        const bool member = memberships_.contains(j, i);
        members += member;
        if (member != ranked_inside(v, j, i))
          throw AuditFailure(when + pair + ": the membership disagrees with the ranks in the sorted lists");
        const Rational h(box(v, i).h);
        const Rational dx = abs(p[j][0] - p[i][0]), dy = abs(p[j][1] - p[i][1]);
        if (dx < h && dy < h && !member)
          throw AuditFailure(when + pair + ": the tangency point is inside the box but not recorded");
        if ((dx > h || dy > h) && member)
          throw AuditFailure(when + pair + ": the tangency point is outside the box but recorded");
        // Touching or overlapping: |t_i - t_j|^2 <= 4 r_i r_j.
        const Rational ri(world_->sphere(i).radius), rj(world_->sphere(j).radius);
        if (dx * dx + dy * dy <= 4 * ri * rj && !member)
          throw AuditFailure(when + pair + ": the balls touch but are not candidates");
      }
  }
  if (members != memberships_.size())
    throw AuditFailure(when + " " + std::to_string(memberships_.size()) + " memberships recorded, " +
                       std::to_string(members) + " found over the nodes");
}

}  // namespace kds
