// The audit of guards and cones: every membership, cone assignment and closest object
// against a static computation at the audit's time, exactly (doubles first, to skip the
// pairs that are clearly apart), and the candidate counts against the closest objects.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "kds/errors.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/guards_cones/guard_audit.hpp"
#include "structures/guards_cones/guards_cones.hpp"

namespace kds {
using guard_audit::dot_exact;

void GuardsCones::audit(const AuditContext& ctx) const {
  if (world_ == nullptr) return;
  const std::string when = "guards-cones: at t = " + text::shortest(ctx.time) + ", ";
  const guard_audit::Centres centres = guard_audit::centres_at(*world_, ctx);
  const std::vector<std::array<Rational, 3>>& c = centres.exact;
  std::map<std::pair<SphereId, SphereId>, std::uint32_t> pair_count;
  std::size_t memberships = 0;
  std::vector<SphereId> expected;
  for (GuardId g = 0; g < owner_.size(); ++g) {
    const SphereId o = owner_[g];
    const guard_audit::Point gp = guard_audit::guard_position(centres, o, offset_[g]);
    // The boxes that contain g (closed; a guard on a box side: the lists' order).
    guard_audit::boxes_holding(centres, objects_, o, offset_[g], gp, expected,
                               [&](int a, SphereId k) { return inside_on(a, g, k); });
    const auto& ms = members_[g];
    memberships += ms.size();
    if (ms.size() != expected.size())
      throw AuditFailure(when + "guard " + std::to_string(g) + " of sphere " + std::to_string(o) + " lies in " +
                         std::to_string(expected.size()) + " boxes but has " + std::to_string(ms.size()) + " members");
    for (SphereId k : expected)
      if (std::none_of(ms.begin(), ms.end(), [k](const Member& m) { return m.object == k; }))
        throw AuditFailure(when + "guard " + std::to_string(g) + " of sphere " + std::to_string(o) +
                           " lies in the box of sphere " + std::to_string(k) + ", which is not its member");
    // Each member's centre is in its closed cone; the closest per cone is the minimum of
    // the projections on the representative edge.
    std::map<ConeIndex, std::pair<Rational, SphereId>> best;
    for (const Member& m : ms) {
      std::array<Rational, 3> d;
      for (int k = 0; k < 3; ++k) d[k] = c[m.object][k] - gp[k];
      const Cone& cone = cones_->cone(m.cone);
      for (int f = 0; f < 3; ++f) {
        if (sgn(dot_exact(cone.normal[f], d)) < 0)
          throw AuditFailure(when + "the centre of sphere " + std::to_string(m.object) + " is outside cone " +
                             std::to_string(m.cone) + " of guard " + std::to_string(g) + " (facet " +
                             std::to_string(f) + ")");
        if (m.facet[f] == nullptr || m.facet[f]->object() != m.object || m.facet[f]->guard() != g)
          throw AuditFailure(when + "member " + std::to_string(m.object) + " of guard " + std::to_string(g) +
                             " lacks its facet certificate " + std::to_string(f));
      }
      const Rational p = dot_exact(cone.representative(), d);
      const auto it = best.find(m.cone);
      if (it == best.end() || p < it->second.first) best[m.cone] = {p, m.object};
    }
    const auto& cl = closest_[g];
    if (cl.size() != best.size())
      throw AuditFailure(when + "guard " + std::to_string(g) + " has " + std::to_string(best.size()) +
                         " non-empty cones but " + std::to_string(cl.size()) + " closest objects");
    for (const auto& [cone, k] : cl) {
      const auto it = best.find(cone);
      if (it == best.end())
        throw AuditFailure(when + "guard " + std::to_string(g) + " keeps a closest object for the empty cone " +
                           std::to_string(cone));
      if (k != it->second.second) {
        // A tie in projection is allowed (never between disjoint objects, Lemma 9).
        std::array<Rational, 3> d;
        for (int a = 0; a < 3; ++a) d[a] = c[k][a] - gp[a];
        if (dot_exact(cones_->cone(cone).representative(), d) != it->second.first)
          throw AuditFailure(when + "the closest object of cone " + std::to_string(cone) + " of guard " +
                             std::to_string(g) + " is sphere " + std::to_string(it->second.second) +
                             ", but the structure keeps sphere " + std::to_string(k));
      }
      ++pair_count[{std::min(o, k), std::max(o, k)}];
    }
  }
  if (memberships != memberships_)
    throw AuditFailure(when + std::to_string(memberships) + " memberships listed, " + std::to_string(memberships_) +
                       " counted");
  counts_.audit(pair_count, when);
}

}  // namespace kds
