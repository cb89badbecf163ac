// SortedList::insert_all and erase_all against their one-by-one twins (insert and erase
// in the same order) on a second list over the same keys: the same order of bodies, the
// audit passing, and the same swaps afterwards; on random motions, on keys equal now or
// forever, at an algebraic event time; callbacks and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "sorted_list_support.hpp"
#include "test_seed.hpp"

namespace kds::testing {
namespace {

/// The bodies of a list's entries in its order (the twins' entry ids may differ).
std::vector<BodyId> bodies_in_order(const SortedList& list) {
  std::vector<BodyId> b;
  for (EntryId e : list.order()) b.push_back(body_of(list, e));
  return b;
}

::testing::AssertionResult same_order(const SortedList& a, const SortedList& b) {
  const auto x = bodies_in_order(a), y = bodies_in_order(b);
  if (x.size() != y.size()) return ::testing::AssertionFailure() << x.size() << " entries against " << y.size();
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] != y[i])
      return ::testing::AssertionFailure() << "rank " << i << ": body " << x[i].index << " against " << y[i].index;
  return ::testing::AssertionSuccess();
}

/// Two lists over the same bodies: `one` gets insert/erase, `batch` insert_all/erase_all.
struct Twins {
  Simulator sim;  // audited by expect_twins
  SortedList one{sim}, batch{sim};
  std::map<BodyId, EntryId> in_one, in_batch;

  void insert(const std::vector<BodyId>& bodies) {
    std::vector<Key> keys;
    for (BodyId b : bodies) {
      keys.push_back(Key::coordinate(b));
      in_one[b] = one.insert(keys.back());
    }
    const std::vector<EntryId> ids = batch.insert_all(keys);
    ASSERT_EQ(ids.size(), bodies.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
      EXPECT_EQ(body_of(batch, ids[i]), bodies[i]) << "insert_all returns the entries in the order of the keys";
      in_batch[bodies[i]] = ids[i];
    }
  }
  void erase(const std::vector<BodyId>& bodies) {
    std::vector<EntryId> ids;
    for (BodyId b : bodies) {
      one.erase(in_one.at(b));
      ids.push_back(in_batch.at(b));
      in_one.erase(b);
      in_batch.erase(b);
    }
    batch.erase_all(ids);
  }
  void expect_twins(const char* when) {
    EXPECT_TRUE(same_order(one, batch)) << when;
    EXPECT_NO_THROW(sim.audit()) << when;
    // At the top of the clock's interval: just after an algebraic clock, not before it.
    EXPECT_TRUE(sorted_at(sim, batch, sim.now().hi())) << when;
  }
};

std::vector<BodyId> new_bodies(Simulator& sim, const std::vector<Motion<1>>& motions) {
  std::vector<BodyId> b;
  for (const auto& m : motions) b.push_back(sim.bodies().insert(m));
  return b;
}

TEST(SortedListBatch, RandomInsertsAndErasesWhileRunning) {
  const std::uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  Twins w;
  std::vector<Swap> swaps_one, swaps_batch;
  record_swaps(w.one, w.sim, swaps_one);
  record_swaps(w.batch, w.sim, swaps_batch);
  std::vector<BodyId> all;
  for (int round = 0; round < 6; ++round) {
    std::vector<Motion<1>> motions;
    const int n = round == 0 ? 150 : 40;
    for (int i = 0; i < n; ++i) motions.push_back(random_motion(rng, 1 + static_cast<int>(rng() % 2), w.sim.now_approx()));
    std::vector<BodyId> fresh = new_bodies(w.sim, motions);
    // In order of position now half of the time (the build's case), else shuffled.
    if (round % 2 == 0)
      std::sort(fresh.begin(), fresh.end(), [&](BodyId a, BodyId b) {
        return w.sim.bodies().motion(a).position(w.sim.now_approx())[0] < w.sim.bodies().motion(b).position(w.sim.now_approx())[0];
      });
    w.insert(fresh);
    all.insert(all.end(), fresh.begin(), fresh.end());
    w.expect_twins("after insert_all");
    std::shuffle(all.begin(), all.end(), rng);
    const std::vector<BodyId> going(all.end() - 25, all.end());
    all.resize(all.size() - 25);
    w.erase(going);
    w.expect_twins("after erase_all");
    swaps_one.clear();
    swaps_batch.clear();
    w.sim.run_until(0.25 * (round + 1));
    EXPECT_EQ(swaps_one.size(), swaps_batch.size()) << "round " << round;
    w.expect_twins("after running");
  }
}

// Keys equal now (three points through one place at the moment of the batch, two more in
// the list already) and equal forever (identical motions): the batch puts them where
// one-by-one inserts do, the list's own first, then in the given order.
TEST(SortedListBatch, KeysEqualNowAndForever) {
  Twins w;
  const auto old = new_bodies(w.sim, {Motion<1>::linear(0.0, {1.0}, {0.5}), Motion<1>::linear(0.0, {1.0}, {0.5}),
                                      Motion<1>::linear(0.0, {1.0}, {-1.0}), Motion<1>::constant({3.0})});
  w.insert(old);
  const auto fresh = new_bodies(w.sim, {Motion<1>::linear(0.0, {1.0}, {0.5}), Motion<1>::linear(0.0, {1.0}, {2.0}),
                                        Motion<1>::linear(0.0, {1.0}, {-1.0}), Motion<1>::linear(0.0, {1.0}, {0.5}),
                                        Motion<1>::constant({3.0}), Motion<1>::constant({0.0})});
  w.insert(fresh);
  w.expect_twins("at time 0");
  // Among the keys equal to an old one forever, the old one comes first.
  EXPECT_LT(w.batch.rank(w.in_batch.at(old[0])), w.batch.rank(w.in_batch.at(fresh[0])));
  EXPECT_LT(w.batch.rank(w.in_batch.at(fresh[0])), w.batch.rank(w.in_batch.at(fresh[3])));
  EXPECT_LT(w.batch.rank(w.in_batch.at(old[3])), w.batch.rank(w.in_batch.at(fresh[4])));
  w.sim.run_until(1.0);
  w.expect_twins("at time 1");
}

// A batch at an algebraic event time (the clock is sqrt 2): keys through the place of the
// swap then, and erasing the two entries of the swap that set the clock.
TEST(SortedListBatch, AtAnAlgebraicEventTime) {
  Twins w;
  const auto first = new_bodies(w.sim, {Motion<1>::constant({0.0}), cubic(0.0, -2.0, 0.0, 1.0, 0.0)});  // t^2 - 2
  w.insert(first);
  ASSERT_TRUE(w.sim.step());
  ASSERT_TRUE(w.sim.step());  // the swaps of both lists at sqrt 2
  ASSERT_FALSE(w.sim.now().is_point());
  const auto fresh = new_bodies(w.sim, {Motion<1>::linear(0.0, {0.0}, {0.0}), cubic(0.0, -2.0, 0.0, 1.0, 0.0),
                                        Motion<1>::linear(0.0, {1.0}, {-0.5})});
  w.insert(fresh);
  w.expect_twins("after insert_all at sqrt 2");
  w.erase(first);
  const double rounded = w.sim.round_clock();
  EXPECT_GE(Rational(rounded) * Rational(rounded), Rational(2)) << "the clock went back before sqrt(2): " << rounded;
  w.expect_twins("after erase_all at sqrt 2");
  w.sim.run_until(3.0);
  w.expect_twins("at time 3");
}

TEST(SortedListBatch, EmptyBatchesEmptyListsAndEverything) {
  Twins w;
  w.insert({});
  w.expect_twins("empty batch into an empty list");
  const auto b = new_bodies(w.sim, {Motion<1>::linear(0.0, {2.0}, {-1.0})});
  w.insert(b);
  w.expect_twins("one key");
  const auto more = new_bodies(w.sim, {Motion<1>::constant({1.0}), Motion<1>::constant({3.0})});
  w.insert(more);
  w.erase({});
  w.expect_twins("empty erase");
  w.erase({b[0], more[0], more[1]});
  EXPECT_EQ(w.batch.size(), 0u);
  w.expect_twins("everything erased");
}

TEST(SortedListBatch, CallbacksAfterTheRepair) {
  Simulator sim;
  SortedList list(sim);
  for (double x : {0.0, 2.0, 4.0}) insert_point(sim, list, Motion<1>::constant({x}));
  std::vector<std::pair<EntryId, std::size_t>> inserted, erased;
  list.on_insert().subscribe([&](EntryId e) {
    EXPECT_NO_THROW(sim.audit()) << "the list is repaired before the callbacks";
    inserted.emplace_back(e, list.rank(e));
  });
  list.on_erase().subscribe([&](EntryId e, std::size_t r) { erased.emplace_back(e, r); });
  const auto bodies = new_bodies(sim, {Motion<1>::constant({3.0}), Motion<1>::constant({1.0})});
  const std::vector<Key> keys{Key::coordinate(bodies[0]), Key::coordinate(bodies[1])};
  const auto ids = list.insert_all(keys);
  ASSERT_EQ(inserted.size(), 2u);
  EXPECT_EQ(inserted[0], std::make_pair(ids[1], std::size_t{1}));  // in the order of their ranks
  EXPECT_EQ(inserted[1], std::make_pair(ids[0], std::size_t{3}));
  const std::vector<EntryId> going{list.order()[1], list.order()[3]};
  list.erase_all(going);
  ASSERT_EQ(erased.size(), 2u);  // the highest old rank first: the ranks erase() would report
  EXPECT_EQ(erased[0], std::make_pair(going[1], std::size_t{3}));
  EXPECT_EQ(erased[1], std::make_pair(going[0], std::size_t{1}));
  EXPECT_TRUE(sim.audit());
}

TEST(SortedListBatch, BadInputChangesNothing) {
  Simulator sim;
  SortedList list(sim);
  const auto a = insert_point(sim, list, Motion<1>::constant({0.0}));
  const auto b = insert_point(sim, list, Motion<1>::constant({1.0}));
  const BodyId gone = sim.bodies().insert(Motion<1>::constant({2.0}));
  sim.bodies().erase(gone);
  const BodyId fine = sim.bodies().insert(Motion<1>::constant({0.5}));
  const std::vector<Key> keys{Key::coordinate(fine), Key::coordinate(gone)};
  const std::vector<EntryId> before(list.order().begin(), list.order().end());
  const auto certificates = sim.certificate_count();
  expect_invalid([&] { list.insert_all(keys); }, {"SortedList::insert_all"});
  expect_invalid([&] { list.erase_all(std::vector<EntryId>{a, 42}); }, {"SortedList::erase_all: entry 42 is not in the list"});
  expect_invalid([&] { list.erase_all(std::vector<EntryId>{b, a, b}); },
                 {"SortedList::erase_all: entry " + std::to_string(b) + " is named twice"});
  EXPECT_EQ(std::vector<EntryId>(list.order().begin(), list.order().end()), before);
  EXPECT_EQ(sim.certificate_count(), certificates);
  EXPECT_TRUE(sim.audit());
}

}  // namespace
}  // namespace kds::testing
