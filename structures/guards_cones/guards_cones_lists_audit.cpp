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
#include "structures/guards_cones/guards_cones_lists.hpp"

namespace kds {
namespace {

Rational dot_exact(const IntVec& n, const std::array<Rational, 3>& d) {
  Rational s = 0;
  for (int i = 0; i < 3; ++i) s += Rational(n[i]) * d[i];
  return s;
}

}  // namespace

void GuardsConesLists::audit(const AuditContext& ctx) const {
  if (world_ == nullptr) return;
  const std::size_t n = world_->size();
  const Rational t = ctx.exact_time();
  const std::string when = "guards-cones-lists: at t = " + text::shortest(ctx.time) + ", ";
  std::vector<std::array<Rational, 3>> c(n);
  std::vector<Vec<3>> cd(n);
  for (SphereId i = 0; i < n; ++i) {
    cd[i] = world_->centre_motion(i).position(ctx.time);
    for (int k = 0; k < 3; ++k) c[i][k] = world_->centre<Rational>(world_->body(i), k, 0.0)(t);
  }
  std::map<std::pair<SphereId, SphereId>, std::uint32_t> pair_count;
  std::vector<SphereId> inside;
  for (GuardId g = 0; g < owner_.size(); ++g) {
    const SphereId o = owner_[g];
    std::array<Rational, 3> gp;
    for (int k = 0; k < 3; ++k) gp[k] = c[o][k] + Rational(offset_[g][k]);
    auto d_of = [&](SphereId k) {
      std::array<Rational, 3> d;
      for (int a = 0; a < 3; ++a) d[a] = c[k][a] - gp[a];
      return d;
    };
    // The boxes that contain g (closed; an extreme equal to the guard: the lists' order,
    // which says what holds just after, is audited by the lists themselves).
    inside.clear();
    for (SphereId k = 0; k < n; ++k) {
      if (k == o) continue;
      bool in = true;
      for (int a = 0; a < 3 && in; ++a) {
        const double h = objects_[k].box_half_width[a];
        const double gd = cd[o][a] + offset_[g][a];
        const double slack = 1e-6 * (std::abs(gd) + std::abs(cd[k][a]) + h + 1);
        if (std::abs(gd - cd[k][a]) > h + slack) {
          in = false;
          break;
        }
        const Rational hr(h);
        const int s1 = sgn(gp[a] - (c[k][a] - hr)), s2 = sgn(c[k][a] + hr - gp[a]);
        if (s1 < 0 || s2 < 0) in = false;
        else if (s1 == 0 || s2 == 0) in = boxes_.inside_on(a, g, k);
      }
      if (in) inside.push_back(k);
    }
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
  std::size_t listed = 0;
  for (SphereId a = 0; a < n; ++a)
    for (const auto& [b, count] : counts_.partners(a)) {
      ++listed;
      const auto it = pair_count.find({std::min(a, b), std::max(a, b)});
      if (it == pair_count.end() || it->second != count)
        throw AuditFailure(when + "the pair {" + std::to_string(a) + ", " + std::to_string(b) + "} is counted " +
                           std::to_string(count) + " times, but " +
                           std::to_string(it == pair_count.end() ? 0 : it->second) + " closest objects name it");
    }
  if (listed != 2 * pair_count.size())
    throw AuditFailure(when + std::to_string(pair_count.size()) + " candidate pairs expected, " +
                       std::to_string(listed) + " partner entries listed");
}

}  // namespace kds
