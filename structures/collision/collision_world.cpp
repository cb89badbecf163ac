#include "structures/collision/collision_world.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "kds/errors.hpp"
#include "kds/solver.hpp"
#include "structures/collision/approach.hpp"
#include "structures/collision/broad_phase_registry.hpp"
#include "structures/collision/cost_model.hpp"
#include "structures/collision/geometry.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/collision/io/validate_spheres.hpp"
#include "structures/collision/response.hpp"
#include "structures/collision/tie_keys.hpp"

namespace kds {
namespace {

constexpr const char* kCollision = "collision";              // two ballistic spheres meet
constexpr const char* kBoundCollision = "bound collision";  // two bounds meet (one trajectory unknown)
constexpr const char* kWall = "wall";
constexpr const char* kResetting = "resetting";

using text::shortest;

}  // namespace

struct CollisionWorld::Encounter {
  std::array<SphereId, 2> ids{};
  std::uint8_t count = 1;
  bool may_touch = false;  // a pair or a wall; a reset is never a contact
  bool with_wall = false;
  Wall wall = Wall::x_lo;

  static Encounter pair(SphereId a, SphereId b) { return {{a, b}, 2, true, false, Wall::x_lo}; }
  static Encounter at_wall(SphereId id, Wall w) { return {{id, id}, 1, true, true, w}; }
  static Encounter reset(SphereId id) { return {{id, id}, 1, false, false, Wall::x_lo}; }
  std::span<const SphereId> spheres() const { return {ids.data(), count}; }
  Contact contact(double t) const { return Contact{t, ids[0], ids[1], with_wall, wall}; }
};

// ---------------------------------------------------------------- construction

CollisionWorld::CollisionWorld(Simulator& sim, const CollisionWorldSettings& settings,
                               const std::vector<Sphere>& spheres)
    : sim_(sim), settings_(settings), broad_phase_(make_broad_phase(settings.broad_phase)) {
  validate(spheres);
  // The local frame: exact translations of the box and of every position in it.
  origin_ = local_origin(settings_.box);
  std::vector<Sphere> local = spheres;
  for (int k = 0; k < 3; ++k) {
    box_.lo[k] = settings_.box.lo[k] - origin_[k];
    box_.hi[k] = settings_.box.hi[k] - origin_[k];
    for (Sphere& s : local) s.position[k] -= origin_[k];
  }
  const double t = sim_.round_clock();
  for (const Sphere& s : local)
    body_.push_back(sim_.bodies().insert(Motion<3>::accelerated(t, s.position, s.velocity, {0, 0, 0})));
  owns_bodies_ = true;
  build(local);
}

CollisionWorld::CollisionWorld(Simulator& sim, const CollisionWorldSettings& settings, std::vector<Sphere> spheres,
                               const std::vector<BodyId>& bodies)
    : sim_(sim), settings_(settings), broad_phase_(make_broad_phase(settings.broad_phase)) {
  if (bodies.size() != spheres.size())
    throw InvalidInput("CollisionWorld: " + std::to_string(spheres.size()) + " spheres for " +
                       std::to_string(bodies.size()) + " bodies");
  const double t = sim_.round_clock();
  std::vector<char> seen(sim_.bodies().index_bound(), 0);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string what = "CollisionWorld: sphere " + std::to_string(i);
    sim_.bodies().require(bodies[i], what);
    if (sim_.bodies().dimension(bodies[i]) != 3)
      throw InvalidInput(what + ": body " + std::to_string(bodies[i].index) + " is not 3D");
    if (seen[bodies[i].index]++)
      throw InvalidInput(what + ": body " + std::to_string(bodies[i].index) + " is given twice");
    const Motion<3>& m = sim_.bodies().motion_as<3>(bodies[i]);
    spheres[i].position = m.position(t);
    spheres[i].velocity = m.velocity(t);
  }
  validate(spheres);
  box_ = settings_.box;  // the user's frame: origin 0
  body_ = bodies;
  build(spheres);
}

void CollisionWorld::build(const std::vector<Sphere>& spheres) {
  try {
    validate_polytopes(spheres);
    const double ratio = settings_.cell_ratio > 0 ? settings_.cell_ratio : choose_cell_ratio(spheres, box_);
    if (ratio < 2) throw InvalidInput("CollisionWorld: cell_ratio must be at least 2 (cell side >= twice the diameter)");
    cell_sides_ = CellSides(spheres, ratio, settings_.box);
    spheres_.resize(spheres.size());
    sphere_of_.assign(sim_.bodies().index_bound(), no_sphere);
    for (std::size_t i = 0; i < spheres.size(); ++i) {
      Record& r = spheres_[i];
      r.spec = spheres[i];
      r.bound.radius = spheres[i].radius;
      r.bound.acceleration = spheres[i].max_acceleration;
      r.level = cell_sides_.level_of(spheres[i].radius);
      sim_.bodies().hold(body_[i]);
      sphere_of_[body_[i].index] = static_cast<SphereId>(i);
    }
    pairs_.resize(spheres.size());
    stamp_.assign(spheres.size(), 0);
    const double t = sim_.round_clock();
    for (SphereId i = 0; i < spheres_.size(); ++i)
      reset_bound(i, t, SphereState{spheres[i].position, spheres[i].velocity});
    broad_phase_->start(*this);
    for (SphereId i = 0; i < spheres_.size(); ++i) create_certificates(i);
  } catch (...) {
    for (SphereId i = 0; i < spheres_.size(); ++i) destroy_certificates(i);
    broad_phase_.reset();
    release_bodies();
    throw;
  }
  motion_subscription_ = sim_.bodies().on_motion_change().subscribe([this](BodyId b) { motion_changed_elsewhere(b); });
  sim_.attach(*this);
}

CollisionWorld::~CollisionWorld() {
  // A destructor must not throw (it may run while an exception unwinds the stack): a
  // world left inconsistent by an error is still taken apart as far as possible.
  try {
    if (motion_subscription_ != 0) sim_.bodies().on_motion_change().unsubscribe(motion_subscription_);
    for (SphereId i = 0; i < spheres_.size(); ++i) destroy_certificates(i);
    broad_phase_.reset();  // its certificates read the bounds
  } catch (...) {
  }
  release_bodies();
  sim_.detach(*this);
}

void CollisionWorld::validate(const std::vector<Sphere>& spheres) const { validate_input(settings_, spheres); }

void CollisionWorld::validate_input(const CollisionWorldSettings& settings_, const std::vector<Sphere>& spheres) {
  if (auto problem = box_problem(settings_.box)) throw InvalidInput("CollisionWorld: " + *problem);
  if (auto problem = tolerance_problem(settings_.contact_tolerance, settings_.box))
    throw InvalidInput("CollisionWorld: contact_tolerance " + *problem);
  if (!(settings_.restitution >= 0 && settings_.restitution <= 1))
    throw InvalidInput("CollisionWorld: restitution must lie in [0, 1]");
  if (auto problem = gravity_problem(settings_.gravity)) throw InvalidInput("CollisionWorld: " + *problem);
  // Values, range, placement in the box and overlaps, exactly (the same rules as scene files).
  validate_spheres(spheres, settings_.box);
  for (std::size_t i = 0; i < spheres.size(); ++i)
    if (spheres[i].polytope && spheres[i].max_acceleration > 0)
      throw InvalidInput("sphere " + std::to_string(i) + " (a polytope): a polytope must be ballistic (max_acceleration 0), got " +
                         shortest(spheres[i].max_acceleration));
  if (settings_.probe == nullptr)
    for (std::size_t i = 0; i < spheres.size(); ++i)
      if (spheres[i].max_acceleration > 0)
        throw InvalidInput("sphere " + std::to_string(i) +
                           ": has an unknown trajectory (max_acceleration > 0) but no TrajectoryProbe was given");
}

// ---------------------------------------------------------------- bodies

void CollisionWorld::release_bodies() noexcept {
  Bodies& bodies = sim_.bodies();
  for (SphereId i = 0; i < spheres_.size() && i < body_.size(); ++i) {
    bodies.release(body_[i]);
    if (!sphere_of_.empty()) sphere_of_[body_[i].index] = no_sphere;
  }
  if (!owns_bodies_) return;
  // Bodies another structure still holds, or still certified, stay: erasing them would
  // throw, and a destructor must not.
  for (BodyId b : body_)
    if (bodies.contains(b) && bodies.holders(b) == 0 && bodies.certificates_of(b).empty()) bodies.erase(b);
}

void CollisionWorld::motion_changed_elsewhere(BodyId b) {
  if (changing_motion_ || b.index >= sphere_of_.size() || sphere_of_[b.index] == no_sphere) return;
  // A flight-plan update from outside the world: the new motion is the truth from now on
  // (the clock was rounded by set_motion). The bound restarts equal to the sphere there.
  const SphereId id = sphere_of_[b.index];
  const double t = sim_.now().lo();
  begin_instant(t);
  destroy_certificates(id);
  broad_phase_->bound_will_reset(id);
  spheres_[id].bound.reset_time = t;
  if (!ballistic(id)) {
    const SphereState s = state(id, t);
    settings_.probe->set_velocity(id, t, s.velocity);
    spheres_[id].reset_deadline = t + spheres_[id].bound.time_to_fill(cell_sides_.side(spheres_[id].level));
  }
  broad_phase_->bound_was_reset(id);
  create_certificates(id);
}

// ---------------------------------------------------------------- the contact pipeline

void CollisionWorld::separation_failed(PairCertificate& c, Simulator&) {
  encounter(Encounter::pair(sphere_of(c.first()), sphere_of(c.second())));
}

void CollisionWorld::plane_crossed(WallCertificate& c, Simulator&) {
  encounter(Encounter::at_wall(sphere_of(c.sphere()), wall_of(c.axis(), c.side() > 0)));
}

void CollisionWorld::deadline_reached(ResetCertificate& c, Simulator&) {
  encounter(Encounter::reset(sphere_of(c.object())));
}

void CollisionWorld::facet_failed(FacetCertificate& c, Simulator&) {
  const SphereId a = sphere_of(c.first()), b = sphere_of(c.second());
  const double t = sim_.round_clock();
  begin_instant(t);
  // A negative allowance was set to make the pair fail now, in contact at this instant
  // (create_polytope_pair): a contact, even if the rounding of positions put it an ulp apart.
  if (c.allowance() >= 0 && choose_facet(a, b, t).separating) {
    // Another facet of their Minkowski difference separates them now: it replaces this
    // one, and there is no contact (collision_world_polytopes.cpp).
    const auto& list = pairs_.of(a);
    for (std::size_t i = 0; i < list.size(); ++i)
      if (list[i].certificate == &c) {
        pairs_.erase(a, i);
        break;
      }
    sim_.destroy(&c);
    create_pair(a, b);
    ++facet_switches_;
    return;
  }
  encounter(Encounter::pair(a, b));
}

void CollisionWorld::encounter(const Encounter& e) {
  const std::span<const SphereId> ids = e.spheres();
  const double t = sim_.round_clock();  // motions change at a double (docs/architecture.md, section 6)
  begin_instant(t);
  // A certificate over ballistic spheres is exact: its failure is a contact at the instant.
  if (e.may_touch && ballistic(e.ids[0]) && ballistic(e.ids[1]))
    touching_now_.push_back(e.with_wall ? tie_key::wall(e.ids[0], e.wall) : tie_key::pair(e.ids[0], e.ids[1]));
  std::array<SphereState, 2> s;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    s[i] = probe(ids[i], t);
    max_speed_ = std::max(max_speed_, norm(s[i].velocity));
  }
  if (e.may_touch) {
    Contact c = e.contact(t);
    if (!e.with_wall && is_polytope(c.a)) c.normal = polytope_normal(c.a, c.b, t);
    if (touching(c, s)) {
      respond(c, s);
      separate(c, s);
      for (std::size_t i = 0; i < ids.size(); ++i)
        if (!ballistic(ids[i])) settings_.probe->set_velocity(ids[i], t, s[i].velocity);
      record(c);
    }
  }
  restart(ids, t, {s.data(), ids.size()});
}

SphereState CollisionWorld::probe(SphereId id, double t) {
  if (ballistic(id)) return local_state(id, t);
  SphereState s = settings_.probe->state(id, t);
  ++probes_;
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(s.position[k]) || !std::isfinite(s.velocity[k]))
      throw InvalidInput("sphere " + std::to_string(id) + ": the probe returned a NaN or infinite state at t = " +
                         shortest(t));
  for (int k = 0; k < 3; ++k) s.position[k] -= origin_[k];
  check_within_bound(id, spheres_[id].bound, centre_motion(id), t, s);
  for (int k = 0; k < 3; ++k)
    if (s.position[k] < box_.lo[k] - settings_.contact_tolerance ||
        s.position[k] > box_.hi[k] + settings_.contact_tolerance)
      throw InvalidInput("sphere " + std::to_string(id) + ": the probe put its centre outside the box at t = " +
                         shortest(t));
  return s;
}

bool CollisionWorld::touching(const Contact& c, const std::array<SphereState, 2>& s) const {
  const Sphere& a = spheres_[c.a].spec;
  if (c.with_wall) {
    const int k = wall_axis(c.wall);
    const bool low = wall_is_low(c.wall);
    const double r = wall_reach(c.a, c.wall);
    const double gap = low ? s[0].position[k] - r - box_.lo[k] : box_.hi[k] - s[0].position[k] - r;
    const bool into = low ? s[0].velocity[k] < 0 : s[0].velocity[k] > 0;
    return (ballistic(c.a) || gap <= settings_.contact_tolerance) && into;
  }
  // Two polytopes: their separating-plane certificate is exact, and c.normal the facet's.
  if (is_polytope(c.a)) return approach_beyond_rounding(s[0], s[1], c.normal);
  const Vec<3> n = sub(s[1].position, s[0].position);
  const double gap = norm(n) - a.radius - spheres_[c.b].spec.radius;
  // Between two ballistic spheres the certificate is exact: its failure is the contact.
  return ((ballistic(c.a) && ballistic(c.b)) || gap <= settings_.contact_tolerance) &&
         approach_beyond_rounding(s[0], s[1]);
}

void CollisionWorld::respond(const Contact& c, std::array<SphereState, 2>& s) {
  if (c.with_wall) {
    if (wall_response_) user_response(wall_response_, c, s[0]);
    else s[0].velocity = wall_response(c.wall, s[0].velocity, settings_.restitution);
    const int k = wall_axis(c.wall);
    if (wall_is_low(c.wall) ? s[0].velocity[k] < 0 : s[0].velocity[k] > 0)
      throw InvalidInput("wall response for sphere " + std::to_string(c.a) + " at t = " + shortest(c.time) +
                         " left it moving into the wall");
    return;
  }
  if (pair_response_) {
    user_response(pair_response_, c, s[0], s[1]);
  } else {
    // Polytopes: the impulse acts along the contact normal instead of the line of centres.
    const Vec<3> zero{0, 0, 0};
    const bool poly = is_polytope(c.a);
    auto [va, vb] = collision_response(poly ? zero : s[0].position, s[0].velocity, spheres_[c.a].spec.mass,
                                       poly ? c.normal : s[1].position, s[1].velocity, spheres_[c.b].spec.mass,
                                       settings_.restitution);
    s[0].velocity = va;
    s[1].velocity = vb;
  }
  if (is_polytope(c.a) ? approach_beyond_rounding(s[0], s[1], c.normal) : approach_beyond_rounding(s[0], s[1]))
    throw InvalidInput("contact response for spheres " + std::to_string(c.a) + " and " + std::to_string(c.b) +
                       " at t = " + shortest(c.time) + " left them approaching");
}

void CollisionWorld::separate(const Contact& c, std::array<SphereState, 2>& s) const {
  // Ballistic spheres only: an unknown trajectory's state is its integrator's.
  if (c.with_wall) {
    if (!ballistic(c.a)) return;
    const int k = wall_axis(c.wall);
    const bool low = wall_is_low(c.wall);
    const double x = touching_coordinate(wall_plane(box_, c.wall), wall_reach(c.a, c.wall), low);
    if (low ? s[0].position[k] < x : s[0].position[k] > x) s[0].position[k] = x;
    return;
  }
  if (!ballistic(c.a) || !ballistic(c.b)) return;
  // Polytopes stay where they are: their certificate's allowance covers the few ulps of
  // overlap the rounding of the clock may leave (create_polytope_pair).
  if (is_polytope(c.a)) return;
  // Never along an axis in which neither sphere moves: a planar motion stays planar.
  std::array<bool, 3> movable{};
  for (int k = 0; k < 3; ++k)
    movable[k] = s[0].velocity[k] != 0 || s[1].velocity[k] != 0 || settings_.gravity[k] != 0;
  separate_pair(s[0].position, spheres_[c.a].spec.radius, spheres_[c.a].spec.mass, s[1].position,
                spheres_[c.b].spec.radius, spheres_[c.b].spec.mass, movable);
}

void CollisionWorld::record(const Contact& c) {
  if (keep_contacts_) contacts_.push_back(c);
  if (c.with_wall) ++wall_contacts_;
  else ++sphere_contacts_;
  sim_.note_external_event();
  for (const auto& f : contact_observers_) f(c);
}

void CollisionWorld::restart(std::span<const SphereId> ids, double t, std::span<const SphereState> states) {
  // Unschedule the old certificates before the motions change: a queued failure time
  // computes its exact value lazily from its certificate's function, which must still be
  // the function that produced it (comparisons in the queue may need it).
  // A pair whose partner stays a candidate keeps its certificate: renewed (its memory,
  // id and place in the pair table kept), as if destroyed here and created in
  // create_certificates (Simulator::begin_renew, end_renew in refresh_pairs).
  // A bound that restarts inside the old one (restarts_inside: no contact changed the
  // sphere's velocity, as at most bound collisions) keeps every proof made over the old
  // one: its pair and wall certificates that are idle (apart up to their horizon) or
  // deferred (apart before their queued time) stay as they are, with no failure time
  // computed (Simulator::keep), and its deadline stays, the horizon of those proofs. (A
  // pair certificate with an allowance is renewed: its function is not the bounds' gap.)
  restarting_ = {no_sphere, no_sphere};
  any_inside_ = false;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    restarting_[i] = ids[i];
    // (At its deadline a bound starts afresh: the proofs end there.)
    const Record& r = spheres_[ids[i]];
    restarts_inside_[i] = !ballistic(ids[i]) && t < r.reset_deadline &&
                          restarts_inside(r.bound, centre_motion(ids[i]), t, states[i]);
    any_inside_ |= restarts_inside_[i];
  }
  dropped_.clear();
  for (SphereId id : ids) {
    destroy_certificates(id, true);
    broad_phase_->bound_will_reset(id);
  }
  for (std::size_t i = 0; i < ids.size(); ++i) reset_bound(ids[i], t, states[i], restarts_inside_[i]);
  for (SphereId id : ids) broad_phase_->bound_was_reset(id);
  // Candidates depend on the bounds of the restarting spheres only: the same for all of
  // them when none of their regions changed.
  bool same_candidates = true;
  for (SphereId id : ids) same_candidates = same_candidates && broad_phase_->candidates_kept(id);
  for (SphereId id : ids) create_certificates(id, same_candidates);
  restarting_ = {no_sphere, no_sphere};
  any_inside_ = false;
}

bool CollisionWorld::restarting_inside(SphereId id) const {
  if (!any_inside_) return false;
  for (std::size_t i = 0; i < restarting_.size(); ++i)
    if (restarting_[i] == id) return restarts_inside_[i];
  return false;
}

bool CollisionWorld::keeps_proofs(SphereId id) const {
  for (std::size_t i = 0; i < restarting_.size(); ++i)
    if (restarting_[i] == id) return restarts_inside_[i];
  return true;
}

void CollisionWorld::reset_bound(SphereId id, double t, const SphereState& s, bool keep_deadline) {
  Record& r = spheres_[id];
  r.bound.reset_time = t;
  max_speed_ = std::max(max_speed_, norm(s.velocity));
  // The world's own motion change: its certificates over the sphere are gone already
  // (restart), so set_motion reschedules only other structures' certificates.
  changing_motion_ = true;
  struct Done {
    bool& flag;
    ~Done() { flag = false; }
  } done{changing_motion_};
  const Vec<3> no_gravity{0, 0, 0};
  sim_.bodies().set_motion(body_[id], Motion<3>::accelerated(t, s.position, s.velocity,
                                                             ballistic(id) ? settings_.gravity : no_gravity));
  // Eq. (8); a bound that restarted inside the old one fills its cell later, so the old
  // deadline is still in time.
  if (!ballistic(id) && !keep_deadline) r.reset_deadline = t + r.bound.time_to_fill(cell_sides_.side(r.level));
}

bool CollisionWorld::bound_is_exact(SphereId id, double t) const {
  return ballistic(id) || spheres_[id].bound.reset_time == t;
}

double CollisionWorld::horizon(SphereId id) const {
  return ballistic(id) ? std::numeric_limits<double>::infinity() : spheres_[id].reset_deadline;
}

SphereState CollisionWorld::local_state(SphereId id, double t) const {
  const Motion<3>& m = centre_motion(id);
  return SphereState{m.position(t), m.velocity(t)};
}

SphereState CollisionWorld::state(SphereId id, double t) const {
  SphereState s = local_state(id, t);
  for (int k = 0; k < 3; ++k) s.position[k] += origin_[k];
  return s;
}

template <class F, class... States>
void CollisionWorld::user_response(const F& f, const Contact& c, States&... s) const {
  // Positions in the user's coordinates; only the velocities come back.
  auto global = [&](SphereState x) {
    for (int k = 0; k < 3; ++k) x.position[k] += origin_[k];
    return x;
  };
  std::array<SphereState, sizeof...(States)> g{global(s)...};
  std::apply([&](auto&... x) { f(c, x...); }, g);
  std::size_t i = 0;
  ((s.velocity = g[i++].velocity), ...);
}

double CollisionWorld::kinetic_energy(double t) const {
  double e = 0;
  for (SphereId i = 0; i < spheres_.size(); ++i) {
    const Vec<3> v = state(i, t).velocity;
    e += 0.5 * spheres_[i].spec.mass * dot(v, v);
  }
  return e;
}

// ---------------------------------------------------------------- contacts at one instant

// Several contacts at one instant (four spheres converging on a point) are processed one
// by one at the rounded clock, in tie-key order (Simulator::round_clock moves them all
// there). A response changes the motions of its spheres, and their certificates are made
// again from the new motions, rounded to doubles: a pair that touched at the instant would
// then seem to meet a few ulps later, or a few ulps ago. So the world remembers which
// pairs and walls were failing at the instant when their certificates went, and makes
// theirs again failing now if they still approach: each response sees the velocities
// left by the previous one, and the next contact of the instant is the next in tie order.
// Between ballistic spheres only: a failure over an unknown trajectory's bound is no
// contact by itself (the probe decides).

void CollisionWorld::begin_instant(double t) {
  if (t == instant_) return;
  instant_ = t;
  touching_now_.clear();
}

void CollisionWorld::note_if_failing_now(const CertificateBase& c) {
  // Scheduled at the instant: Simulator::round_clock moved every queued event at or before
  // the rounded clock to exactly it, so no comparison of roots is needed (the certificate
  // being processed, whose exact time lies an ulp before, is taken by encounter).
  const Root& f = c.failure_time();
  if (f.is_point() && f.lo() == instant_ && sim_.now().is_point() && sim_.now().lo() == instant_)
    touching_now_.push_back(c.tie_key());
}

bool CollisionWorld::touching_at_instant(std::uint64_t key, double t0) const {
  return t0 == instant_ && std::find(touching_now_.begin(), touching_now_.end(), key) != touching_now_.end();
}

double CollisionWorld::clock_rounding_depth(double t, double speed) const {
  return 2 * std::max(max_speed_, speed) * (std::nextafter(t, HUGE_VAL) - t);
}

// ---------------------------------------------------------------- certificates

void CollisionWorld::create_certificates(SphereId id, bool same_candidates) {
  refresh_walls(id);
  if (!ballistic(id))
    spheres_[id].reset =
        sim_.create<ResetCertificate>(*this, body_[id], spheres_[id].reset_deadline, kResetting, tie_key::bookkeeping(id, 0));
  if (same_candidates) refresh_same_pairs(id);
  else refresh_pairs(id);
}

void CollisionWorld::destroy_certificates(SphereId id, bool renew_pairs) {
  // From the back, so that the pair moved into an erased slot has been looked at already.
  for (std::size_t i = pairs_.of(id).size(); i-- > 0;) {
    const auto [other, c] = pairs_.of(id)[i];
    if (ballistic(id) && ballistic(other)) note_if_failing_now(*c);
    // Renewed: a sphere pair, not the certificate whose failure is the clock (the clock
    // keeps its old function's value: that one is made anew). Kept as it is when its proof
    // holds of the restarted bounds (restart).
    if (renew_pairs && !is_polytope(id) && !is_polytope(other) && sim_.now().source() != c) {
      if (any_inside_ && keeps_proofs(id) && keeps_proofs(other) && static_cast<PairCertificate*>(c)->allowance() == 0 &&
          sim_.keep(c))
        continue;
      if (renewing_.size() <= c->id()) renewing_.resize(std::size_t{c->id()} + 1, 0);
      if (!renewing_[c->id()]) {  // (a pair of two resetting spheres is listed by both)
        renewing_[c->id()] = 1;
        sim_.begin_renew(c, {body_[std::min(id, other)], body_[std::max(id, other)]});
      }
      continue;
    }
    pairs_.erase(id, i);
    if (c->id() < renewing_.size()) renewing_[c->id()] = 0;
    sim_.destroy(c);
    if (renew_pairs) dropped_.emplace_back(id, other);
  }
  Record& r = spheres_[id];
  for (WallCertificate*& w : r.walls)
    if (w != nullptr) {
      if (renew_pairs && any_inside_ && keeps_proofs(id) && w->allowance() == 0 && sim_.keep(w)) continue;
      if (ballistic(id)) note_if_failing_now(*w);
      sim_.destroy(w);
      w = nullptr;
    }
  if (r.reset != nullptr) {
    sim_.destroy(r.reset);
    r.reset = nullptr;
  }
}

void CollisionWorld::candidates_changed(SphereId id) {
  refresh_walls(id);
  refresh_pairs(id);
}

void CollisionWorld::refresh_walls(SphereId id) {
  Record& r = spheres_[id];
  for (int w = 0; w < wall_count; ++w) {
    const bool reach = broad_phase_->may_reach_wall(id, static_cast<Wall>(w));
    if (reach && r.walls[w] == nullptr) {
      create_wall(id, static_cast<Wall>(w));
    } else if (!reach && r.walls[w] != nullptr) {
      sim_.destroy(r.walls[w]);
      r.walls[w] = nullptr;
    }
  }
}

void CollisionWorld::refresh_pairs(SphereId id) {
  candidates_.clear();
  broad_phase_->candidates(id, candidates_);
  if (stamp_now_ > std::numeric_limits<std::uint32_t>::max() - 2) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    stamp_now_ = 0;
  }
  const std::uint32_t candidate = ++stamp_now_, paired = ++stamp_now_;
  for (SphereId j : candidates_) stamp_[j] = candidate;
  // Pairs whose partner is no longer a candidate go. From the back, so that the pair
  // moved into an erased slot has been looked at already.
  for (std::size_t i = pairs_.of(id).size(); i-- > 0;) {
    const auto [other, c] = pairs_.of(id)[i];
    const bool renewing = c->id() < renewing_.size() && renewing_[c->id()];
    if (renewing) renewing_[c->id()] = 0;
    if (stamp_[other] == candidate) {
      stamp_[other] = paired;
      if (renewing) {
        sim_.end_renew(c);
        configure_pair(static_cast<PairCertificate*>(c), std::min(id, other), std::max(id, other));
      }
    } else {
      pairs_.erase(id, i);
      sim_.destroy(c);
    }
  }
  for (SphereId j : candidates_)
    if (stamp_[j] == candidate) create_pair(id, j);
}

void CollisionWorld::refresh_same_pairs(SphereId id) {
  // Every candidate had a pair before the restart (refresh_pairs keeps them so): end the
  // renewals, and make again the pairs the restart destroyed.
  for (const auto& [other, c] : pairs_.of(id))
    if (c->id() < renewing_.size() && renewing_[c->id()]) {
      renewing_[c->id()] = 0;
      sim_.end_renew(c);
      configure_pair(static_cast<PairCertificate*>(c), std::min(id, other), std::max(id, other));
    }
  for (const auto& [a, b] : dropped_)
    if (a == id && pairs_.find(a, b) == nullptr) create_pair(a, b);
}

void CollisionWorld::create_pair(SphereId a, SphereId b) {
  if (a > b) std::swap(a, b);
  if (is_polytope(a)) return create_polytope_pair(a, b);
  const char* kind = ballistic(a) && ballistic(b) ? kCollision : kBoundCollision;
  PairCertificate* c = sim_.create<PairCertificate>(*this, body_[a], body_[b], kind, tie_key::pair(a, b));
  pairs_.insert(a, b, c);
  configure_pair(c, a, b);
}

void CollisionWorld::configure_pair(PairCertificate* c, SphereId a, SphereId b) {
  c->set_horizon(std::min(horizon(a), horizon(b)));
  c->set_allowance(0);
  // The allowance is a function of the two motions alone, decided at the later of their
  // starts t0 (when the pair was last possibly put in contact), whenever the certificate is
  // created: a broad phase may create it as regions meet, all-pairs when motions change,
  // and both must schedule the same function.
  const double t0 = std::max(spheres_[a].bound.reset_time, spheres_[b].bound.reset_time);
  if (!bound_is_exact(a, t0) || !bound_is_exact(b, t0)) return;
  const bool instant = touching_at_instant(tie_key::pair(a, b), t0);
  const SphereState sa = local_state(a, t0), sb = local_state(b, t0);
  const Vec<3> d = sub(sa.position, sb.position);
  const double R = spheres_[a].spec.radius + spheres_[b].spec.radius, d2 = dot(d, d);
  // Clearly apart at t0 (in doubles, with a margin far above their rounding): no allowance.
  if (!instant && d2 - R * R > 1e-9 * (d2 + R * R)) return;
  if (approach_beyond_rounding(sa, sb)) {
    // Approaching while in contact (one of the contacts of this instant, or in each other
    // after a response at a rounded time): it fails now. Apart, it meets later.
    const Rational f0 = c->exact_value_at(t0);
    if (instant || sgn(f0) <= 0) c->set_allowance(-ceil_to_double(f0));
    return;
  }
  // In contact and at rest or moving apart (after a response at a rounded time the pair
  // may overlap by a few ulps). Approaching more slowly than the rounding of a response
  // can leave a pair counts as at rest: f = |d|^2 - R^2 decreases at twice the approach.
  const double allowance = allowance_at(*c, t0, 2 * response_rounding(sa, sb, d));
  const double depth = allowance / (2 * R);
  if (depth > settings_.contact_tolerance + clock_rounding_depth(t0, norm(sa.velocity) + norm(sb.velocity)))
    throw std::logic_error("CollisionWorld: spheres " + std::to_string(a) + " and " + std::to_string(b) +
                           " overlap by " + shortest(depth) + " at t = " + shortest(t0) +
                           ", beyond the contact tolerance");
  c->set_allowance(allowance);
}

void CollisionWorld::create_wall(SphereId id, Wall w) {
  Record& r = spheres_[id];
  const int k = wall_axis(w);
  const double plane = wall_plane(box_, w);
  const int side = wall_is_low(w) ? +1 : -1;
  WallCertificate* c = sim_.create<WallCertificate>(*this, body_[id], k, plane, side, kWall, tie_key::wall(id, w), -1);
  r.walls[static_cast<int>(w)] = c;
  const double reach = wall_reach(id, w);
  if (r.spec.polytope) c->set_fixed_radius(reach);
  c->set_horizon(horizon(id));
  // As for pairs: the allowance is decided at the start t0 of the motion, whenever the
  // certificate is created (a broad phase creates wall certificates as its regions reach
  // the wall, all-pairs at every motion change).
  const double t0 = r.bound.reset_time;
  const bool instant = touching_at_instant(tie_key::wall(id, w), t0);
  const SphereState s = local_state(id, t0);
  const double x = s.position[k];
  const double clearance = side * (x - plane) - reach;
  if (!instant && clearance > 1e-9 * (std::fabs(x) + std::fabs(plane) + reach)) return;
  if (bound_is_exact(id, t0) && side * s.velocity[k] < 0) {
    // Moving into the wall while touching it: it fails now (as for pairs).
    const Rational f0 = c->exact_value_at(t0);
    if (instant || sgn(f0) <= 0) c->set_allowance(-ceil_to_double(f0));
    return;
  }
  const double allowance = allowance_at(*c, t0);
  if (allowance > settings_.contact_tolerance + clock_rounding_depth(t0, norm(s.velocity)))
    throw std::logic_error("CollisionWorld: sphere " + std::to_string(id) + " is " + shortest(allowance) +
                           " beyond a wall at t = " + shortest(t0) + ", more than the contact tolerance");
  c->set_allowance(allowance);
}

const CollisionWorld::WallCertificate* CollisionWorld::wall_certificate(SphereId id, Wall w) const {
  return spheres_[id].walls[static_cast<int>(w)];
}

}  // namespace kds
