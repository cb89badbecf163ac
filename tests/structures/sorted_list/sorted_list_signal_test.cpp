// The callback contract of the sorted list (structures/sorted_list/sorted_list.hpp and
// kds/signal.hpp), from the list's point of view: callbacks run after the repair (order,
// ranks and certificates up to date, an audit passes inside them); they may unsubscribe
// themselves and others, subscribe new callbacks (which first run at the next emission),
// change body motions and change other structures; inserting into or erasing from the
// list that calls them is an InvalidInput that leaves the list as it was.
#include <gtest/gtest.h>

#include <iterator>
#include <random>

#include "kds/errors.hpp"
#include "sorted_list_support.hpp"
#include "test_seed.hpp"

namespace {

using namespace kds::testing;
using kds::BodyId;
using kds::EntryId;
using kds::Motion;

/// Whether the list has the certificate "lower is just below upper" (on lower's body).
bool has_certificate(const kds::Simulator& sim, const kds::SortedList& list, EntryId lower, EntryId upper) {
  for (const kds::BodyLink& l : sim.bodies().certificates_of(body_of(list, lower))) {
    const auto* c = dynamic_cast<const kds::SortedList::Certificate*>(l.owner());
    if (c != nullptr && c->alive() && c->lower() == lower && c->upper() == upper) return true;
  }
  return false;
}

/// Runs sim.audit() and counts the audits that ran (an audit is skipped when another
/// event is at this very time). An AuditFailure is a test failure.
void audit_now(kds::Simulator& sim, std::size_t& audited) {
  bool ran = false;
  EXPECT_NO_THROW(ran = sim.audit());
  audited += ran;
}

TEST(SortedListSignals, CallbacksRunAfterTheRepair) {
  std::mt19937_64 rng(test_seed());
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::size_t swaps_seen = 0, inserts_seen = 0, erases_seen = 0, audited = 0;
  std::size_t expected_size = 0;
  BodyId erased_body;
  list.on_swap().subscribe([&](EntryId left, EntryId right) {
    ++swaps_seen;
    ASSERT_TRUE(list.contains(left) && list.contains(right));
    // `left` was just before `right` and is now just after it: the order is already swapped.
    const std::size_t r = list.rank(right);
    ASSERT_LT(r + 1, list.size());
    EXPECT_EQ(list.order()[r], right);
    EXPECT_EQ(list.order()[r + 1], left);
    EXPECT_EQ(list.rank(left), r + 1);
    EXPECT_EQ(list.swaps(), swaps_seen);
    // The certificates are replaced: the new pair has its certificate, and there are n - 1.
    EXPECT_TRUE(has_certificate(sim, list, right, left));
    EXPECT_EQ(sim.certificate_count(), list.size() - 1);
    audit_now(sim, audited);
  });
  list.on_insert().subscribe([&](EntryId e) {
    ++inserts_seen;
    ASSERT_TRUE(list.contains(e));
    EXPECT_EQ(list.size(), expected_size);
    EXPECT_EQ(list.order()[list.rank(e)], e);
    EXPECT_EQ(sim.bodies().holders(body_of(list, e)), 1u);
    if (list.rank(e) > 0) EXPECT_TRUE(has_certificate(sim, list, list.order()[list.rank(e) - 1], e));
    if (list.rank(e) + 1 < list.size()) EXPECT_TRUE(has_certificate(sim, list, e, list.order()[list.rank(e) + 1]));
    EXPECT_EQ(sim.certificate_count(), list.size() - 1);
    audit_now(sim, audited);
  });
  list.on_erase().subscribe([&](EntryId e, std::size_t rank) {
    ++erases_seen;
    EXPECT_FALSE(list.contains(e));
    EXPECT_EQ(list.size(), expected_size);
    EXPECT_LE(rank, list.size());
    EXPECT_EQ(sim.bodies().holders(erased_body), 0u) << "the erased entry's body is released before the callback";
    if (rank > 0 && rank < list.size()) EXPECT_TRUE(has_certificate(sim, list, list.order()[rank - 1], list.order()[rank]));
    EXPECT_EQ(sim.certificate_count(), list.size() == 0 ? 0 : list.size() - 1);
    audit_now(sim, audited);
  });

  std::vector<EntryId> live;
  double t = 0;
  for (int op = 0; op < 150; ++op) {
    if (live.size() < 4 || std::uniform_int_distribution<int>(0, 2)(rng) > 0) {
      ++expected_size;
      live.push_back(insert_point(sim, list, random_motion(rng, 1 + op % 3, t)));
    } else {
      const std::size_t i = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
      --expected_size;
      erased_body = body_of(list, live[i]);
      erase_point(sim, list, live[i]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    }
    t += 0.02;
    sim.run_until(t);
    if (HasFailure()) return;
  }
  EXPECT_EQ(swaps_seen, list.swaps());
  EXPECT_GT(swaps_seen, 100u);
  EXPECT_EQ(inserts_seen + erases_seen, 150u);
  EXPECT_GT(erases_seen, 10u);
  EXPECT_GT(audited, (swaps_seen + inserts_seen + erases_seen) / 2) << "most callbacks should have audited";
  RecordProperty("swaps", std::to_string(swaps_seen));
}

TEST(SortedListSignals, SubscribeAndUnsubscribeFromInsideACallback) {
  std::mt19937_64 rng(test_seed());
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  for (int i = 0; i < 30; ++i) insert_point(sim, list, random_motion(rng, 1, 0.0, 3.0));
  int a_calls = 0, b_calls = 0, c_calls = 0, d_calls = 0;
  kds::SubscriptionId a = 0, b = 0, d = 0;
  a = list.on_swap().subscribe([&](EntryId, EntryId) {
    ++a_calls;
    if (a_calls == 1) {
      list.on_swap().unsubscribe(b);  // b comes later in this emission: it must not run
      d = list.on_swap().subscribe([&](EntryId, EntryId) { ++d_calls; });  // first runs at the next swap
    }
    if (a_calls == 3) list.on_swap().unsubscribe(a);  // itself: runs three times in all
  });
  b = list.on_swap().subscribe([&](EntryId, EntryId) { ++b_calls; });
  list.on_swap().subscribe([&](EntryId, EntryId) { ++c_calls; });
  sim.run_until(2.0);
  const auto swaps = static_cast<int>(list.swaps());
  ASSERT_GT(swaps, 10);
  EXPECT_EQ(a_calls, 3);
  EXPECT_EQ(b_calls, 0);
  EXPECT_EQ(c_calls, swaps);
  EXPECT_EQ(d_calls, swaps - 1);
  // Unsubscribing twice, or an id never given, is an error naming the subscription.
  expect_invalid([&] { list.on_swap().unsubscribe(a); },
                 {"unsubscribe: subscription " + std::to_string(a) + " is unknown"});
  expect_invalid([&] { list.on_swap().unsubscribe(12345); }, {"subscription 12345 is unknown"});
  list.on_swap().unsubscribe(d);
  sim.run_until(3.0);
  EXPECT_EQ(d_calls, swaps - 1) << "an unsubscribed callback ran";
  EXPECT_EQ(c_calls, static_cast<int>(list.swaps()));
}

TEST(SortedListSignals, InsertOrEraseFromTheListsOwnCallbackThrows) {
  std::mt19937_64 rng(test_seed());
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim), other(sim);
  for (int i = 0; i < 12; ++i) insert_point(sim, list, random_motion(rng, 2));
  const BodyId spare = sim.bodies().insert(Motion<1>::constant({0.5}));
  const std::string refused = "called from one of this list's own callbacks";
  std::size_t tried = 0, audited = 0;
  // Inside any of the list's callbacks, insert and erase are refused and change nothing;
  // another structure may be changed, and the audit passes.
  auto try_changes = [&](EntryId some_entry) {
    ++tried;
    const std::vector<EntryId> order = kds::testing::order_of(list);
    const std::size_t certificates = sim.certificate_count();
    const std::uint32_t holders = sim.bodies().holders(spare);
    expect_invalid([&] { list.insert(kds::Key::coordinate(spare)); }, {"SortedList::insert: " + refused});
    expect_invalid([&] { list.erase(some_entry); }, {"SortedList::erase: " + refused});
    EXPECT_EQ(kds::testing::order_of(list), order);
    EXPECT_EQ(sim.certificate_count(), certificates);
    EXPECT_EQ(sim.bodies().holders(spare), holders) << "a refused insert must not hold its body";
    if (list.contains(some_entry)) EXPECT_EQ(list.order()[list.rank(some_entry)], some_entry);
    const EntryId e = other.insert(kds::Key::coordinate(spare));  // another list: allowed
    other.erase(e);
    audit_now(sim, audited);
  };
  list.on_swap().subscribe([&](EntryId left, EntryId) { try_changes(left); });
  list.on_insert().subscribe([&](EntryId e) { try_changes(e); });
  list.on_erase().subscribe([&](EntryId, std::size_t) { try_changes(list.order().front()); });
  const EntryId late = insert_point(sim, list, random_motion(rng, 2));
  EXPECT_EQ(tried, 1u);
  sim.run_until(2.0);
  ASSERT_GT(list.swaps(), 5u);
  EXPECT_EQ(tried, 1u + list.swaps());
  erase_point(sim, list, late);
  EXPECT_EQ(tried, 2u + list.swaps());
  EXPECT_GT(audited, 0u);
  EXPECT_EQ(list.size(), 12u);
  EXPECT_EQ(other.size(), 0u);
  EXPECT_EQ(sim.bodies().holders(spare), 0u);
  EXPECT_TRUE(sim.audit());
  EXPECT_TRUE(sorted_at(sim, list, 2.0));
  // Outside the callbacks, the list takes the spare body.
  EXPECT_NO_THROW(list.insert(kds::Key::coordinate(spare)));
  EXPECT_EQ(tried, 3u + list.swaps());
  EXPECT_EQ(sim.bodies().holders(spare), 1u);
  EXPECT_TRUE(sorted_at(sim, list, 2.0));
}

TEST(SortedListSignals, CallbacksMayChangeMotionsOfTheListsBodies) {
  // At each of the first swaps, a random body of the list turns (a new motion from the
  // current position at the rounded clock): its certificates are rescheduled from inside
  // the callback, those it breaks fail at once, and the list stays sorted.
  std::mt19937_64 rng(test_seed());
  kds::Simulator sim({.audit = true});
  kds::SortedList list(sim);
  std::vector<EntryId> entries;
  for (int i = 0; i < 25; ++i) entries.push_back(insert_point(sim, list, random_motion(rng, 1 + i % 2)));
  int turns = 0;
  list.on_swap().subscribe([&](EntryId, EntryId) {
    if (turns >= 200) return;
    ++turns;
    const BodyId b = body_of(list, entries[std::uniform_int_distribution<std::size_t>(0, entries.size() - 1)(rng)]);
    const double now = sim.round_clock();
    const double x = sim.bodies().motion(b).position(now)[0];
    const auto rescheduled = sim.statistics().certificates_rescheduled;
    const std::size_t certificates = std::distance(sim.bodies().certificates_of(b).begin(), sim.bodies().certificates_of(b).end());
    sim.bodies().set_motion(b, Motion<1>::linear(now, {x}, {std::uniform_real_distribution<double>(-1.0, 1.0)(rng)}));
    EXPECT_EQ(sim.statistics().certificates_rescheduled, rescheduled + certificates);
  });
  const double horizon = 3.0;
  while (true) {
    const kds::Root next = sim.next_event_time();
    if (next.is_infinite() || kds::compare(next, horizon) > 0) break;
    ASSERT_TRUE(sim.step());
    if (const auto t = sim.time_between_events(horizon)) ASSERT_TRUE(sorted_at(sim, list, *t));
  }
  sim.run_until(horizon);
  EXPECT_TRUE(sorted_at(sim, list, horizon));
  EXPECT_EQ(turns, 200) << "the scene should have had enough swaps";
  EXPECT_EQ(sim.certificate_count(), entries.size() - 1);
}

}  // namespace
