// Symmetric convergences: 3, 4 and 6 spheres reaching one point together, so that several
// contacts happen at exactly the same (irrational) time. The world must process them all
// at that time, in the documented tie order (tie_keys.hpp: pairs by their ids, each
// sphere's walls after its pairs), each response seeing the velocities left by the
// previous one. The answers come from a referee written here, independently of kds's
// pipeline: an event-driven simulation in 512-bit floating point (GMP), where times that
// agree to 100 digits are the same instant and an approach below 1e-100 is none.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "../../collision_world_support.hpp"

namespace {

using kds::Contact;
using kds::Sphere;
using kds::Vec;
using kds::testing::ball;

// ---------------------------------------------------------------- the referee

using Big = mpf_class;
constexpr unsigned kBits = 512;
Big big(double x) { return Big(x, kBits); }
const Big& same_time() {
  static const Big e("1e-100", kBits);
  return e;
}

struct RefSphere {
  Big x[3], v[3], r, m;
};

struct RefContact {
  Big time;
  unsigned a = 0, b = 0;  // b: the other sphere, or the wall 0..5 (2 axis + high)
  bool wall = false;
  // The documented order at equal times: by the lower sphere, its pairs before its walls.
  std::tuple<unsigned, int, unsigned> order() const { return {a, wall ? 1 : 0, b}; }
};

class Referee {
 public:
  Referee(const std::vector<Sphere>& spheres, double box_lo, double box_hi) {
    mpf_set_default_prec(kBits);  // for every value below, members and temporaries alike
    lo_ = big(box_lo);
    hi_ = big(box_hi);
    for (const Sphere& s : spheres) {
      RefSphere r;
      for (int k = 0; k < 3; ++k) {
        r.x[k] = big(s.position[k]);
        r.v[k] = big(s.velocity[k]);
      }
      r.r = big(s.radius);
      r.m = big(s.mass);
      s_.push_back(r);
    }
  }

  std::vector<RefContact> run(double until) {
    mpf_set_default_prec(kBits);
    std::vector<RefContact> out;
    const Big end = big(until);
    Big now = big(0);
    while (true) {
      // Every event that could come next, with its delay from now.
      std::vector<std::pair<Big, RefContact>> next;
      for (unsigned i = 0; i < s_.size(); ++i) {
        for (unsigned j = i + 1; j < s_.size(); ++j)
          if (auto d = pair_delay(i, j)) next.push_back({*d, RefContact{Big(0, kBits), i, j, false}});
        for (unsigned w = 0; w < 6; ++w)
          if (auto d = wall_delay(i, w)) next.push_back({*d, RefContact{Big(0, kBits), i, w, true}});
      }
      if (next.empty()) break;
      Big first = next[0].first;
      for (const auto& e : next)
        if (e.first < first) first = e.first;
      if (now + first > end) break;
      const RefContact* chosen = nullptr;
      for (const auto& e : next)
        if (e.first - first < same_time() && (chosen == nullptr || e.second.order() < chosen->order()))
          chosen = &e.second;
      RefContact c = *chosen;
      advance(first);
      now += first;
      c.time = now;
      respond(c);
      out.push_back(c);
    }
    return out;
  }

 private:
  // Delay until spheres i and j touch while approaching (0 if they do now); none if never.
  std::optional<Big> pair_delay(unsigned i, unsigned j) const {
    Big d[3], w[3];
    for (int k = 0; k < 3; ++k) {
      d[k] = s_[j].x[k] - s_[i].x[k];
      w[k] = s_[j].v[k] - s_[i].v[k];
    }
    const Big R = s_[i].r + s_[j].r;
    const Big a = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
    const Big b = d[0] * w[0] + d[1] * w[1] + d[2] * w[2];  // < 0: approaching
    const Big c = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - R * R;
    if (!(b < -same_time())) return std::nullopt;
    if (c < same_time()) return Big(0, kBits);
    const Big disc = b * b - a * c;
    if (disc < 0) return std::nullopt;
    return Big(c / (sqrt(disc) - b));  // the smaller root of a s^2 + 2 b s + c, stably
  }
  std::optional<Big> wall_delay(unsigned i, unsigned w) const {
    const int k = static_cast<int>(w / 2);
    const bool high = w % 2 == 1;
    const Big& v = s_[i].v[k];
    if (high ? !(v > same_time()) : !(v < -same_time())) return std::nullopt;
    Big gap = high ? Big(hi_ - s_[i].x[k] - s_[i].r) : Big(s_[i].x[k] - s_[i].r - lo_);
    if (gap < 0) gap = 0;
    return high ? Big(gap / v) : Big(gap / -v);
  }
  void advance(const Big& dt) {
    for (RefSphere& s : s_)
      for (int k = 0; k < 3; ++k) s.x[k] += s.v[k] * dt;
  }
  void respond(const RefContact& c) {
    RefSphere& a = s_[c.a];
    if (c.wall) {
      a.v[c.b / 2] = -a.v[c.b / 2];
      return;
    }
    RefSphere& b = s_[c.b];
    Big n[3];
    Big len2(0, kBits);
    for (int k = 0; k < 3; ++k) {
      n[k] = b.x[k] - a.x[k];
      len2 += n[k] * n[k];
    }
    const Big len = sqrt(len2);
    Big approach(0, kBits);
    for (int k = 0; k < 3; ++k) {
      n[k] /= len;
      approach += (a.v[k] - b.v[k]) * n[k];
    }
    const Big p = 2 * approach / (a.m + b.m);  // elastic impulse per unit of mass product
    for (int k = 0; k < 3; ++k) {
      a.v[k] -= p * b.m * n[k];
      b.v[k] += p * a.m * n[k];
    }
  }

  std::vector<RefSphere> s_;
  Big lo_, hi_;
};

/// The smallest double at or after x: where kds, whose motions change at doubles, logs a
/// contact at the exact time x.
double ceil_double(const Big& x) {
  double d = x.get_d();  // truncated towards zero
  if (Big(d, kBits) < x) d = std::nextafter(d, std::numeric_limits<double>::infinity());
  return d;
}

std::string describe(const RefContact& c) {
  return "t = " + std::to_string(c.time.get_d()) + ": " +
         (c.wall ? "sphere " + std::to_string(c.a) + " with wall " + std::to_string(c.b)
                 : "spheres " + std::to_string(c.a) + " and " + std::to_string(c.b));
}

// ---------------------------------------------------------------- the scenes

constexpr double kBox = 100, kCentre = 50;

Vec<3> at(double x, double y, double z) { return {kCentre + x, kCentre + y, kCentre + z}; }

// Spheres of radius 1 at distance d on the axes, moving to the centre at unit speed: two on
// neighbouring axes touch when sqrt(2) (d - t) = 2, at t* = d - sqrt(2).
std::vector<Sphere> triangle() {
  return {ball(at(10, 0, 0), {-1, 0, 0}), ball(at(0, 10, 0), {0, -1, 0}), ball(at(0, 0, 10), {0, 0, -1})};
}
std::vector<Sphere> square() {
  return {ball(at(10, 0, 0), {-1, 0, 0}), ball(at(0, 10, 0), {0, -1, 0}), ball(at(-10, 0, 0), {1, 0, 0}),
          ball(at(0, -10, 0), {0, 1, 0})};
}
std::vector<Sphere> octahedron() {
  return {ball(at(10, 0, 0), {-1, 0, 0}), ball(at(-10, 0, 0), {1, 0, 0}), ball(at(0, 10, 0), {0, -1, 0}),
          ball(at(0, -10, 0), {0, 1, 0}),  ball(at(0, 0, 10), {0, 0, -1}), ball(at(0, 0, -10), {0, 0, 1})};
}
// Corners of a cube's tetrahedron at 6 (1, 1, 1) etc. from the centre, moving inwards:
// edges 2 sqrt(2) (6 - t) = 2 at t* = 6 - sqrt(2) / 2. Masses differ, so that the
// responses are not symmetric.
std::vector<Sphere> tetrahedron() {
  return {ball(at(6, 6, 6), {-1, -1, -1}, 1, 1), ball(at(6, -6, -6), {-1, 1, 1}, 1, 2),
          ball(at(-6, 6, -6), {1, -1, 1}, 1, 3), ball(at(-6, -6, 6), {1, 1, -1}, 1, 4)};
}

struct Case {
  const char* name;
  std::vector<Sphere> (*scene)();
  double exact_first;  // the first instant, for the record
  std::size_t at_first;  // contacts at it (the referee's answer, also asserted)
};

void expect_matches_referee(const Case& c, const std::string& broad_phase, double until) {
  SCOPED_TRACE(std::string(c.name) + ", " + broad_phase);
  const std::vector<Sphere> spheres = c.scene();
  const std::vector<RefContact> expected = Referee(spheres, 0, kBox).run(until);
  kds::testing::WorldRun run(spheres, kds::testing::world_settings(kds::testing::cube(kBox), broad_phase));
  ASSERT_TRUE(run.run_until(until));
  const std::vector<Contact>& got = run.contacts();
  ASSERT_EQ(got.size(), expected.size()) << "contacts: kds " << got.size() << ", referee " << expected.size();

  // The referee's instants: runs of contacts at the same time.
  std::vector<std::size_t> instant_end;
  for (std::size_t i = 1; i <= expected.size(); ++i)
    if (i == expected.size() || expected[i].time - expected[i - 1].time > same_time()) instant_end.push_back(i);
  ASSERT_FALSE(instant_end.empty());
  EXPECT_EQ(instant_end[0], c.at_first) << "contacts at the first instant";
  EXPECT_NEAR(expected[0].time.get_d(), c.exact_first, 1e-13);

  auto key = [](const Contact& g) {
    return std::tuple<unsigned, int, unsigned>{g.a, g.with_wall ? 1 : 0,
                                               g.with_wall ? static_cast<unsigned>(g.wall) : g.b};
  };
  std::size_t begin = 0;
  for (std::size_t end : instant_end) {
    std::vector<std::tuple<unsigned, int, unsigned>> want, have;
    for (std::size_t i = begin; i < end; ++i) {
      want.push_back(expected[i].order());
      have.push_back(key(got[i]));
      SCOPED_TRACE("contact #" + std::to_string(i) + ", expected " + describe(expected[i]) + ", got " +
                   kds::testing::describe(got[i]));
      const double t = expected[i].time.get_d();
      if (begin == 0) {
        // The first instant comes from exact input: at exactly the smallest double after it.
        EXPECT_EQ(got[i].time, ceil_double(expected[i].time));
      } else {
        // Later ones follow velocities rounded to doubles by the responses (errors of
        // 1e-16 relative), carried over a long flight: a slow component along a wall's
        // axis turns them into 1e-14 relative errors of its time.
        EXPECT_NEAR(got[i].time, t, 1e-13 * t);
      }
    }
    if (begin == 0) {
      // In the tie order, each response seeing the velocities left by the previous one.
      EXPECT_EQ(have, want) << "the contacts of the first instant, in order";
    } else {
      // Later instants are exact only in the referee: after the first one, kds's motions
      // are rounded, and contacts that the referee finds together come a few ulps apart.
      // The same contacts, in any order.
      std::sort(want.begin(), want.end());
      std::sort(have.begin(), have.end());
      EXPECT_EQ(have, want) << "the contacts of the instant at t = " << expected[begin].time.get_d();
    }
    begin = end;
  }
}

const Case kCases[] = {
    {"triangle", triangle, 10 - std::sqrt(2.0), 3},
    {"square", square, 10 - std::sqrt(2.0), 4},
    {"tetrahedron", tetrahedron, 6 - std::sqrt(2.0) / 2, 6},
    {"octahedron", octahedron, 10 - std::sqrt(2.0), 4},
};

class SimultaneousContacts : public ::testing::TestWithParam<std::string> {};

TEST_P(SimultaneousContacts, MatchTheExactRunInTieOrder) {
  for (const Case& c : kCases) expect_matches_referee(c, GetParam(), 200);
}

INSTANTIATE_TEST_SUITE_P(BroadPhases, SimultaneousContacts, ::testing::Values("all-pairs", "tvb-grid"));

}  // namespace
