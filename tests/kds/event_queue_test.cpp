// Event queues: the indexed heap queue against the reference queue on random sequences of
// push / update / erase / pop with many exactly equal times (doubles and algebraic ones),
// and the tie order: time, then tie key (the creation order by default), older first.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "kds/event_queue.hpp"
#include "kds/simulator.hpp"
#include "test_functions.hpp"
#include "test_seed.hpp"

namespace {

using kds::Interval;
using kds::Polynomial;
using kds::Rational;
using kds::testing::uniform_int;

/// Fails at time `at` (k - (t)^2 form for algebraic times when `square` is set: at sqrt(k)).
class Timer final : public kds::Certificate<Timer> {
 public:
  Timer(kds::BodyId o, double at, bool square) : Certificate<Timer>({o}), at_(at), square_(square) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    // In s = t - origin: at - t = (at - origin) - s, or at - t^2 = at - (origin + s)^2.
    if (!square_) return Polynomial<NT>{NT(NT(at_) - NT(origin)), NT(-1.0)};
    Polynomial<NT> t{NT(origin), NT(1.0)};
    return Polynomial<NT>(NT(at_)) - t * t;
  }
  void on_failure(kds::Simulator& sim) override { sim.destroy(this); }
  const char* kind() const override { return "timer"; }
  void set(double at, bool square) {
    at_ = at;
    square_ = square;
  }

 private:
  double at_;
  bool square_;
};

TEST(EventQueue, HeapMatchesReferenceOnRandomOperations) {
  std::mt19937_64 rng(kds::testing::test_seed());
  for (int round = 0; round < 20; ++round) {
    kds::Simulator sim;  // computes the failure times; its own queue is not used here
    const kds::BodyId o = sim.bodies().insert(kds::Motion<1>::constant({0.0}));
    auto heap = kds::make_event_queue(kds::QueueKind::heap);
    auto reference = kds::make_event_queue(kds::QueueKind::reference);
    std::vector<Timer*> queued, idle;
    auto random_time = [&](Timer* t) {
      // Few distinct times, so that many are exactly equal; some algebraic (sqrt of 2, 3).
      if (uniform_int(rng, 0, 3) == 0) t->set(uniform_int(rng, 2, 3), true);
      else t->set(uniform_int(rng, 1, 6) * 0.5, false);
    };
    int pops = 0;
    for (int op = 0; op < 600; ++op) {
      const int what = uniform_int(rng, 0, 9);
      if (what <= 3 || queued.empty()) {  // push
        Timer* t;
        if (!idle.empty() && uniform_int(rng, 0, 1) == 0) {
          t = idle.back();
          idle.pop_back();
        } else {
          t = sim.create<Timer>(o, 1.0, false);
        }
        random_time(t);
        sim.reschedule(t);
        sim.flush();
        heap->push(t);
        reference->push(t);
        queued.push_back(t);
      } else if (what <= 5) {  // update
        Timer* t = queued[uniform_int(rng, 0, static_cast<int>(queued.size()) - 1)];
        random_time(t);
        sim.reschedule(t);
        sim.flush();
        heap->update(t);
        reference->update(t);
      } else if (what <= 6) {  // erase
        auto i = static_cast<std::size_t>(uniform_int(rng, 0, static_cast<int>(queued.size()) - 1));
        heap->erase(queued[i]);
        reference->erase(queued[i]);
        idle.push_back(queued[i]);
        queued.erase(queued.begin() + static_cast<std::ptrdiff_t>(i));
      } else {  // pop
        kds::CertificateBase* h = heap->top();
        kds::CertificateBase* r = reference->top();
        ASSERT_EQ(h, r) << "round " << round << ", operation " << op << ": heap top " << h->failure_time()
                        << " #" << h->sequence() << ", reference top " << r->failure_time() << " #" << r->sequence();
        // Nothing queued fires before the top.
        for (Timer* t : queued) ASSERT_FALSE(kds::fires_before(*t, *h));
        heap->pop();
        reference->pop();
        ++pops;
        auto it = std::find(queued.begin(), queued.end(), h);
        idle.push_back(*it);
        queued.erase(it);
      }
      ASSERT_EQ(heap->size(), queued.size());
      ASSERT_EQ(reference->size(), queued.size());
    }
    // Drain: the same order, non-decreasing times, and at equal times older first.
    const kds::CertificateBase* previous = nullptr;
    while (!heap->empty()) {
      kds::CertificateBase* h = heap->top();
      ASSERT_EQ(h, reference->top());
      if (previous != nullptr) {
        int c = kds::compare(previous->failure_time(), h->failure_time());
        ASSERT_LE(c, 0);
        if (c == 0) ASSERT_LT(previous->sequence(), h->sequence());
      }
      previous = h;
      heap->pop();
      reference->pop();
    }
    EXPECT_TRUE(reference->empty());
    EXPECT_GT(pops, 50);
  }
}

TEST(EventQueue, EqualTimesPopOlderFirstAndAlgebraicTiesAreRecognised) {
  for (kds::QueueKind kind : {kds::QueueKind::heap, kds::QueueKind::reference}) {
    kds::Simulator sim;
    const kds::BodyId o = sim.bodies().insert(kds::Motion<1>::constant({0.0}));
    std::vector<Timer*> timers;
    // Created in this order; times sqrt(2) (as 2 - t^2), 1.0, sqrt(2), 1.0, 2.0, sqrt(2).
    const std::vector<std::pair<double, bool>> spec = {{2, true}, {1, false}, {2, true}, {1, false}, {2, false}, {2, true}};
    for (auto [at, square] : spec) timers.push_back(sim.create<Timer>(o, at, square));
    sim.flush();
    auto queue = kds::make_event_queue(kind);
    // Push in reverse creation order so that insertion order cannot be what decides.
    for (auto it = timers.rbegin(); it != timers.rend(); ++it) queue->push(*it);
    std::vector<kds::CertificateBase*> popped;
    while (!queue->empty()) {
      popped.push_back(queue->top());
      queue->pop();
    }
    const std::vector<kds::CertificateBase*> expected = {timers[1], timers[3], timers[0], timers[2], timers[5], timers[4]};
    EXPECT_EQ(popped, expected) << (kind == kds::QueueKind::heap ? "heap" : "reference");
  }
}

TEST(EventQueue, SimulatorProcessesEqualTimesInCreationOrder) {
  for (kds::QueueKind kind : {kds::QueueKind::heap, kds::QueueKind::reference}) {
    kds::Simulator sim({.queue = kind});
    const kds::BodyId o = sim.bodies().insert(kds::Motion<1>::constant({0.0}));
    std::vector<Timer*> timers;
    for (int i = 0; i < 10; ++i) timers.push_back(sim.create<Timer>(o, i % 2 == 0 ? 3.0 : 2.0, true));
    std::vector<std::uint64_t> order;
    struct Recorder : kds::Observer {
      std::vector<std::uint64_t>* out;
      std::vector<Timer*>* timers;
      void on_event(const kds::EventRecord& e) override { out->push_back(e.index); }
    } rec;
    rec.out = &order;
    sim.add_observer(rec);
    std::vector<std::uint64_t> sequences;
    while (sim.next_event_time().is_infinite() == false) {
      // The next event to fire is the oldest of the earliest time.
      kds::Root next = sim.next_event_time();
      std::uint64_t best = ~0ull;
      sim.for_each_certificate([&](const kds::CertificateBase& c) {
        if (kds::compare(c.failure_time(), next) == 0) best = std::min(best, c.sequence());
      });
      sequences.push_back(best);
      ASSERT_TRUE(sim.step());
    }
    EXPECT_EQ(sequences, (std::vector<std::uint64_t>{1, 3, 5, 7, 9, 0, 2, 4, 6, 8}));
    const auto& stats = sim.statistics();
    EXPECT_EQ(stats.events, 10u);
    EXPECT_EQ(stats.events_at_equal_times, 8u);  // sqrt 2 x5 and sqrt 3 x5: 4 + 4 repeats
  }
}

}  // namespace
