#include "structures/collision/trajectories/overlap_checker.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kds/errors.hpp"
#include "kds/function.hpp"
#include "kds/solver.hpp"

namespace kds {
namespace {

std::size_t piece_index(const Trajectory& t, double time, const char* which) {
  if (t.empty() || t.front().start > time)
    throw InvalidInput(std::string("overlap checker: trajectory ") + which + " has not started at t = " +
                       std::to_string(time));
  return static_cast<std::size_t>(&piece_at(t, time) - t.data());
}

/// Calls f(piece of a, piece of b, s, e) for the consecutive intervals [s, e) covering
/// [t_begin, t_end) on which both trajectories are single pieces, until f returns true.
template <class F>
void for_each_common_piece(const Trajectory& a, const Trajectory& b, double t_begin, double t_end, F&& f) {
  std::size_t ia = piece_index(a, t_begin, "a"), ib = piece_index(b, t_begin, "b");
  for (double s = t_begin; s < t_end;) {
    double e = t_end;
    if (ia + 1 < a.size()) e = std::min(e, a[ia + 1].start);
    if (ib + 1 < b.size()) e = std::min(e, b[ib + 1].start);
    if (f(a[ia], b[ib], s, e)) return;
    if (ia + 1 < a.size() && a[ia + 1].start == e) ++ia;
    if (ib + 1 < b.size() && b[ib + 1].start == e) ++ib;
    s = e;
  }
}

/// The first failure of f in [s, e), pinned so that it outlives f.
std::optional<Root> failure_before(const Function& f, double s, double e) {
  const Root r = first_failure(f, Root::at(s));
  if (r.is_infinite() || compare(r, e) >= 0) return std::nullopt;
  r.pin();
  return r;
}

// ---- minimisation in doubles, for min_gap_over_time --------------------------------------

/// Roots of p in (lo, hi) at which p changes sign, in increasing order: p is monotone
/// between consecutive roots of p', so bisection on each monotone stretch finds them.
std::vector<double> sign_changes(const Polynomial<double>& p, double lo, double hi) {
  std::vector<double> out;
  if (p.degree() < 1) return out;
  std::vector<double> cuts{lo};
  for (double c : sign_changes(p.derivative(), lo, hi)) cuts.push_back(c);
  cuts.push_back(hi);
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    double a = cuts[i], b = cuts[i + 1];
    double fa = p(a), fb = p(b);
    if (fa == 0 || fb == 0 || (fa < 0) == (fb < 0)) continue;
    for (int it = 0; it < 200 && b - a > 0; ++it) {
      const double m = a + 0.5 * (b - a);
      if (m == a || m == b) break;
      const double fm = p(m);
      if ((fm < 0) == (fa < 0)) {
        a = m;
        fa = fm;
      } else {
        b = m;
      }
    }
    out.push_back(a + 0.5 * (b - a));
  }
  return out;
}

}  // namespace

std::optional<Root> first_overlap(const Trajectory& a, const Trajectory& b, double ra, double rb, double tolerance,
                                  double t_begin, double t_end) {
  if (!(ra + rb - tolerance > 0)) return std::nullopt;  // no overlap can be that deep
  std::optional<Root> found;
  for_each_common_piece(a, b, t_begin, t_end, [&](const TrajectoryPiece& pa, const TrajectoryPiece& pb, double s, double e) {
    const Motion<3> ma = pa.motion(), mb = pb.motion();
    const auto f = make_function([&]<class NT>(double origin) {
      Polynomial<NT> g;
      for (int k = 0; k < 3; ++k) {
        const Polynomial<NT> d = ma.coordinate<NT>(k, origin) - mb.coordinate<NT>(k, origin);
        g += d * d;
      }
      const NT reach = NT(NT(NT(ra) + NT(rb)) - NT(tolerance));
      return g - Polynomial<NT>(NT(reach * reach));
    });
    found = failure_before(f, s, e);
    return found.has_value();
  });
  return found;
}

std::optional<WallOverlap> first_wall_overlap(const Trajectory& a, double r, const Box3& box, double tolerance,
                                              double t_begin, double t_end) {
  std::optional<WallOverlap> found;
  for_each_common_piece(a, a, t_begin, t_end, [&](const TrajectoryPiece& p, const TrajectoryPiece&, double s, double e) {
    const Motion<3> m = p.motion();
    for (int w = 0; w < 6; ++w) {
      const int axis = w / 2;
      const bool low = w % 2 == 0;
      // Low wall: x - r - lo + tolerance >= 0; high wall: hi - x - r + tolerance >= 0.
      const auto f = make_function([&]<class NT>(double origin) {
        const Polynomial<NT> x = m.coordinate<NT>(axis, origin);
        const NT slack = NT(NT(tolerance) - NT(r));
        return low ? x + Polynomial<NT>(NT(slack - NT(box.lo[axis]))) : Polynomial<NT>(NT(slack + NT(box.hi[axis]))) - x;
      });
      if (auto t = failure_before(f, s, e); t && (!found || compare(*t, found->time) < 0))
        found = WallOverlap{*t, static_cast<Wall>(w)};
    }
    return found.has_value();
  });
  return found;
}

Gap min_gap_over_time(const Trajectory& a, const Trajectory& b, double ra, double rb, double t_begin, double t_end) {
  Gap best{std::numeric_limits<double>::infinity(), t_begin};
  auto consider = [&](const Motion<3>& ma, const Motion<3>& mb, double t) {
    const Vec<3> xa = ma.position(t), xb = mb.position(t);
    const double gap = std::hypot(xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]) - ra - rb;
    if (gap < best.gap) best = {gap, t};
  };
  for_each_common_piece(a, b, t_begin, t_end, [&](const TrajectoryPiece& pa, const TrajectoryPiece& pb, double s, double e) {
    const Motion<3> ma = pa.motion(), mb = pb.motion();
    Polynomial<double> g;
    for (int k = 0; k < 3; ++k) {
      const Polynomial<double> d = ma.coordinate<double>(k, s) - mb.coordinate<double>(k, s);
      g += d * d;
    }
    consider(ma, mb, s);
    consider(ma, mb, e);
    for (double u : sign_changes(g.derivative(), 0, e - s)) consider(ma, mb, s + u);
    return false;
  });
  if (t_end <= t_begin) {
    const TrajectoryPiece &pa = piece_at(a, t_begin), &pb = piece_at(b, t_begin);
    consider(pa.motion(), pb.motion(), t_begin);
  }
  return best;
}

}  // namespace kds
