#include "structures/tvb_grid/sphere_world.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "kds/errors.hpp"
#include "structures/collision/cost_model.hpp"
#include "structures/collision/io/validate_spheres.hpp"
#include "structures/collision/response.hpp"

namespace kds {
namespace {

constexpr const char* kCollision = "collision";          // two ballistic spheres meet
constexpr const char* kBoundCollision = "bound collision";  // two bounds meet (one trajectory unknown)
constexpr const char* kWall = "wall";
constexpr const char* kEntering = "entering";
constexpr const char* kLeaving = "leaving";
constexpr const char* kResetting = "resetting";

constexpr std::uint64_t kGridEventKeys = std::uint64_t{1} << 63;  // after every physical event at equal times

double dot(const Vec<3>& a, const Vec<3>& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec<3> sub(const Vec<3>& a, const Vec<3>& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double norm(const Vec<3>& a) { return std::sqrt(dot(a, a)); }

std::string fmt(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

/// The smallest double >= x (x > 0 and not too large).
double ceil_to_double_rational(const Rational& x) {
  double d = x.get_d();  // truncated towards zero
  if (Rational(d) < x) d = next_up(d);
  return d;
}

}  // namespace

std::uint64_t SphereWorld::pair_key(SphereId a, SphereId b) {
  if (a > b) std::swap(a, b);
  return (std::uint64_t(a) << 32) | b;
}

// ---------------------------------------------------------------- construction

SphereWorld::SphereWorld(Simulator& sim, const SphereWorldSettings& settings, const std::vector<Sphere>& spheres)
    : sim_(sim), settings_(settings) {
  if (sim_.object_count() != 0) throw InvalidInput("SphereWorld: needs a simulator of its own (it has objects already)");
  validate(spheres);
  cell_ratio_ = settings_.cell_ratio > 0 ? settings_.cell_ratio : choose_cell_ratio(spheres, settings_.box);
  if (cell_ratio_ < 2) throw InvalidInput("SphereWorld: cell_ratio must be at least 2 (cell side >= twice the diameter)");
  const double t = sim_.round_clock();
  spheres_.resize(spheres.size());
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    const ObjectId id = sim_.add_object();
    if (id != i) throw std::logic_error("SphereWorld: object ids are not contiguous");
    spheres_[i].spec = spheres[i];
    spheres_[i].bound.radius = spheres[i].radius;
    spheres_[i].bound.acceleration = spheres[i].max_acceleration;
  }
  stamp_.assign(spheres.size(), 0);
  build_grid();
  for (SphereId i = 0; i < spheres_.size(); ++i) reset_bound(i, t, SphereState{spheres[i].position, spheres[i].velocity});
  if (grid_)
    for (SphereId i = 0; i < spheres_.size(); ++i) {
      spheres_[i].cells = region_now(i);
      grid_->insert(i, spheres_[i].level, spheres_[i].cells);
    }
  for (SphereId i = 0; i < spheres_.size(); ++i) create_certificates(i);
  sim_.attach(*this);
}

SphereWorld::~SphereWorld() {
  // A destructor must not throw (it may run while an exception unwinds the stack): a
  // world left inconsistent by an error is still taken apart as far as possible.
  try {
    for (SphereId i = 0; i < spheres_.size(); ++i)
      if (sim_.has_object(i)) destroy_certificates(i, true, true);
    for (SphereId i = 0; i < spheres_.size(); ++i)
      if (sim_.has_object(i)) sim_.remove_object(i);
  } catch (...) {
  }
  sim_.detach(*this);
}

void SphereWorld::validate(const std::vector<Sphere>& spheres) const {
  if (!(settings_.contact_tolerance > 0) || !std::isfinite(settings_.contact_tolerance))
    throw InvalidInput("SphereWorld: contact_tolerance must be positive and finite");
  if (!(settings_.restitution >= 0 && settings_.restitution <= 1))
    throw InvalidInput("SphereWorld: restitution must lie in [0, 1]");
  for (double g : settings_.gravity)
    if (!std::isfinite(g)) throw InvalidInput("SphereWorld: gravity is not finite");
  // Values, placement in the box and overlaps, exactly (the same rules as scene files).
  validate_spheres(spheres, settings_.box);
  if (settings_.probe == nullptr)
    for (std::size_t i = 0; i < spheres.size(); ++i)
      if (spheres[i].max_acceleration > 0)
        throw InvalidInput("sphere " + std::to_string(i) +
                           ": has an unknown trajectory (max_acceleration > 0) but no TrajectoryProbe was given");
}

void SphereWorld::build_grid() {
  if (spheres_.empty()) return;
  double r_min = std::numeric_limits<double>::infinity(), r_max = 0;
  for (const auto& s : spheres_) {
    r_min = std::min(r_min, s.spec.radius);
    r_max = std::max(r_max, s.spec.radius);
  }
  const double finest = cell_ratio_ * 2 * r_min;
  const int levels = std::min(15, 1 + static_cast<int>(std::ceil(std::log2(r_max / r_min) + 1e-12)));
  // Shift the grid off the box by an irrational-looking fraction of a cell, so that no
  // cell face coincides with a wall (equal failure times would need exact comparisons).
  Vec<3> origin;
  for (int k = 0; k < 3; ++k) origin[k] = settings_.box.lo[k] - 0.3819660112501051 * finest;
  if (settings_.broad_phase == BroadPhase::grid) {
    grid_ = std::make_unique<HierarchicalGrid>(finest, levels, origin);
    for (auto& s : spheres_) {
      s.level = grid_->level_for(s.spec.radius, cell_ratio_);
      s.cell_side = grid_->side(s.level);
    }
    return;
  }
  // The all-pairs twin has no grid, but resets bounds at the cell sides the grid would
  // have (eq. 8), so that both broad phases see the same bounds and find the same contacts.
  for (auto& s : spheres_) {
    s.level = 0;
    s.cell_side = finest;
    while (s.cell_side < cell_ratio_ * 2 * s.spec.radius) s.cell_side *= 2;
  }
}

// ---------------------------------------------------------------- bounds and probes

bool SphereWorld::bound_is_exact(SphereId id, double now) const {
  return ballistic(id) || spheres_[id].bound.reset_time == now;
}

double SphereWorld::horizon(SphereId id) const {
  return ballistic(id) ? std::numeric_limits<double>::infinity() : spheres_[id].reset_deadline;
}

SphereState SphereWorld::probe(SphereId id, double t) {
  const Record& r = spheres_[id];
  if (ballistic(id)) return state(id, t);
  SphereState s = settings_.probe->state(id, t);
  ++probes_;
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(s.position[k]) || !std::isfinite(s.velocity[k]))
      throw InvalidInput("sphere " + std::to_string(id) + ": the probe returned a NaN or infinite state at t = " + fmt(t));
  // The promise |a| <= A bounds the drift from the predicted motion (eq. 2) and the change
  // of velocity. The slack covers the integrator's own rounding, nothing more.
  const double dt = t - r.bound.reset_time;
  const Vec<3> predicted = r.bound.centre.position(t);
  const double allowed = 0.5 * r.spec.max_acceleration * dt * dt;
  const double drift = norm(sub(s.position, predicted));
  const double slack = 1e-9 * (1 + norm(predicted)) + 1e-12 * allowed;
  if (drift > allowed + slack)
    throw InvalidInput("sphere " + std::to_string(id) + " broke its acceleration bound A = " + fmt(r.spec.max_acceleration) +
                       ": at t = " + fmt(t) + " its centre is " + fmt(drift) + " from the predicted centre, " +
                       fmt(drift - allowed) + " more than A/2 (t - t0)^2 = " + fmt(allowed));
  const double dv = norm(sub(s.velocity, r.bound.centre.velocity(t)));
  const double allowed_v = r.spec.max_acceleration * dt;
  if (dv > allowed_v + 1e-9 * (1 + norm(s.velocity)))
    throw InvalidInput("sphere " + std::to_string(id) + " broke its acceleration bound A = " + fmt(r.spec.max_acceleration) +
                       ": at t = " + fmt(t) + " its velocity changed by " + fmt(dv) + " since t0, more than A (t - t0) = " +
                       fmt(allowed_v));
  for (int k = 0; k < 3; ++k)
    if (s.position[k] < settings_.box.lo[k] - settings_.contact_tolerance ||
        s.position[k] > settings_.box.hi[k] + settings_.contact_tolerance)
      throw InvalidInput("sphere " + std::to_string(id) + ": the probe put its centre outside the box at t = " + fmt(t));
  return s;
}

void SphereWorld::reset_bound(SphereId id, double t, const SphereState& s) {
  Record& r = spheres_[id];
  r.bound.reset_time = t;
  if (ballistic(id)) {
    r.bound.centre = Motion<3>::accelerated(t, s.position, s.velocity, settings_.gravity);
  } else {
    r.bound.centre = Motion<3>::linear(t, s.position, s.velocity);
    r.reset_deadline = t + (r.cell_side - 2 * r.spec.radius) / r.spec.max_acceleration;  // eq. (8)
  }
}

SphereState SphereWorld::state(SphereId id, double t) const {
  const Motion<3>& m = spheres_[id].bound.centre;
  return SphereState{m.position(t), m.velocity(t)};
}

double SphereWorld::kinetic_energy(double t) const {
  double e = 0;
  for (SphereId i = 0; i < spheres_.size(); ++i) {
    Vec<3> v = state(i, t).velocity;
    e += 0.5 * spheres_[i].spec.mass * dot(v, v);
  }
  return e;
}

// ---------------------------------------------------------------- certificates

CellRange SphereWorld::region_now(SphereId id) const {
  const Record& r = spheres_[id];
  const double t = sim_.now().hi();
  const Vec<3> c = r.bound.centre.position(t);
  const double rad = r.bound.radius_at(t);
  // A little margin so that a bound touching a face counts in both cells: the face
  // certificates decide membership from then on, exactly.
  Vec<3> lo, hi;
  for (int k = 0; k < 3; ++k) {
    const double m = 1e-12 * (std::fabs(c[k]) + rad);
    lo[k] = c[k] - rad - m;
    hi[k] = c[k] + rad + m;
  }
  return grid_->cells_of(r.level, lo, hi);
}

void SphereWorld::destroy_certificates(SphereId id, bool pairs, bool own) {
  std::vector<CertificateBase*>& doomed = certificate_scratch_;
  doomed.clear();
  for (const ObjectLink& l : sim_.certificates_of(id)) {
    const bool is_pair = l.owner->objects().size() == 2;
    if ((is_pair && pairs) || (!is_pair && own)) doomed.push_back(l.owner);
  }
  for (CertificateBase* c : doomed) sim_.destroy(c);
}

void SphereWorld::create_pair(SphereId a, SphereId b) {
  if (a > b) std::swap(a, b);
  const char* kind = ballistic(a) && ballistic(b) ? kCollision : kBoundCollision;
  BoundCollision* c = sim_.create<BoundCollision>(*this, a, b, kind, pair_key(a, b));
  c->set_horizon(std::min(horizon(a), horizon(b)));
  // The allowance is a function of the two motions alone, decided at the later of their
  // starts t0 (when the pair was last possibly put in contact), whenever the certificate is
  // created: the grid creates pair certificates as regions meet, its all-pairs twin when
  // motions change, and both must schedule the same function.
  const double now = std::max(spheres_[a].bound.reset_time, spheres_[b].bound.reset_time);
  if (!bound_is_exact(a, now) || !bound_is_exact(b, now)) return;
  {
    // Clearly apart at t0 (in doubles, with a margin far above their rounding): no allowance.
    const Vec<3> d = sub(spheres_[a].bound.centre.position(now), spheres_[b].bound.centre.position(now));
    const double R = spheres_[a].spec.radius + spheres_[b].spec.radius, d2 = dot(d, d);
    if (d2 - R * R > 1e-9 * (d2 + R * R)) return;
  }
  // A pair possibly in contact (after a response at a rounded time it may overlap by a few
  // ulps). Decided with the certificate's own interval polynomial, the arithmetic the
  // solver will use: f0 = f(t0), and its slope.
  const Polynomial<Interval> f = c->interval_polynomial(now);
  const Interval f0 = f[0], slope = f.degree() >= 1 ? f[1] : Interval(0.0);
  if (f0.certainly_positive()) return;
  // Clearly approaching: faster than the rounding of a response can leave a pair (with
  // restitution 0 the response may leave an approach below an ulp of the velocities, which
  // no further response can remove).
  const Vec<3> gap_now = sub(spheres_[a].bound.centre.position(now), spheres_[b].bound.centre.position(now));
  const double rounding = 1e-12 * 2 * norm(gap_now) *
                          (norm(spheres_[a].bound.centre.velocity(now)) + norm(spheres_[b].bound.centre.velocity(now)));
  double allowance = 0;
  if (!(slope.hi() < -rounding) || f0.certainly_negative()) {
    // Separating (the usual case right after a response), at rest relative to each other
    // up to rounding (after a response with restitution 0), or overlapping by a rounding
    // error: cover the present value and its uncertainty, so that the certificate fails
    // only if the pair goes deeper, without the exact path. (An exact allowance here would
    // let a pair approaching by a rounding error fail now again and again, with no contact
    // declared: separation_failed decides "approaching" in doubles.)
    allowance = next_up(std::max(0.0, -f0.lo()) + 2 * f0.width());
  } else {
    // Undecided and clearly approaching (spheres touching exactly, at the start or in a
    // chain of contacts): allow exactly the present overlap, none if they only touch, so
    // that a pair touching and approaching fails now, not an ulp of time later.
    const Rational e = c->exact_value_at(now);
    allowance = sgn(e) < 0 ? ceil_to_double_rational(-e) : 0.0;
  }
  const double R = spheres_[a].spec.radius + spheres_[b].spec.radius;
  const double depth = allowance / (2 * R);
  if (depth > settings_.contact_tolerance)
    throw std::logic_error("SphereWorld: spheres " + std::to_string(a) + " and " + std::to_string(b) + " overlap by " +
                           fmt(depth) + " at t = " + fmt(now) + ", beyond the contact tolerance");
  c->set_allowance(allowance);
}

bool SphereWorld::region_reaches_wall(SphereId id, int axis, bool low) const {
  if (!grid_) return true;
  const Record& r = spheres_[id];
  return low ? grid_->plane(r.level, axis, r.cells.lo[axis]) <= settings_.box.lo[axis]
             : grid_->plane(r.level, axis, r.cells.hi[axis] + 1) >= settings_.box.hi[axis];
}

void SphereWorld::create_walls(SphereId id) {
  // As for pairs (see create_pair): the allowance is decided at the start t0 of the motion,
  // whenever the certificate is created, so that the grid (which creates wall certificates
  // as the cells reach the wall) and its all-pairs twin schedule the same function.
  const double now = spheres_[id].bound.reset_time;
  const Vec<3> centre_then = spheres_[id].bound.centre.position(now);
  for (int k = 0; k < 3; ++k)
    for (int low = 0; low < 2; ++low) {
      // The bound lies within its cells: it cannot reach a wall its cells do not reach
      // before an entering event changes them (which calls this again).
      if (!region_reaches_wall(id, k, low)) continue;
      const double plane = low ? settings_.box.lo[k] : settings_.box.hi[k];
      const int side = low ? +1 : -1;
      const auto face = static_cast<std::uint64_t>(wall_of(k, low));
      FaceCertificate* c = sim_.create<FaceCertificate>(*this, id, k, plane, side, kWall,
                                                        (std::uint64_t(id) << 32) | (0xFFFFFFF0u + face), -1);
      c->set_horizon(horizon(id));
      const double clearance = side * (centre_then[k] - plane) - spheres_[id].spec.radius;
      if (clearance > 1e-9 * (std::fabs(centre_then[k]) + std::fabs(plane) + spheres_[id].spec.radius)) continue;
      // Possibly touching the wall: the same rule as for pairs (see create_pair).
      const Polynomial<Interval> f = c->interval_polynomial(now);
      const Interval gap = f[0], slope = f.degree() >= 1 ? f[1] : Interval(0.0);
      if (gap.certainly_positive()) continue;
      double allowance = 0;
      if (!slope.certainly_negative() || gap.certainly_negative()) {
        allowance = next_up(std::max(0.0, -gap.lo()) + 2 * gap.width());
      } else {
        const Rational e = c->exact_value_at(now);
        allowance = sgn(e) < 0 ? ceil_to_double_rational(-e) : 0.0;
      }
      if (allowance > settings_.contact_tolerance)
        throw std::logic_error("SphereWorld: sphere " + std::to_string(id) + " is " + fmt(allowance) +
                               " beyond a wall at t = " + fmt(now) + ", more than the contact tolerance");
      c->set_allowance(allowance);
    }
}

void SphereWorld::create_faces(SphereId id, const FaceCertificate* crossed) {
  if (!grid_) return;
  const Record& r = spheres_[id];
  const std::uint64_t key = kGridEventKeys | (std::uint64_t(id) << 8);
  for (int k = 0; k < 3; ++k) {
    const std::int32_t lo = r.cells.lo[k], hi = r.cells.hi[k];
    auto make = [&](double plane, int side, int reach, const char* kind, std::uint64_t code) {
      const bool negation = crossed != nullptr && crossed->axis() == k && crossed->plane() == plane &&
                            crossed->side() == -side && crossed->reach() == -reach;
      FaceCertificate* c =
          negation ? sim_.create_vanishing_now<FaceCertificate>(*this, id, k, plane, side, kind, key | code, reach)
                   : sim_.create<FaceCertificate>(*this, id, k, plane, side, kind, key | code, reach);
      c->set_horizon(horizon(id));
    };
    make(grid_->plane(r.level, k, hi + 1), -1, -1, kEntering, 1 + 4 * k);  // the top reaches the next cell up
    make(grid_->plane(r.level, k, lo), +1, -1, kEntering, 2 + 4 * k);      // the bottom reaches the next cell down
    if (hi > lo) {
      make(grid_->plane(r.level, k, hi), +1, +1, kLeaving, 3 + 4 * k);  // the top drops out of the upper cell
      make(grid_->plane(r.level, k, hi), -1, +1, kLeaving, 4 + 4 * k);  // the bottom rises out of the lower cell
    }
  }
}

void SphereWorld::refresh_pairs(SphereId id) {
  // Partners that have a certificate already.
  if (++stamp_now_ == 0) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    stamp_now_ = 1;
  }
  const std::uint32_t have = stamp_now_;
  std::vector<CertificateBase*>& existing = certificate_scratch_;
  existing.clear();
  for (const ObjectLink& l : sim_.certificates_of(id))
    if (l.owner->objects().size() == 2) existing.push_back(l.owner);
  if (!grid_) {
    for (CertificateBase* c : existing) {
      SphereId other = c->objects()[0] == id ? c->objects()[1] : c->objects()[0];
      stamp_[other] = have;
    }
    for (SphereId j = 0; j < spheres_.size(); ++j)
      if (j != id && stamp_[j] != have) create_pair(id, j);
    return;
  }
  // Candidates: regions that overlap this sphere's region.
  const std::uint32_t candidate = ++stamp_now_;
  const Record& r = spheres_[id];
  scratch_.clear();
  grid_->for_each_candidate(r.level, r.cells, [&](std::uint32_t j) {
    if (j == id || stamp_[j] == candidate) return;
    stamp_[j] = candidate;
    if (grid_->regions_overlap(r.level, r.cells, spheres_[j].level, spheres_[j].cells)) scratch_.push_back(j);
  });
  // stamp_ now marks visited; rebuild marks: candidates keep `candidate`, others reset.
  const std::uint32_t keep = ++stamp_now_;
  for (SphereId j : scratch_) stamp_[j] = keep;
  const std::uint32_t paired = ++stamp_now_;
  for (CertificateBase* c : existing) {
    SphereId other = c->objects()[0] == id ? c->objects()[1] : c->objects()[0];
    if (stamp_[other] != keep) {
      sim_.destroy(c);
    } else {
      stamp_[other] = paired;
    }
  }
  for (SphereId j : scratch_)
    if (stamp_[j] == keep) create_pair(id, j);
}

void SphereWorld::rebuild(SphereId id) {
  destroy_certificates(id, true, true);
  Record& r = spheres_[id];
  if (grid_) {
    CellRange now = region_now(id);
    if (!(now == r.cells)) {
      grid_->erase(id, r.level, r.cells);
      r.cells = now;
      grid_->insert(id, r.level, r.cells);
    }
  }
  create_certificates(id);
}

void SphereWorld::create_certificates(SphereId id) {
  create_faces(id);
  create_walls(id);
  if (!ballistic(id))
    sim_.create<ResetCertificate>(*this, id, spheres_[id].reset_deadline, kResetting,
                                  kGridEventKeys | (std::uint64_t(id) << 8));
  refresh_pairs(id);
}

// ---------------------------------------------------------------- events

void SphereWorld::contact(const Contact& c) {
  contacts_.push_back(c);
  if (c.with_wall) ++wall_contacts_;
  else ++sphere_contacts_;
  sim_.note_external_event();
  for (const auto& f : contact_observers_) f(c);
}

void SphereWorld::separation_failed(BoundCollision& cert, Simulator&) {
  const SphereId a = cert.first(), b = cert.second();
  const double t = sim_.round_clock();
  SphereState sa = probe(a, t), sb = probe(b, t);
  const Vec<3> n = sub(sb.position, sa.position);
  const double gap = norm(n) - spheres_[a].spec.radius - spheres_[b].spec.radius;
  const bool approaching = dot(sub(sa.velocity, sb.velocity), n) > 0;
  // Between two ballistic spheres the certificate is exact: its failure is the contact.
  const bool touching = (ballistic(a) && ballistic(b)) || gap <= settings_.contact_tolerance;
  if (touching && approaching) {
    Contact c{t, a, b, false, Wall::x_lo};
    if (pair_response_) {
      pair_response_(c, sa, sb);
    } else {
      auto [va, vb] = collision_response(sa.position, sa.velocity, spheres_[a].spec.mass, sb.position, sb.velocity,
                                         spheres_[b].spec.mass, settings_.restitution);
      sa.velocity = va;
      sb.velocity = vb;
    }
    // Approaching after the response, beyond the rounding of the response itself (with
    // restitution 0 the default response leaves a relative normal velocity of a few ulps
    // either way).
    const double rounding = 1e-12 * (norm(sa.velocity) + norm(sb.velocity)) * norm(n);
    if (dot(sub(sa.velocity, sb.velocity), n) > rounding)
      throw InvalidInput("contact response for spheres " + std::to_string(a) + " and " + std::to_string(b) +
                         " at t = " + fmt(t) + " left them approaching");
    if (!ballistic(a)) settings_.probe->set_velocity(a, t, sa.velocity);
    if (!ballistic(b)) settings_.probe->set_velocity(b, t, sb.velocity);
    contact(c);
  }
  // Unschedule the old certificates before the motions change: a queued failure time
  // computes its exact value lazily from its certificate's function, which must still be
  // the function that produced it (comparisons in the queue may need it).
  destroy_certificates(a, true, true);
  destroy_certificates(b, true, true);
  reset_bound(a, t, sa);
  reset_bound(b, t, sb);
  rebuild(a);
  rebuild(b);
}

void SphereWorld::plane_crossed(FaceCertificate& cert, Simulator&) {
  const SphereId id = cert.sphere();
  Record& r = spheres_[id];
  if (cert.kind() == kWall) {
    const double t = sim_.round_clock();
    SphereState s = probe(id, t);
    const int k = cert.axis();
    const bool low = cert.side() > 0;
    const double gap = low ? s.position[k] - r.spec.radius - settings_.box.lo[k]
                           : settings_.box.hi[k] - s.position[k] - r.spec.radius;
    const bool into = low ? s.velocity[k] < 0 : s.velocity[k] > 0;
    if ((ballistic(id) || gap <= settings_.contact_tolerance) && into) {
      Contact c{t, id, id, true, wall_of(k, low)};
      if (wall_response_) wall_response_(c, s);
      else s.velocity = wall_response(c.wall, s.velocity, settings_.restitution);
      if (low ? s.velocity[k] < 0 : s.velocity[k] > 0)
        throw InvalidInput("wall response for sphere " + std::to_string(id) + " at t = " + fmt(t) +
                           " left it moving into the wall");
      if (!ballistic(id)) settings_.probe->set_velocity(id, t, s.velocity);
      contact(c);
    }
    destroy_certificates(id, true, true);  // before the motion changes (see separation_failed)
    reset_bound(id, t, s);
    rebuild(id);
    return;
  }
  // A cell face: the region grows or shrinks by one cell on one side of one axis.
  const int k = cert.axis();
  CellRange cells = r.cells;
  if (cert.reach() < 0) {
    if (cert.side() < 0) ++cells.hi[k];
    else --cells.lo[k];
  } else {
    if (cert.side() > 0) --cells.hi[k];
    else ++cells.lo[k];
  }
  grid_->erase(id, r.level, r.cells);
  r.cells = cells;
  grid_->insert(id, r.level, r.cells);
  // Replace this sphere's face certificates, then its pairs.
  std::vector<CertificateBase*>& faces = certificate_scratch_;
  faces.clear();
  for (const ObjectLink& l : sim_.certificates_of(id))
    if (l.owner->objects().size() == 1 && (l.owner->kind() == kEntering || l.owner->kind() == kLeaving))
      faces.push_back(l.owner);
  create_faces(id, &cert);  // before destroying `cert`, which it reads
  for (CertificateBase* c : faces) sim_.destroy(c);
  // Walls come and go with the cells that reach them.
  bool walls_before = false, walls_now = false;
  for (int a = 0; a < 3; ++a)
    for (bool low : {true, false}) walls_now |= region_reaches_wall(id, a, low);
  std::vector<CertificateBase*>& walls = certificate_scratch_;
  walls.clear();
  for (const ObjectLink& l : sim_.certificates_of(id))
    if (l.owner->objects().size() == 1 && l.owner->kind() == kWall) walls.push_back(l.owner);
  walls_before = !walls.empty();
  if (walls_before || walls_now) {
    for (CertificateBase* c : walls) sim_.destroy(c);
    create_walls(id);
  }
  refresh_pairs(id);
}

void SphereWorld::deadline_reached(ResetCertificate& cert, Simulator&) {
  const SphereId id = cert.object();
  const double t = sim_.round_clock();
  const SphereState s = probe(id, t);
  destroy_certificates(id, true, true);  // before the motion changes (see separation_failed)
  reset_bound(id, t, s);
  rebuild(id);
}

// ---------------------------------------------------------------- audit

void SphereWorld::audit(const AuditContext& ctx) const {
  const Rational t = ctx.exact_time();
  const std::size_t n = spheres_.size();
  std::vector<Vec<3>> lo(n), hi(n);
  std::vector<std::array<Rational, 3>> c(n);
  std::vector<Rational> rad(n);
  for (SphereId i = 0; i < n; ++i) {
    rad[i] = radius<Rational>(i, 0.0)(t);
    for (int k = 0; k < 3; ++k) {
      c[i][k] = centre<Rational>(i, k, 0.0)(t);
      lo[i][k] = Rational(c[i][k] - rad[i]).get_d();
      hi[i][k] = Rational(c[i][k] + rad[i]).get_d();
    }
    if (grid_) {
      const Record& r = spheres_[i];
      for (int k = 0; k < 3; ++k)
        if (Rational(c[i][k] - rad[i]) < Rational(grid_->plane(r.level, k, r.cells.lo[k])) ||
            Rational(c[i][k] + rad[i]) > Rational(grid_->plane(r.level, k, r.cells.hi[k] + 1)))
          throw AuditFailure("sphere world: at t = " + fmt(ctx.time) + " the bound of sphere " + std::to_string(i) +
                             " leaves its registered cells on axis " + std::to_string(k));
    }
  }
  // Pairs: bounds whose boxes overlap must have a certificate; ballistic spheres must not
  // overlap beyond the tolerance. O(n^2): audits are for tests.
  const Rational tol(settings_.contact_tolerance);
  for (SphereId i = 0; i < n; ++i) {
    std::vector<char> paired(n, 0);
    for (const ObjectLink& l : sim_.certificates_of(i))
      if (l.owner->objects().size() == 2) paired[l.owner->objects()[0] == i ? l.owner->objects()[1] : l.owner->objects()[0]] = 1;
    for (SphereId j = i + 1; j < n; ++j) {
      bool boxes_meet = true;
      for (int k = 0; k < 3; ++k)
        if (hi[i][k] < lo[j][k] || hi[j][k] < lo[i][k]) boxes_meet = false;
      if (boxes_meet && !paired[j])
        throw AuditFailure("sphere world: at t = " + fmt(ctx.time) + " the bounds of spheres " + std::to_string(i) + " and " +
                           std::to_string(j) + " are close but have no certificate");
      if (ballistic(i) && ballistic(j)) {
        Rational d2 = 0;
        for (int k = 0; k < 3; ++k) d2 += (c[i][k] - c[j][k]) * (c[i][k] - c[j][k]);
        Rational R = rad[i] + rad[j] - tol;
        if (R > 0 && d2 < R * R)
          throw AuditFailure("sphere world: at t = " + fmt(ctx.time) + " spheres " + std::to_string(i) + " and " +
                             std::to_string(j) + " overlap by more than the contact tolerance");
      }
    }
    if (ballistic(i))
      for (int k = 0; k < 3; ++k)
        if (c[i][k] - rad[i] < Rational(settings_.box.lo[k]) - tol || c[i][k] + rad[i] > Rational(settings_.box.hi[k]) + tol)
          throw AuditFailure("sphere world: at t = " + fmt(ctx.time) + " sphere " + std::to_string(i) +
                             " is outside the box by more than the contact tolerance");
  }
}

}  // namespace kds
