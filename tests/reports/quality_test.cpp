// The quality criteria on a sorted-list run small enough to count by hand, and on a
// hand-made certificate graph with certificates on one and on three bodies.
#include <gtest/gtest.h>

#include <sstream>

#include "kds/report/quality.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds::testing {
namespace {

TEST(Quality, HandCheckedSortedListRun) {
  // A = 2t, B = 1, C = 3. Order A B C, certificates (A,B) and (B,C): 2 at most.
  // t = 0.5: A passes B. The failed (A,B) is destroyed and (B,A) created; (B,C) is
  //          destroyed and (A,C) created: 4 certificates touched. Order B A C.
  // t = 1.5: A passes C. (A,C) -> (C,A) and (B,A) -> (B,C): 4 touched. Order B C A.
  // Both events are swaps, so both are external: 1 event per external event.
  // At the end (B,C) and (C,A): C is in 2 certificates, B and A in 1: 4/3 on average.
  Simulator sim;
  SortedList list(sim);
  const BodyId a = sim.bodies().insert(Motion<1>::linear(0.0, {0.0}, {2.0}));
  const BodyId b = sim.bodies().insert(Motion<1>::constant({1.0}));
  const BodyId c = sim.bodies().insert(Motion<1>::constant({3.0}));
  const EntryId ea = list.insert(Key::coordinate(a));
  const EntryId eb = list.insert(Key::coordinate(b));
  const EntryId ec = list.insert(Key::coordinate(c));
  sim.run_until(2.0);
  ASSERT_EQ(std::vector<EntryId>(list.order().begin(), list.order().end()), (std::vector<EntryId>{eb, ec, ea}));

  const Quality q = measure_quality(sim);
  EXPECT_EQ(q.bodies, 3u);
  EXPECT_EQ(q.certificates, 2u);
  EXPECT_EQ(q.certificates_max, 2u);
  EXPECT_EQ(q.events, 2u);
  EXPECT_DOUBLE_EQ(q.touched_per_event, 4.0);
  EXPECT_EQ(q.touched_per_event_max, 4u);
  EXPECT_EQ(q.certificates_per_body_max, 2u);
  EXPECT_EQ(q.busiest_body, c);
  EXPECT_DOUBLE_EQ(q.certificates_per_body, 4.0 / 3.0);
  EXPECT_EQ(q.external_events, 2u);
  EXPECT_DOUBLE_EQ(q.events_per_external_event, 1.0);

  std::ostringstream os;
  os << q;
  EXPECT_EQ(os.str(),
            "compactness:    2 certificates for 3 bodies (at most 2)\n"
            "responsiveness: 4.00 certificates touched per event (at most 4)\n"
            "locality:       1.33 certificates per body (at most 2, on body " + std::to_string(c.index) + ")\n"
            "efficiency:     2 events for 2 external events (1.00 per external event)\n");
}

TEST(Quality, EmptySimulator) {
  Simulator sim;
  const Quality q = measure_quality(sim);
  EXPECT_EQ(q.bodies, 0u);
  EXPECT_EQ(q.certificates, 0u);
  EXPECT_EQ(q.touched_per_event, 0.0);
  EXPECT_EQ(q.certificates_per_body, 0.0);
  EXPECT_TRUE(q.busiest_body.is_none());
  EXPECT_EQ(q.events_per_external_event, 0.0);
  std::ostringstream os;
  os << q;
  EXPECT_NE(os.str().find("efficiency:     0 events for 0 external events\n"), std::string::npos);
}

/// A certificate that always holds, on any bodies: only its place in the graph matters.
class Holds final : public Certificate<Holds> {
 public:
  Holds(BodyId a) : Certificate<Holds>({a}) {}
  Holds(BodyId a, BodyId b) : Certificate<Holds>({a, b}) {}
  Holds(BodyId a, BodyId b, BodyId c) : Certificate<Holds>({a, b, c}) {}
  template <class NT>
  Polynomial<NT> function(double) const {
    return Polynomial<NT>(NT(1.0));
  }
  void on_failure(Simulator& sim) override { sim.destroy(this); }
  const char* kind() const override { return "holds"; }
};

TEST(Quality, LocalityCountsEachCertificateOncePerBody) {
  // (o0, o1, o2) joins o0-o1 and o1-o2; (o3) is a loop; (o0, o1) another edge o0-o1.
  // Certificates per body: o0 2, o1 2, o2 1, o3 1, o4 0: 6/5 on average, 2 at most (o0).
  Simulator sim;
  std::vector<BodyId> o;
  for (int i = 0; i < 5; ++i) o.push_back(sim.bodies().insert(Motion<1>::constant({double(i)})));
  sim.create<Holds>(o[0], o[1], o[2]);
  sim.create<Holds>(o[3]);
  sim.create<Holds>(o[0], o[1]);
  const Quality q = measure_quality(sim);
  EXPECT_EQ(q.certificates, 3u);
  EXPECT_EQ(q.certificates_per_body_max, 2u);
  EXPECT_EQ(q.busiest_body, o[0]);
  EXPECT_DOUBLE_EQ(q.certificates_per_body, 6.0 / 5.0);
}

}  // namespace
}  // namespace kds::testing
