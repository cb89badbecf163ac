// The audit of kinetic box overlap: the overlap set against a brute-force computation of
// the overlapping boxes, exactly, at the audit's time.
#include <string>
#include <vector>

#include "kds/errors.hpp"
#include "structures/box_overlap/box_overlap.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/collision/io/number_text.hpp"

namespace kds {

void BoxOverlap::audit(const AuditContext& ctx) const {
  if (world_ == nullptr) return;
  overlaps_.check();
  const std::size_t n = world_->size();
  const Rational t = ctx.exact_time();
  // Every extreme once, exactly: lo[k][i], hi[k][i].
  std::array<std::vector<Rational>, max_axes> lo, hi;
  for (int k = 0; k < axes_; ++k) {
    lo[k].reserve(n);
    hi[k].reserve(n);
    for (SphereId i = 0; i < n; ++i) {
      const Rational x = world_->centre<Rational>(world_->body(i), k, 0.0)(t);
      const Rational h(half_width_[i]);
      lo[k].push_back(x - h);
      hi[k].push_back(x + h);
    }
  }
  std::vector<char> partner(n, 0);
  for (SphereId a = 0; a < n; ++a) {
    for (SphereId b : overlaps_.partners(a)) partner[b] = 1;
    for (SphereId b = a + 1; b < n; ++b) {
      bool overlap = true;
      for (int k = 0; k < axes_ && overlap; ++k) {
        const int s1 = sgn(hi[k][b] - lo[k][a]), s2 = sgn(hi[k][a] - lo[k][b]);
        if (s1 < 0 || s2 < 0) overlap = false;
        // Equal extremes: both orders are right now; the list's order says which holds
        // just after (and it is audited by the list itself).
        else if (s1 == 0 || s2 == 0) overlap = overlap_on(k, a, b);
      }
      if (overlap != (partner[b] != 0))
        throw AuditFailure(std::string(name()) + ": at t = " + text::shortest(ctx.time) + " the boxes of spheres " +
                           std::to_string(a) + " and " + std::to_string(b) + (overlap ? " overlap" : " are apart") +
                           " but the overlap set says " + (overlap ? "they are apart" : "they overlap"));
    }
    for (SphereId b : overlaps_.partners(a)) partner[b] = 0;
  }
}

}  // namespace kds
