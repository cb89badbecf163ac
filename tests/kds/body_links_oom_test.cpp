// A body's certificate list that cannot grow (memory exhausted) leaves everything as it
// was: the certificate being created or renewed is never half-linked (kds/body_links.hpp,
// Simulator::adopt and begin_renewal make room in every list before they change any).
// This binary replaces the global operator new[] so that one allocation of a chosen size
// fails.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <vector>

#include "kds/motion.hpp"
#include "kds/simulator.hpp"

namespace {
std::size_t fail_size = 0;  // the next operator new[] of this many bytes throws
}  // namespace

void* operator new[](std::size_t n) {
  if (n == fail_size && fail_size != 0) {
    fail_size = 0;
    throw std::bad_alloc();
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

/// Fails at time `at`, then destroys itself.
class Timed final : public kds::Certificate<Timed> {
 public:
  Timed(const kds::BodyList& bodies, double at) : Certificate<Timed>(bodies), at_(at) {}
  template <class NT>
  kds::Polynomial<NT> function(double origin) const {
    return kds::Polynomial<NT>{NT(NT(at_) - NT(origin)), NT(-1.0)};
  }
  void on_failure(kds::Simulator& sim) override { sim.destroy(this); }
  const char* kind() const override { return "timed"; }
  void rename(kds::Simulator& sim, const kds::BodyList& bodies) {
    sim.renew(this, bodies, [] {});
  }
 private:
  double at_;
};

std::size_t listed(const kds::Simulator& sim, kds::BodyId b) { return sim.bodies().certificates_of(b).size(); }

// The first growth of a list: from three entries in place to six on the heap.
constexpr std::size_t first_growth = 6 * sizeof(kds::BodyLink);

struct Scene {
  Scene() : sim(settings()) {
    hub = add();
    for (int i = 0; i < 3; ++i) around.push_back(sim.create<Timed>(kds::BodyList{hub, add()}, 10.0 + i));
    a = add();
    b = add();
    sim.flush();
  }
  static kds::SimulatorSettings settings() {
    kds::SimulatorSettings s;
    s.audit = true;
    return s;
  }
  kds::BodyId add() { return sim.bodies().insert(kds::Motion<1>::constant({0.0})); }
  kds::Simulator sim;
  kds::BodyId hub, a, b;
  std::vector<Timed*> around;  // on hub: its list is full in place
};

TEST(BodyLinksOutOfMemory, ACreationThatCannotLinkChangesNothing) {
  Scene s;
  ASSERT_EQ(listed(s.sim, s.hub), 3u);
  fail_size = first_growth;
  EXPECT_THROW(s.sim.create<Timed>(kds::BodyList{s.a, s.hub}, 5.0), std::bad_alloc);
  EXPECT_EQ(fail_size, 0u) << "the list's growth was the allocation that failed";
  EXPECT_EQ(listed(s.sim, s.a), 0u);
  EXPECT_EQ(listed(s.sim, s.hub), 3u);
  EXPECT_TRUE(s.sim.audit());
  // A motion change of either body reschedules only what is there (nothing freed).
  const auto before = s.sim.statistics().certificates_rescheduled;
  s.sim.bodies().set_motion(s.a, kds::Motion<1>::constant({0.0}));
  s.sim.bodies().set_motion(s.hub, kds::Motion<1>::constant({0.0}));
  EXPECT_EQ(s.sim.statistics().certificates_rescheduled, before + 3);
  // With memory, the same creation links.
  s.sim.create<Timed>(kds::BodyList{s.a, s.hub}, 5.0);
  EXPECT_EQ(listed(s.sim, s.hub), 4u);
  s.sim.run_until(20.0);  // all four fire and leave
  EXPECT_EQ(listed(s.sim, s.hub), 0u);
  EXPECT_EQ(listed(s.sim, s.a), 0u);
  EXPECT_TRUE(s.sim.audit());
}

TEST(BodyLinksOutOfMemory, ARenewalThatCannotLinkChangesNothing) {
  Scene s;
  Timed* p = s.sim.create<Timed>(kds::BodyList{s.a, s.b}, 5.0);
  s.sim.flush();
  fail_size = first_growth;
  EXPECT_THROW(p->rename(s.sim, kds::BodyList{s.a, s.hub}), std::bad_alloc);
  EXPECT_EQ(fail_size, 0u);
  s.sim.flush();
  EXPECT_EQ(listed(s.sim, s.a), 1u);
  EXPECT_EQ(listed(s.sim, s.b), 1u);
  EXPECT_EQ(listed(s.sim, s.hub), 3u);
  EXPECT_EQ(kds::compare(p->failure_time(), 5.0), 0) << "still queued at its time";
  EXPECT_TRUE(s.sim.audit());
  // It still fails at its time, and its destruction unlinks it from a and b.
  s.sim.run_until(6.0);
  EXPECT_EQ(listed(s.sim, s.a), 0u);
  EXPECT_EQ(listed(s.sim, s.b), 0u);
  EXPECT_EQ(listed(s.sim, s.hub), 3u);
  EXPECT_TRUE(s.sim.audit());
}

TEST(BodyLinksOutOfMemory, EveryRenewalShapeUndoesWhatItDid) {
  // The failing list is the hub's, entered at different positions while others change too:
  // {a, b} -> {c, hub} (position 0 moved before 1 failed), {a, b, c} -> {hub} (the tail
  // left first), {a} -> {b, c, hub} (new positions), {a, b} -> {hub, a} (a moves along).
  struct Case {
    std::vector<int> from, to;  // 0 = hub, 1.. = a, b, c
  };
  for (const Case& k : {Case{{1, 2}, {3, 0}}, Case{{1, 2, 3}, {0}}, Case{{1}, {2, 3, 0}}, Case{{1, 2}, {0, 1}}}) {
    Scene s;
    const kds::BodyId c = s.add();
    const std::vector<kds::BodyId> named{s.hub, s.a, s.b, c};
    auto list = [&](const std::vector<int>& ids) {
      kds::BodyList l;
      for (int i : ids) l.add(named[static_cast<std::size_t>(i)]);
      return l;
    };
    Timed* p = s.sim.create<Timed>(list(k.from), 5.0);
    s.sim.flush();
    std::vector<std::size_t> sizes;
    for (kds::BodyId b : named) sizes.push_back(listed(s.sim, b));
    fail_size = first_growth;
    EXPECT_THROW(p->rename(s.sim, list(k.to)), std::bad_alloc);
    EXPECT_EQ(fail_size, 0u);
    for (std::size_t i = 0; i < named.size(); ++i) EXPECT_EQ(listed(s.sim, named[i]), sizes[i]) << "body " << i;
    ASSERT_EQ(p->bodies().size(), k.from.size());
    for (std::size_t i = 0; i < k.from.size(); ++i) EXPECT_EQ(p->bodies()[i], named[static_cast<std::size_t>(k.from[i])]);
    EXPECT_EQ(kds::compare(p->failure_time(), 5.0), 0);
    EXPECT_TRUE(s.sim.audit());
    // With memory, the same renewal goes through.
    p->rename(s.sim, list(k.to));
    EXPECT_TRUE(s.sim.audit());
  }
}

}  // namespace
