// The audit of guards and cones with centre lists (GuardsConesLists): every closest object
// against a static computation at the audit's time, exactly (doubles first, to skip the
// pairs that are clearly apart), and the candidate counts against the closest objects.
// Without member lists, an object exactly on a facet belongs to both closed cones and is
// assigned to one of them: the audit asks that every object whose box contains a guard
// lie in a kept cone whose closest object projects no farther, and that each closest
// object be in its cone, in the box, and no farther than any centre strictly inside.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "kds/errors.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/guards_cones/guard_audit.hpp"
#include "structures/guards_cones/guards_cones_lists.hpp"

namespace kds {
using guard_audit::dot_exact;

void GuardsConesLists::audit(const AuditContext& ctx) const {
  if (world_ == nullptr) return;
  const std::string when = "guards-cones-lists: at t = " + text::shortest(ctx.time) + ", ";
  const guard_audit::Centres centres = guard_audit::centres_at(*world_, ctx);
  const std::vector<std::array<Rational, 3>>& c = centres.exact;
  std::map<std::pair<SphereId, SphereId>, std::uint32_t> pair_count;
  std::vector<SphereId> inside;
  for (GuardId g = 0; g < owner_.size(); ++g) {
    const SphereId o = owner_[g];
    const guard_audit::Point gp = guard_audit::guard_position(centres, o, offset_[g]);
    auto d_of = [&](SphereId k) {
      std::array<Rational, 3> d;
      for (int a = 0; a < 3; ++a) d[a] = c[k][a] - gp[a];
      return d;
    };
    // The boxes that contain g (closed; a guard on a box side: the lists' order).
    guard_audit::boxes_holding(centres, objects_, o, offset_[g], gp, inside,
                               [&](int a, SphereId k) { return boxes_.inside_on(a, g, k); });
    const auto& cl = closest_[g];
    for (const auto& [cone, k] : cl) {
      const std::string what = "guard " + std::to_string(g) + " of sphere " + std::to_string(o) + ", cone " +
                               std::to_string(cone) + ": closest object sphere " + std::to_string(k);
      if (std::find(inside.begin(), inside.end(), k) == inside.end())
        throw AuditFailure(when + what + ", whose box does not contain the guard");
      const std::array<Rational, 3> dk = d_of(k);
      for (const IntVec& nf : cones_->cone(cone).normal)
        if (sgn(dot_exact(nf, dk)) < 0) throw AuditFailure(when + what + ", whose centre is outside the cone");
      const Rational pk = dot_exact(cones_->cone(cone).representative(), dk);
      for (SphereId j : inside) {
        const std::array<Rational, 3> dj = d_of(j);
        bool interior = true;
        for (const IntVec& nf : cones_->cone(cone).normal) interior = interior && sgn(dot_exact(nf, dj)) > 0;
        if (interior && dot_exact(cones_->cone(cone).representative(), dj) < pk)
          throw AuditFailure(when + what + ", but sphere " + std::to_string(j) + " is inside the cone and closer");
      }
      ++pair_count[{std::min(o, k), std::max(o, k)}];
    }
    // Every object whose box holds g is in a kept cone whose closest object is no farther.
    for (SphereId j : inside) {
      const std::array<Rational, 3> dj = d_of(j);
      bool covered = false;
      for (const auto& [cone, k] : cl) {
        bool in_cone = true;
        for (const IntVec& nf : cones_->cone(cone).normal) in_cone = in_cone && sgn(dot_exact(nf, dj)) >= 0;
        if (!in_cone) continue;
        const IntVec& rep = cones_->cone(cone).representative();
        if (dot_exact(rep, d_of(k)) <= dot_exact(rep, dj)) {
          covered = true;
          break;
        }
      }
      if (!covered)
        throw AuditFailure(when + "the box of sphere " + std::to_string(j) + " contains guard " + std::to_string(g) +
                           " of sphere " + std::to_string(o) +
                           ", but no cone of the guard holding its centre keeps a closest object as close");
    }
  }
  counts_.audit(pair_count, when);
}

}  // namespace kds
