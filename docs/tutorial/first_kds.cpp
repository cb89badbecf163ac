// The code of docs/tutorial-first-kds.md: a kinetic sorted list written from scratch on
// top of the kds core. The tutorial quotes this file; check_snippets.cmake makes sure
// every quoted block is still here, word for word.
//
//   kds_tutorial_first_kds [seed]    (exit status 0 when the list matches a sort)
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <utility>
#include <vector>

#include "kds/errors.hpp"
#include "kds/simulator.hpp"

/// A point of the scene: x(t) = x0 + v t.
struct Point {
  double x0;
  double v;
};

class MySortedList;

/// "left is not after right": x_right(t) - x_left(t) >= 0.
class Adjacent final : public kds::Certificate<Adjacent> {
 public:
  Adjacent(MySortedList& list, kds::BodyId left, kds::BodyId right)
      : kds::Certificate<Adjacent>({left, right}), list_(&list) {}

  kds::BodyId left() const { return bodies()[0]; }
  kds::BodyId right() const { return bodies()[1]; }

  /// The certificate function, in s = t - origin, in any number type NT.
  template <class NT>
  kds::Polynomial<NT> function(double origin) const;
  /// Called by the simulator when the function becomes negative: repair the list.
  void on_failure(kds::Simulator& sim) override;
  const char* kind() const override { return "adjacent"; }

 private:
  MySortedList* list_;
};

class MySortedList final : public kds::Structure {
 public:
  /// Keeps the given 1D bodies of `sim` in increasing order of their x-coordinates.
  MySortedList(kds::Simulator& sim, std::vector<kds::BodyId> points);
  ~MySortedList() override;
  MySortedList(const MySortedList&) = delete;
  MySortedList& operator=(const MySortedList&) = delete;

  /// The position of a point as a polynomial in s = t - origin, computed in NT.
  template <class NT>
  kds::Polynomial<NT> position(kds::BodyId id, double origin) const {
    return sim_.bodies().coordinate<NT>(id, 0, origin);
  }
  /// The failure handler of the certificate between ranks i and i + 1.
  void swap(Adjacent& failed);

  const std::vector<kds::BodyId>& order() const { return order_; }
  std::uint64_t swaps() const { return swaps_; }

  const char* name() const override { return "my sorted list"; }
  void audit(const kds::AuditContext& ctx) const override;

 private:
  /// Replaces the certificate between ranks i and i + 1 by a new one.
  void relink(std::size_t i, kds::Birth birth);

  kds::Simulator& sim_;
  std::vector<kds::BodyId> order_;         // bodies by increasing position
  std::vector<std::size_t> rank_;          // rank_[id.index]: index of id in order_
  std::vector<Adjacent*> certificates_;    // certificates_[i] joins order_[i] and order_[i + 1]
  std::uint64_t swaps_ = 0;
};

template <class NT>
kds::Polynomial<NT> Adjacent::function(double origin) const {
  return list_->position<NT>(right(), origin) - list_->position<NT>(left(), origin);
}

void Adjacent::on_failure(kds::Simulator&) { list_->swap(*this); }

MySortedList::MySortedList(kds::Simulator& sim, std::vector<kds::BodyId> points)
    : sim_(sim), order_(std::move(points)), rank_(sim.bodies().index_bound()) {
  for (kds::BodyId id : order_) sim_.bodies().hold(id);  // erasing them is now an error
  // Sort by position just after now: x_b - x_a > 0 just after now means a comes first.
  // The core decides the sign (intervals first, exactly if they cannot).
  std::sort(order_.begin(), order_.end(), [&](kds::BodyId a, kds::BodyId b) {
    auto b_minus_a = kds::make_function(
        [&]<class NT>(double origin) { return position<NT>(b, origin) - position<NT>(a, origin); });
    return kds::sign_just_after(b_minus_a, sim_.now(), sim_.exactness()) == kds::Sign::positive;
  });
  for (std::size_t i = 0; i < order_.size(); ++i) rank_[order_[i].index] = i;
  certificates_.assign(order_.empty() ? 0 : order_.size() - 1, nullptr);
  for (std::size_t i = 0; i < certificates_.size(); ++i) relink(i, kds::Birth::generic);
  sim_.attach(*this);
}

MySortedList::~MySortedList() {
  for (Adjacent* c : certificates_) sim_.destroy(c);
  for (kds::BodyId id : order_) sim_.bodies().release(id);
  sim_.detach(*this);
}

void MySortedList::relink(std::size_t i, kds::Birth birth) {
  if (certificates_[i] != nullptr) sim_.destroy(certificates_[i]);
  certificates_[i] = birth == kds::Birth::vanishes_now
                         ? sim_.create_vanishing_now<Adjacent>(*this, order_[i], order_[i + 1])
                         : sim_.create<Adjacent>(*this, order_[i], order_[i + 1]);
}

void MySortedList::swap(Adjacent& failed) {
  const std::size_t i = rank_[failed.left().index];
  std::swap(order_[i], order_[i + 1]);
  rank_[order_[i].index] = i;
  rank_[order_[i + 1].index] = i + 1;
  ++swaps_;
  sim_.note_external_event();
  // The two points are at the same place now and the new left one is moving away to
  // the left: the new certificate vanishes now and is positive just after.
  relink(i, kds::Birth::vanishes_now);
  // Its neighbours now join different pairs: replace them too.
  if (i > 0) relink(i - 1, kds::Birth::generic);
  if (i + 1 < certificates_.size()) relink(i + 1, kds::Birth::generic);
}

void MySortedList::audit(const kds::AuditContext& ctx) const {
  const kds::Rational t = ctx.exact_time();
  for (std::size_t i = 0; i + 1 < order_.size(); ++i) {
    const Adjacent* c = certificates_[i];
    if (c->left() != order_[i] || c->right() != order_[i + 1])
      throw kds::AuditFailure("certificate " + std::to_string(i) + " joins the wrong points");
    if (position<kds::Rational>(order_[i], 0.0)(t) > position<kds::Rational>(order_[i + 1], 0.0)(t))
      throw kds::AuditFailure("points at ranks " + std::to_string(i) + " and " + std::to_string(i + 1) +
                              " are out of order");
  }
}

/// The indices of `points` sorted by position just after t, computed statically and exactly.
std::vector<std::size_t> sorted_just_after(const std::vector<Point>& points, double t) {
  std::vector<std::size_t> ids(points.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = i;
  auto at_t = [&](std::size_t i) -> kds::Rational {  // not auto: GMP returns expression templates
    return kds::Rational(points[i].x0) + kds::Rational(points[i].v) * t;
  };
  std::sort(ids.begin(), ids.end(), [&](std::size_t a, std::size_t b) {
    const kds::Rational xa = at_t(a), xb = at_t(b);
    return xa != xb ? xa < xb : points[a].v < points[b].v;
  });
  return ids;
}

/// Random points: positions in [0, n), velocities in [-1, 1]. Then three points that meet
/// at exactly the same place and time (x = 0 at t = 1), the case floating point gets wrong.
std::vector<Point> make_points(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto unit = [&rng] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  std::vector<Point> points;
  for (std::size_t i = 0; i < n; ++i) points.push_back({unit() * static_cast<double>(n), 2 * unit() - 1});
  for (Point p : {Point{-1, 1}, Point{0, 0}, Point{1, -1}}) points.push_back(p);
  return points;
}

int main(int argc, char** argv) {
  const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 20261120;
  std::cout << "seed " << seed << '\n';
  const std::vector<Point> points = make_points(200, seed);
  const double horizon = 9.0;

  kds::Simulator sim(kds::SimulatorSettings{.audit = true});
  std::vector<kds::BodyId> bodies;
  for (const Point& p : points) bodies.push_back(sim.bodies().insert(kds::Motion<1>::linear(0.0, {p.x0}, {p.v})));
  MySortedList list(sim, bodies);
  sim.run_until(horizon);
  std::cout << list.swaps() << " swaps\n" << sim.statistics();

  // The kinetic order, as indices into `points`, against a static sort of the scene.
  std::vector<std::size_t> point_of(sim.bodies().index_bound());
  for (std::size_t i = 0; i < bodies.size(); ++i) point_of[bodies[i].index] = i;
  std::vector<std::size_t> kinetic;
  for (kds::BodyId id : list.order()) kinetic.push_back(point_of[id.index]);
  if (kinetic != sorted_just_after(points, horizon)) {
    std::cout << "FAILED: the kinetic order differs from a sort at t = " << horizon << '\n';
    return 1;
  }
  std::cout << "the kinetic order matches a sort at t = " << horizon << '\n';
  return 0;
}
