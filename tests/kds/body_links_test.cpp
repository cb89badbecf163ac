// The bodies' certificate lists (kds/body_links.hpp) against a brute-force twin: after
// every creation, destruction and renewal (bodies added, dropped, replaced, or two trading
// places), each body's list holds exactly the certificates that name it, each at the
// position it names it, and a motion change reschedules exactly those.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "kds/errors.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "test_seed.hpp"

namespace {

/// Never fails: only its bodies matter here.
class Named final : public kds::Certificate<Named> {
 public:
  explicit Named(const kds::BodyList& bodies) : Certificate<Named>(bodies) {}
  template <class NT>
  kds::Polynomial<NT> function(double /*origin*/) const {
    return kds::Polynomial<NT>{NT(1.0)};
  }
  void on_failure(kds::Simulator& sim) override { sim.destroy(this); }
  const char* kind() const override { return "named"; }
  void rename(kds::Simulator& sim, const kds::BodyList& bodies) {
    sim.renew(this, bodies, [] {});
  }
  /// The same in two halves (a structure whose certificate leaves the queue first).
  void rename_in_halves(kds::Simulator& sim, const kds::BodyList& bodies) {
    sim.begin_renew(this, bodies);
    sim.end_renew(this);
  }
};

using Entry = std::tuple<const kds::CertificateBase*, std::size_t>;  // owner, position

std::vector<Entry> listed(const kds::Simulator& sim, kds::BodyId b) {
  std::vector<Entry> out;
  for (const kds::BodyLink& l : sim.bodies().certificates_of(b)) out.emplace_back(l.owner(), l.position());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Entry> expected(const std::vector<Named*>& live, kds::BodyId b) {
  std::vector<Entry> out;
  for (const Named* c : live) {
    const auto bodies = c->bodies();
    for (std::size_t k = 0; k < bodies.size(); ++k)
      if (bodies[k] == b) out.emplace_back(c, k);
  }
  std::sort(out.begin(), out.end());
  return out;
}

kds::BodyList random_bodies(std::mt19937_64& rng, const std::vector<kds::BodyId>& bodies) {
  std::vector<kds::BodyId> pool = bodies;
  std::shuffle(pool.begin(), pool.end(), rng);
  const std::size_t n = std::uniform_int_distribution<std::size_t>(1, kds::BodyList::capacity)(rng);
  kds::BodyList out;
  for (std::size_t i = 0; i < n; ++i) out.add(pool[i]);
  return out;
}

TEST(BodyLinks, ListsMatchTheCertificatesThroughCreationsRenewalsAndDestructions) {
  const std::uint64_t seed = kds::testing::test_seed();
  SCOPED_TRACE("KDS_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  kds::SimulatorSettings settings;
  settings.audit = true;  // the audit checks the lists and the link indices too
  kds::Simulator sim(settings);
  std::vector<kds::BodyId> bodies;
  for (int i = 0; i < 6; ++i) bodies.push_back(sim.bodies().insert(kds::Motion<1>::constant({0.0})));
  std::vector<Named*> live;
  for (int round = 0; round < 4000; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const int op = std::uniform_int_distribution<int>(0, 9)(rng);
    if (op < 4 || live.empty()) {
      live.push_back(sim.create<Named>(random_bodies(rng, bodies)));
    } else if (op < 6) {
      const std::size_t i = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
      sim.destroy(live[i]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    } else if (op < 8) {
      Named* c = live[std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng)];
      if (op == 6) c->rename(sim, random_bodies(rng, bodies));
      else c->rename_in_halves(sim, random_bodies(rng, bodies));
    } else {
      // Two bodies trade places (a sorted list's swap), or a motion change.
      Named* c = live[std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng)];
      if (op == 8 && c->bodies().size() == 2) {
        c->rename(sim, kds::BodyList{c->bodies()[1], c->bodies()[0]});
      } else {
        const kds::BodyId b = bodies[std::uniform_int_distribution<std::size_t>(0, bodies.size() - 1)(rng)];
        const auto before = sim.statistics().certificates_rescheduled;
        sim.bodies().set_motion(b, kds::Motion<1>::constant({0.0}));
        EXPECT_EQ(sim.statistics().certificates_rescheduled - before, expected(live, b).size());
      }
    }
    sim.flush();
    for (kds::BodyId b : bodies) ASSERT_EQ(listed(sim, b), expected(live, b)) << "body " << b.index;
    if (round % 50 == 0) ASSERT_TRUE(sim.audit());
  }
  // A body leaves once its certificates are gone, and its index is reused with an empty list.
  for (Named* c : live) sim.destroy(c);
  sim.bodies().erase(bodies[0]);
  sim.run_until(1.0);
  const kds::BodyId again = sim.bodies().insert(kds::Motion<1>::constant({0.0}));
  EXPECT_EQ(again.index, bodies[0].index);
  EXPECT_TRUE(sim.bodies().certificates_of(again).empty());
  EXPECT_TRUE(sim.audit());
}

TEST(BodyLinks, AListGrowsBeyondItsPlaceAndShrinksBack) {
  kds::Simulator sim;
  const kds::BodyId hub = sim.bodies().insert(kds::Motion<1>::constant({0.0}));
  std::vector<kds::BodyId> spokes;
  std::vector<Named*> live;
  for (int i = 0; i < 100; ++i) {
    spokes.push_back(sim.bodies().insert(kds::Motion<1>::constant({0.0})));
    live.push_back(sim.create<Named>(kds::BodyList{hub, spokes.back()}));
  }
  EXPECT_EQ(listed(sim, hub), expected(live, hub));
  // Out of the middle, from the front, from the back.
  for (std::size_t i : {50u, 0u, 97u, 10u}) {
    sim.destroy(live[i]);
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    ASSERT_EQ(listed(sim, hub), expected(live, hub));
  }
  EXPECT_TRUE(sim.audit());
  for (Named* c : live) sim.destroy(c);
  EXPECT_TRUE(sim.bodies().certificates_of(hub).empty());
}

}  // namespace
