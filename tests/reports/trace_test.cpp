// The JSON Lines trace: every line parses and says what the simulator told observers.
#include <gtest/gtest.h>

#include <sstream>

#include "json.hpp"
#include "kds/report/trace.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds::testing {
namespace {

/// Keeps a copy of every event record (a record refers to the clock, which moves on).
class Recorder final : public Observer {
 public:
  struct Event {
    std::uint64_t index;
    double approx, lo, hi;
    bool exact;
    std::string kind;
    std::vector<std::uint32_t> bodies;  ///< indices
    std::uint32_t touched;
  };
  void on_event(const EventRecord& e) override {
    events.push_back({e.index, e.time.approx(), e.time.lo(), e.time.hi(), e.exact, e.kind,
                      indices(e.bodies), e.touched});
  }
  std::vector<Event> events;

 private:
  static std::vector<std::uint32_t> indices(std::span<const BodyId> bodies) {
    std::vector<std::uint32_t> v;
    for (BodyId b : bodies) v.push_back(b.index);
    return v;
  }
};

TEST(Trace, LinesParseAndMatchTheEvents) {
  Simulator sim;
  SortedList list(sim);
  // Four lines through (1, 1) (simultaneous swaps at t = 1), and two parabolas crossing
  // a constant at t = sqrt(2), a time that is not a double.
  auto insert = [&](const Motion<1>& m) { list.insert(Key::coordinate(sim.bodies().insert(m))); };
  for (double v : {2.0, 1.0, -1.0, -2.0}) insert(Motion<1>::linear(0.0, {1.0 - v}, {v}));
  insert(Motion<1>::polynomial(0.0, {{{-2.0, 0.0, 1.0, 0.0}}}));
  insert(Motion<1>::constant({0.0}));
  std::ostringstream out;
  TraceWriter trace(out);
  Recorder recorder;
  sim.add_observer(trace);
  sim.add_observer(recorder);
  sim.run_until(4.0);
  ASSERT_GE(recorder.events.size(), 7u);  // six swaps at t = 1, at least one at sqrt(2)

  std::istringstream lines(out.str());
  std::string line;
  std::size_t n = 0;
  bool irrational = false;
  while (std::getline(lines, line)) {
    SCOPED_TRACE(line);
    ASSERT_LT(n, recorder.events.size());
    const Recorder::Event& e = recorder.events[n++];
    Json j;
    ASSERT_NO_THROW(j = JsonReader::parse(line));
    EXPECT_EQ(j.object().size(), 7u);
    EXPECT_EQ(j["event"].number(), double(e.index));
    EXPECT_EQ(j["time"].number(), e.approx);  // 17 significant digits give the double back
    ASSERT_EQ(j["interval"].array().size(), 2u);
    EXPECT_EQ(j["interval"].array()[0].number(), e.lo);
    EXPECT_EQ(j["interval"].array()[1].number(), e.hi);
    EXPECT_LE(e.lo, e.approx);
    EXPECT_LE(e.approx, e.hi);
    EXPECT_EQ(j["exact"].boolean(), e.exact);
    EXPECT_EQ(j["kind"].string(), e.kind);
    ASSERT_EQ(j["bodies"].array().size(), e.bodies.size());
    ASSERT_EQ(e.bodies.size(), 2u) << "an order certificate names the bodies of its two keys";
    for (std::size_t i = 0; i < e.bodies.size(); ++i) EXPECT_EQ(j["bodies"].array()[i].number(), double(e.bodies[i]));
    EXPECT_EQ(j["touched"].number(), double(e.touched));
    irrational = irrational || e.lo < e.hi;
  }
  EXPECT_EQ(n, recorder.events.size());
  EXPECT_EQ(n, sim.statistics().events);
  EXPECT_TRUE(irrational) << "the crossing at sqrt(2) should have an isolating interval";
}

TEST(Trace, ReaderRejectsMalformedLines) {
  EXPECT_THROW(JsonReader::parse("{\"event\":0,}"), std::runtime_error);
  EXPECT_THROW(JsonReader::parse("{\"time\":01}"), std::runtime_error);
  EXPECT_THROW(JsonReader::parse("{\"time\":nan}"), std::runtime_error);
  EXPECT_NO_THROW(JsonReader::parse("{\"a\":[1e-05,-0.5,true,null,\"q\\\"\"]}"));
}

}  // namespace
}  // namespace kds::testing
