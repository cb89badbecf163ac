// Memory exhausted in the middle of a simulator operation leaves the simulator as it was
// before the operation: a body's certificate list that cannot grow never leaves a
// certificate half-linked (kds/body_links.hpp; Simulator::adopt and begin_renewal), and no
// array of the simulator grows after a creation or a renewal has committed (Simulator::
// make_room), which could leave a live certificate never scheduled, and a queue operation
// whose comparison throws (the exact path allocates) leaves the queue as it was.
// This binary replaces the global operator new and new[]: one allocation of a chosen size,
// or the n-th allocation from a chosen point, fails.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "kds/event_queue.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "test_functions.hpp"
#include "test_seed.hpp"

namespace {
std::size_t fail_size = 0;       // the next operator new[] of this many bytes throws
std::int64_t fail_countdown = -1;  // the allocation after this many more throws; -1: none

void* allocate(std::size_t n, std::size_t alignment) {
  if (fail_countdown == 0) {
    fail_countdown = -1;
    throw std::bad_alloc();
  }
  if (fail_countdown > 0) --fail_countdown;
  if (n == 0) n = 1;
  void* p = alignment <= alignof(std::max_align_t) ? std::malloc(n)
                                                   : std::aligned_alloc(alignment, (n + alignment - 1) / alignment * alignment);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n) {
  if (n == fail_size && fail_size != 0) {
    fail_size = 0;
    throw std::bad_alloc();
  }
  return allocate(n, 0);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

/// Fails at time `at`, then destroys itself (and says so in `log`, if given). Or, with
/// `tied` = m > 0, fails at sqrt(2), the root of (2 - t^2)(t + m): certificates with
/// different m fail at the same irrational time, which only the exact path (allocating)
/// can tell equal, in the queue's comparisons.
class Timed final : public kds::Certificate<Timed> {
 public:
  Timed(const kds::BodyList& bodies, double at, std::vector<int>* log = nullptr, int tag = 0, int tied = 0)
      : Certificate<Timed>(bodies), at_(at), log_(log), tag_(tag), tied_(tied) {}
  template <class NT>
  kds::Polynomial<NT> function(double origin) const {
    const NT o(origin);
    if (tied_ == 0) return kds::Polynomial<NT>{NT(NT(at_) - o), NT(-1.0)};
    // In s = t - origin: (2 - o^2 - 2 o s - s^2)((o + m) + s).
    const NT a = NT(2.0) - o * o, b = NT(-2.0) * o, m = o + NT(static_cast<double>(tied_));
    return kds::Polynomial<NT>{NT(a * m), NT(a + b * m), NT(b - m), NT(-1.0)};
  }
  void on_failure(kds::Simulator& sim) override {
    if (log_ != nullptr) log_->push_back(tag_);
    sim.destroy(this);
  }
  const char* kind() const override { return "timed"; }
  void rename(kds::Simulator& sim, const kds::BodyList& bodies) {
    sim.renew(this, bodies, [] {});
  }
 private:
  double at_;
  std::vector<int>* log_;
  int tag_;
  int tied_;
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

// A script of simulator operations (bodies inserted, certificates created, renewed,
// destroyed, motions changed, flushes), each run with its first, second, third ...
// allocation failing until it runs through. After each failure, the simulator must be as
// before the operation: the same certificates, lists, counts and queue (a flush may have
// scheduled some of the pending certificates); then the operation is tried again. At the end, the events that fire (their certificates' tags, in
// order) must be those of the same script run without failures.
struct Script {
  kds::Simulator sim{Scene::settings()};
  std::vector<kds::BodyId> bodies;
  std::vector<Timed*> certs = std::vector<Timed*>(84, nullptr);
  std::vector<int> log;

  kds::BodyList pair(std::size_t i, std::size_t j) const {
    kds::BodyList l;
    l.add(bodies[i % bodies.size()]);
    if (j % bodies.size() != i % bodies.size()) l.add(bodies[j % bodies.size()]);
    return l;
  }
  static double time_of(int tag) { return 1.0 + ((tag * 29) % 72) * 0.125; }

  // What "as before" compares.
  std::vector<std::uint64_t> state() const {
    const kds::Statistics& s = const_cast<kds::Simulator&>(sim).statistics();
    std::vector<std::uint64_t> v{sim.certificate_count(), sim.pending_events(), s.certificates_created,
                                 s.certificates_destroyed, s.certificates_renewed, sim.bodies().size()};
    for (kds::BodyId b : bodies) v.push_back(sim.bodies().certificates_of(b).size());
    for (Timed* c : certs)
      if (c != nullptr) {
        v.push_back(c->bodies().size());
        for (kds::BodyId b : c->bodies()) v.push_back(b.index);
      }
    return v;
  }

  // Runs each operation of the script through `step`.
  template <class Step>
  void run(Step&& step) {
    bodies.reserve(8);  // (the script's own arrays allocate nothing during an operation)
    for (int i = 0; i < 6; ++i)
      step("insert a body", [&] { bodies.push_back(sim.bodies().insert(kds::Motion<1>::constant({0.0}))); });
    for (int t = 0; t < 48; ++t) {
      step("create " + std::to_string(t), [&] {
        certs[static_cast<std::size_t>(t)] =
            sim.create<Timed>(pair(static_cast<std::size_t>(t), static_cast<std::size_t>(5 * t + 1)), time_of(t), &log, t);
      });
      if (t % 8 == 7) step("flush", [&] { sim.flush(); });
    }
    // Twelve that fail together at sqrt(2), three polynomials: their order in the queue
    // takes the exact path, which allocates.
    for (int t = 72; t < 84; ++t)
      step("create " + std::to_string(t), [&] {
        certs[static_cast<std::size_t>(t)] =
            sim.create<Timed>(pair(static_cast<std::size_t>(t), static_cast<std::size_t>(t + 1)), 0.0, &log, t, 1 + t % 3);
      });
    step("flush", [&] { sim.flush(); });
    for (int t = 72; t < 78; ++t)
      step("renew " + std::to_string(t), [&] {
        certs[static_cast<std::size_t>(t)]->rename(sim, pair(static_cast<std::size_t>(t + 2), static_cast<std::size_t>(t)));
      });
    for (int t = 78; t < 80; ++t)
      step("destroy " + std::to_string(t), [&] {
        sim.destroy(certs[static_cast<std::size_t>(t)]);
        certs[static_cast<std::size_t>(t)] = nullptr;
      });
    for (int t = 0; t < 24; ++t)
      step("renew " + std::to_string(t), [&] {
        certs[static_cast<std::size_t>(t)]->rename(sim, pair(static_cast<std::size_t>(t + 2), static_cast<std::size_t>(3 * t)));
      });
    step("insert a body", [&] { bodies.push_back(sim.bodies().insert(kds::Motion<1>::constant({0.0}))); });
    for (std::size_t b = 0; b < bodies.size(); ++b)
      step("motion change", [&] { sim.bodies().set_motion(bodies[b], kds::Motion<1>::constant({0.0})); });
    for (int t = 24; t < 36; ++t)
      step("destroy " + std::to_string(t), [&] {
        sim.destroy(certs[static_cast<std::size_t>(t)]);
        certs[static_cast<std::size_t>(t)] = nullptr;
      });
    step("flush", [&] { sim.flush(); });
    for (int t = 48; t < 72; ++t)
      step("create " + std::to_string(t), [&] {
        certs[static_cast<std::size_t>(t)] =
            sim.create<Timed>(pair(static_cast<std::size_t>(t), static_cast<std::size_t>(t + 3)), time_of(t), &log, t);
      });
    step("flush", [&] { sim.flush(); });
  }
};

TEST(SimulatorOutOfMemory, EveryAllocationOfEveryOperationMayFail) {
  Script reference;
  reference.run([](const std::string&, auto&& op) { op(); });
  reference.sim.run_until(100.0);
  ASSERT_EQ(reference.log.size(), 70u) << "every certificate not destroyed fires once";

  Script s;
  std::size_t failures = 0;
  s.run([&](const std::string& what, auto&& op) {
    for (std::int64_t k = 0;; ++k) {
      const std::vector<std::uint64_t> before = s.state();
      fail_countdown = k;
      try {
        op();
        fail_countdown = -1;
        return;
      } catch (const std::bad_alloc&) {
        fail_countdown = -1;
        ++failures;
        std::vector<std::uint64_t> after = s.state();
        // A flush that stops keeps what it scheduled (the queue grows) and leaves the rest
        // pending, to be scheduled by the next try.
        if (what == "flush") after[1] = before[1];
        ASSERT_EQ(after, before) << what << " with allocation " << k << " failing";
      }
    }
  });
  EXPECT_GT(failures, 100u) << "the operations allocate: the failures were reached";
  std::cout << failures << " operations failed for want of memory, each left the simulator as it was\n";
  s.sim.run_until(100.0);
  EXPECT_EQ(s.log, reference.log);
  EXPECT_EQ(s.sim.certificate_count(), 0u);
}

/// Must not fail at its creation; -t is zero now (t = 0) and negative after.
class Strict final : public kds::Certificate<Strict> {
 public:
  explicit Strict(const kds::BodyList& bodies) : Certificate<Strict>(bodies) {}
  template <class NT>
  kds::Polynomial<NT> function(double origin) const {
    return kds::Polynomial<NT>{NT(-NT(origin)), NT(-1.0)};
  }
  bool may_fail_at_birth() const override { return false; }
  void on_failure(kds::Simulator& sim) override { sim.destroy(this); }
  const char* kind() const override { return "strict"; }
};

TEST(SimulatorOutOfMemory, AViolationAtBirthIsReportedThoughItsMessageCouldNotBeMade) {
  // A certificate that must not fail at its creation, created at its root: the flush that
  // finds it throws CertificateViolated. If memory runs out while the error is made, the
  // flush throws std::bad_alloc instead and the certificate stays pending, so that the
  // next flush reports it.
  std::size_t out_of_memory = 0;
  for (std::int64_t k = 0; k < 64; ++k) {
    kds::Simulator sim;
    const kds::BodyId b = sim.bodies().insert(kds::Motion<1>::constant({0.0}));
    sim.create<Strict>(kds::BodyList{b});
    fail_countdown = k;
    bool violated = false;
    try {
      sim.flush();
    } catch (const kds::CertificateViolated&) {
      violated = true;
    } catch (const std::bad_alloc&) {
      ++out_of_memory;
    }
    fail_countdown = -1;
    if (!violated) EXPECT_THROW(sim.flush(), kds::CertificateViolated) << "allocation " << k << " failed";
  }
  EXPECT_GT(out_of_memory, 0u) << "making the error allocates: the failures were reached";
}

TEST(EventQueueOutOfMemory, AHeapOperationThatThrowsLeavesTheHeapAsItWas) {
  // The heap's comparisons take the exact path (which allocates) for times that only it
  // can tell equal: sqrt(2) from three polynomials, beside double times. Each push, erase
  // and pop of the heap runs with its first, second ... allocation failing until it goes
  // through; after each failure the heap must still agree with the reference queue (its
  // size and its first certificate), and at the end the two must drain in the same order.
  std::mt19937_64 rng(kds::testing::test_seed());
  kds::Simulator sim;  // computes the failure times; its own queue is not used here
  std::vector<kds::BodyId> bodies;
  for (int i = 0; i < 4; ++i) bodies.push_back(sim.bodies().insert(kds::Motion<1>::constant({0.0})));
  auto heap = kds::make_event_queue(kds::QueueKind::heap);
  auto reference = kds::make_event_queue(kds::QueueKind::reference);
  heap->reserve(1024);
  std::vector<Timed*> queued;
  std::size_t failures = 0;
  const auto agree = [&](const char* what, std::int64_t k) {
    ASSERT_EQ(heap->size(), reference->size()) << what << " with allocation " << k << " failing";
    ASSERT_EQ(heap->top(), reference->top()) << what << " with allocation " << k << " failing";
    ASSERT_TRUE(heap->consistent()) << what << " with allocation " << k << " failing";
  };
  // Runs op on the heap until it goes through, then on the reference.
  const auto run = [&](const char* what, auto&& op) {
    for (std::int64_t k = 0;; ++k) {
      fail_countdown = k;
      try {
        op(*heap);
        fail_countdown = -1;
        break;
      } catch (const std::bad_alloc&) {
        fail_countdown = -1;
        ++failures;
        agree(what, k);
      }
    }
    op(*reference);
    agree(what, -1);
  };
  for (int step = 0; step < 150; ++step) {
    const int what = kds::testing::uniform_int(rng, 0, 9);
    if (what <= 4 || queued.empty()) {
      const int tied = kds::testing::uniform_int(rng, 0, 3);  // 0: a double time
      const double at = 0.5 * kds::testing::uniform_int(rng, 2, 4);
      const std::size_t body = static_cast<std::size_t>(kds::testing::uniform_int(rng, 0, 3));
      Timed* t = sim.create<Timed>(kds::BodyList{bodies[body]}, at, nullptr, step, tied);
      sim.flush();
      queued.push_back(t);
      run("push", [&](kds::EventQueue& q) { q.push(t); });
    } else if (what <= 7) {
      const std::size_t i = static_cast<std::size_t>(kds::testing::uniform_int(rng, 0, static_cast<int>(queued.size()) - 1));
      Timed* t = queued[i];
      queued.erase(queued.begin() + static_cast<std::ptrdiff_t>(i));
      run("erase", [&](kds::EventQueue& q) { q.erase(t); });
    } else {
      kds::CertificateBase* first = reference->top();
      queued.erase(std::find(queued.begin(), queued.end(), first));
      run("pop", [&](kds::EventQueue& q) { q.pop(); });
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GT(failures, 50u) << "the comparisons allocate: the failures were reached";
  std::cout << failures << " heap operations failed for want of memory\n";
  while (!reference->empty()) {
    ASSERT_EQ(heap->top(), reference->top());
    heap->pop();
    reference->pop();
  }
  EXPECT_TRUE(heap->empty());
}

}  // namespace
