// Where certificates live (kds/certificate.cpp): per-size free lists over slabs. A freed
// block is the next one of its size handed out, new blocks are cut side by side from a
// slab, the blocks of a thread that exits go to the next threads, and simulations on
// several threads at once, or a simulator destroyed on another thread than the one that
// built it, run as they do alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "kds/certificate.hpp"
#include "kds/motion.hpp"
#include "kds/simulator.hpp"
#include "structures/sorted_list/sorted_list.hpp"
#include "test_seed.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define KDS_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KDS_TEST_UNDER_ASAN 1
#endif
#endif

namespace {

using kds::CertificateBase;

// A size no certificate of the library has (the largest pooled class, 1008 bytes), so
// that the blocks these tests see are their own.
constexpr std::size_t odd_size = 1000;
constexpr std::size_t odd_block = 1008;

#if !defined(KDS_TEST_UNDER_ASAN)

TEST(CertificateStore, FreedBlockIsReusedFirst) {
  const auto address = [](void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  void* a = CertificateBase::operator new(200);
  void* b = CertificateBase::operator new(200);
  const std::uintptr_t at_a = address(a), at_b = address(b);
  EXPECT_NE(at_a, at_b);
  CertificateBase::operator delete(a, 200);
  void* again = CertificateBase::operator new(200);
  EXPECT_EQ(address(again), at_a);
  // Sizes that round to the same 16 bytes share blocks; others do not.
  CertificateBase::operator delete(b, 200);
  void* same_class = CertificateBase::operator new(193);
  EXPECT_EQ(address(same_class), at_b);
  void* c = CertificateBase::operator new(208);
  const std::uintptr_t at_c = address(c);
  CertificateBase::operator delete(c, 208);
  void* other_class = CertificateBase::operator new(190);
  EXPECT_NE(address(other_class), at_c);
  for (void* p : {again, same_class, other_class}) CertificateBase::operator delete(p, 200);
}

/// The addresses of n blocks of odd_size that a new thread takes, in order, then frees.
std::vector<std::uintptr_t> blocks_of_a_new_thread(int n) {
  std::vector<std::uintptr_t> at(static_cast<std::size_t>(n));
  std::thread([&] {
    std::vector<void*> blocks(static_cast<std::size_t>(n));
    for (void*& p : blocks) p = CertificateBase::operator new(odd_size);
    for (std::size_t i = 0; i < blocks.size(); ++i) at[i] = reinterpret_cast<std::uintptr_t>(blocks[i]);
    for (void* p : blocks) CertificateBase::operator delete(p, odd_size);
  }).join();
  return at;
}

TEST(CertificateStore, NewBlocksAreCutSideBySideAndGoToTheNextThread) {
  constexpr int n = 60;  // fits in the first slab of a thread (64 KiB)
  const std::vector<std::uintptr_t> first = blocks_of_a_new_thread(n);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(first[i] % 16, 0u) << "block " << i;
    if (i > 0) EXPECT_EQ(first[i] - first[i - 1], odd_block) << "block " << i << " follows block " << i - 1;
  }
  // The thread has exited: its free blocks are handed to the next thread that needs one.
  const std::vector<std::uintptr_t> second = blocks_of_a_new_thread(n);
  const std::set<std::uintptr_t> before(first.begin(), first.end()), after(second.begin(), second.end());
  EXPECT_EQ(before, after);
}

/// Owns a block and frees it when destroyed: as a thread_local made before the thread's
/// first certificate, it is destroyed after the store has handed the thread's lists on.
struct LateOwner {
  void* block = nullptr;
  std::size_t size = 0;
  ~LateOwner() {
    if (block != nullptr) CertificateBase::operator delete(block, size);
  }
};

TEST(CertificateStore, BlockFreedAfterItsThreadsListsWereHandedOn) {
  // (Found by review: the free lists were destroyed with the thread's other thread_locals,
  // and a later free wrote into them.) The block goes to the next thread that needs one.
  constexpr std::size_t size = 984;  // a class of its own (992-byte blocks)
  std::uintptr_t freed_late = 0;
  std::thread([&] {
    thread_local LateOwner owner;
    owner.size = size;
    owner.block = CertificateBase::operator new(size);
    freed_late = reinterpret_cast<std::uintptr_t>(owner.block);
  }).join();
  std::uintptr_t next = 0;
  std::thread([&] {
    void* p = CertificateBase::operator new(size);
    next = reinterpret_cast<std::uintptr_t>(p);
    CertificateBase::operator delete(p, size);
  }).join();
  EXPECT_EQ(next, freed_late);
}

#endif

/// n points on lines, sorted by a kinetic sorted list up to `horizon`; true when the final
/// order is the order of the points' positions then.
bool sorts(std::uint64_t seed, int n, double horizon) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  kds::Simulator sim;
  kds::SortedList list(sim);
  std::vector<std::pair<double, kds::EntryId>> expected;
  for (int i = 0; i < n; ++i) {
    const double x = u(rng) * n, v = u(rng);
    const kds::BodyId b = sim.bodies().insert(kds::Motion<1>::linear(0.0, {x}, {v}));
    expected.emplace_back(x + v * horizon, list.insert(kds::Key::coordinate(b)));
  }
  sim.run_until(horizon);
  std::sort(expected.begin(), expected.end());
  const auto order = list.order();
  for (int i = 0; i < n; ++i)
    if (order[i] != expected[i].second) return false;
  return list.swaps() > 0;
}

TEST(CertificateStore, SimulationsOnSeveralThreadsAtOnce) {
  const std::uint64_t seed = kds::testing::test_seed();
  constexpr int threads = 4;
  std::vector<char> ok(threads, 0);
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t)
    running.emplace_back([&, t] {
      bool all = true;
      for (int round = 0; round < 3; ++round) all = all && sorts(seed + 10 * t + round, 300, 20.0);
      ok[t] = all;
    });
  for (auto& r : running) r.join();
  for (int t = 0; t < threads; ++t) EXPECT_TRUE(ok[t]) << "thread " << t << ", seed " << seed;
  // Their blocks are now everyone's: this thread's simulation runs on them as well.
  EXPECT_TRUE(sorts(seed + 1000, 300, 20.0)) << "seed " << seed;
}

/// A certificate kind aligned beyond the pools' 16 bytes: it fails at `at`.
class alignas(128) OverAligned final : public kds::Certificate<OverAligned> {
 public:
  OverAligned(kds::BodyId o, double at) : Certificate<OverAligned>({o}), at_(at) {}
  template <class NT>
  kds::Polynomial<NT> function(double origin) const {
    return kds::Polynomial<NT>{NT(NT(at_) - NT(origin)), NT(-1.0)};
  }
  void on_failure(kds::Simulator& sim) override {
    ++*fired_;
    sim.destroy(this);
  }
  const char* kind() const override { return "over-aligned"; }
  int* fired_ = nullptr;

 private:
  double at_;
};

TEST(CertificateStore, OverAlignedKindsKeepTheirAlignment) {
  kds::Simulator sim;
  const kds::BodyId b = sim.bodies().insert(kds::Motion<1>::linear(0.0, {0.0}, {0.0}));
  int fired = 0;
  for (int i = 0; i < 20; ++i) {
    OverAligned* c = sim.create<OverAligned>(b, 1.0 + i);
    c->fired_ = &fired;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c) % alignof(OverAligned), 0u) << "certificate " << i;
  }
  sim.run_until(100.0);
  EXPECT_EQ(fired, 20);
}

TEST(CertificateStore, SimulatorDestroyedOnAnotherThread) {
  // Certificates made on one thread and freed on another go to the second one's lists.
  auto sim = std::make_unique<kds::Simulator>();
  auto list = std::make_unique<kds::SortedList>(*sim);
  std::thread([&] {
    for (int i = 0; i < 200; ++i)
      list->insert(kds::Key::coordinate(sim->bodies().insert(kds::Motion<1>::linear(0.0, {double(i)}, {double(i % 7) - 3}))));
    sim->run_until(5.0);
  }).join();
  EXPECT_GT(list->swaps(), 0u);
  list.reset();
  sim.reset();
  EXPECT_TRUE(sorts(7, 200, 10.0));
}

}  // namespace
