// The scenario files of `kds` (tools/kds): generated scenes read back exactly, errors that
// name the field's path, the trace header, frame times.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "kds/errors.hpp"
#include "test_seed.hpp"
#include "tools/kds/generators.hpp"
#include "tools/kds/scenario_reader.hpp"
#include "tools/kds/scenario_run.hpp"
#include "tools/kds/scenario_writer.hpp"
#include "tools/kds/trace_header.hpp"
#include "tools/kds/xyz_export.hpp"

namespace kds::cli {
namespace {

void expect_same(const Scenario& a, const Scenario& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.box.lo, b.box.lo);
  EXPECT_EQ(a.box.hi, b.box.hi);
  EXPECT_EQ(a.gravity, b.gravity);
  EXPECT_EQ(a.restitution, b.restitution);
  EXPECT_EQ(a.response, b.response);
  EXPECT_EQ(a.contact_tolerance, b.contact_tolerance);
  EXPECT_EQ(a.until, b.until);
  EXPECT_EQ(a.structure, b.structure);
  EXPECT_EQ(a.trajectories.kind, b.trajectories.kind);
  EXPECT_EQ(a.trajectories.seed, b.trajectories.seed);
  EXPECT_EQ(a.trajectories.interval, b.trajectories.interval);
  ASSERT_EQ(a.spheres.size(), b.spheres.size());
  for (std::size_t i = 0; i < a.spheres.size(); ++i) {
    SCOPED_TRACE("sphere " + std::to_string(i));
    EXPECT_EQ(a.spheres[i].position, b.spheres[i].position);
    EXPECT_EQ(a.spheres[i].velocity, b.spheres[i].velocity);
    EXPECT_EQ(a.spheres[i].radius, b.spheres[i].radius);
    EXPECT_EQ(a.spheres[i].mass, b.spheres[i].mass);
    EXPECT_EQ(a.spheres[i].max_acceleration, b.spheres[i].max_acceleration);
  }
}

Scenario round_trip(const Scenario& s) {
  std::ostringstream out;
  write_scenario(out, s);
  return read_scenario(out.str(), "round-trip.json");
}

/// The message of the InvalidInput that reading `text` throws.
std::string error_of(const std::string& text) {
  try {
    read_scenario(text, "t.json");
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "no error";
}

TEST(Scenario, GeneratedScenesReadBackExactly) {
  PaperBoxOptions box;
  box.n = 60;
  box.seed = 5;
  expect_same(paper_box(box), round_trip(paper_box(box)));
  box.ballistic = true;
  expect_same(paper_box(box), round_trip(paper_box(box)));
  CirculatingOptions flow;
  flow.n = 50;
  expect_same(circulating(flow), round_trip(circulating(flow)));
  PoolBreakOptions pool;
  expect_same(pool_break(pool), round_trip(pool_break(pool)));
  pool.space = true;
  pool.restitution = 0.9;
  expect_same(pool_break(pool), round_trip(pool_break(pool)));
  expect_same(bullet_through_paper(BulletOptions{}), round_trip(bullet_through_paper(BulletOptions{})));
  expect_same(rolling_marbles(RollingMarblesOptions{}), round_trip(rolling_marbles(RollingMarblesOptions{})));
}

TEST(Scenario, RollingMarblesRestOnTheFloorApart) {
  for (const std::size_t n : {1, 60, 500}) {
    RollingMarblesOptions o;
    o.n = n;
    o.seed = kds::testing::test_seed();
    SCOPED_TRACE("n = " + std::to_string(n) + ", seed " + std::to_string(o.seed));
    const Scenario s = rolling_marbles(o);
    EXPECT_EQ(s.structure, "rolling-tree");
    EXPECT_EQ(s.response, Response::planar);
    ASSERT_EQ(s.spheres.size(), n);
    double smallest = 1, largest = 0;
    for (const Sphere& m : s.spheres) {
      EXPECT_EQ(m.position[2], m.radius);  // resting on the floor z = 0
      EXPECT_EQ(m.velocity[2], 0);
      EXPECT_GE(m.radius, 0.006 * (1 - 1e-12));
      EXPECT_LE(m.radius, 0.025 * (1 + 1e-12));
      smallest = std::min(smallest, m.radius);
      largest = std::max(largest, m.radius);
    }
    if (n >= 60) EXPECT_GT(largest / smallest, 2);  // mixed sizes
    // The reader's exact checks: inside the box, no two marbles overlapping.
    EXPECT_NO_THROW(round_trip(s));
    // Deterministic: the same options give the same scene.
    expect_same(s, rolling_marbles(o));
  }
}

// The generated scene run as `kds run` runs it (ScenarioRun): the planar response keeps
// every marble on the floor through its contacts, with the rolling tree as with all-pairs.
TEST(Scenario, RollingMarblesStayOnTheFloor) {
  RollingMarblesOptions o;
  o.n = 30;
  o.seed = kds::testing::test_seed();
  SCOPED_TRACE("seed " + std::to_string(o.seed));
  const Scenario s = rolling_marbles(o);
  for (const char* structure : {"rolling-tree", "all-pairs"}) {
    SCOPED_TRACE(structure);
    RunSettings settings;
    settings.structure = structure;
    settings.until = 3;
    ScenarioRun run(s, settings);
    run.world().run_until(run.until());
    EXPECT_GT(run.world().sphere_contacts(), 0u);
    for (SphereId i = 0; i < run.world().size(); ++i) {
      const SphereState m = run.state(i, run.until());
      EXPECT_EQ(m.position[2], s.spheres[i].radius) << "marble " << i;
      EXPECT_EQ(m.velocity[2], 0) << "marble " << i;
    }
  }
}

TEST(Scenario, ResponseIsElasticOrPlanar) {
  const std::string head = R"({"kds_scenario":1,"box":{"lo":[0,0,0],"hi":[10,10,10]},)";
  const std::string ball = R"("spheres":[{"position":[1,1,1],"velocity":[1,2,0],"radius":1}]})";
  EXPECT_EQ(read_scenario(head + ball, "t.json").response, Response::elastic);
  EXPECT_EQ(read_scenario(head + R"("response":"elastic",)" + ball, "t.json").response, Response::elastic);
  EXPECT_EQ(read_scenario(head + R"("response":"planar",)" + ball, "t.json").response, Response::planar);
  EXPECT_EQ(error_of(head + R"("response":"sticky",)" + ball),
            "t.json: response: must be \"elastic\" or \"planar\", got \"sticky\"");
  EXPECT_EQ(error_of(head + R"("response":1,)" + ball), "t.json: response: must be a string, got the number 1");
  // The planar response keeps the spheres on their plane: nothing may move them off it.
  const std::string why = ", but \"response\" is \"planar\": the spheres must keep on their plane z = const";
  EXPECT_EQ(error_of(head + R"("response":"planar","spheres":[{"position":[1,1,1],"radius":1},
                               {"position":[5,5,5],"velocity":[1,0,0.5],"radius":1}]})"),
            "t.json: spheres[1].velocity[2]: is 0.5" + why);
  EXPECT_EQ(error_of(head + R"("response":"planar","gravity":[0,0,-9.81],)" + ball), "t.json: gravity[2]: is -9.81" + why);
  EXPECT_EQ(error_of(head + R"("response":"planar","trajectories":{"kind":"random-forces"},)" + ball),
            "t.json: trajectories.kind: is \"random-forces\" (unknown trajectories move in 3D)" + why);
}

TEST(Scenario, RandomValuesReadBackExactly) {
  std::mt19937_64 rng(kds::testing::test_seed());
  // Spheres on a lattice of cells of side 4 with random radii below 2 and random bits in
  // every double: the shortest decimal form must give each back exactly.
  Scenario s;
  s.box = Box3{{-40, -40, -40}, {40, 40, 40}};
  s.contact_tolerance = 1e-7;
  s.restitution = std::uniform_real_distribution<double>(0, 1)(rng);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < 200; ++i) {
    Sphere sp;
    for (int k = 0; k < 3; ++k) {
      sp.position[k] = -38 + 4 * ((i >> (3 * k)) % 8) + 2 + 0.1 * unit(rng);
      sp.velocity[k] = 100 * (unit(rng) - 0.5);
    }
    sp.radius = 0.1 + 1.7 * unit(rng);
    sp.mass = std::ldexp(unit(rng) + 0.5, static_cast<int>(rng() % 40) - 20);
    s.spheres.push_back(sp);
  }
  expect_same(s, round_trip(s));
}

TEST(Scenario, ErrorsNameTheFileThePathAndTheProblem) {
  const std::string head = R"({"kds_scenario":1,"box":{"lo":[0,0,0],"hi":[10,10,10]},)";
  EXPECT_EQ(error_of(head + R"("spheres":[{"position":[1,1,1],"radius":1},{"position":[5,5,5],"radius":1,"velocity":[0,0,null]}]})"),
            "t.json: spheres[1].velocity[2]: must be a number, got null");
  EXPECT_EQ(error_of(head + R"("spheres":[{"position":[1,1,1],"radius":true}]})"),
            "t.json: spheres[0].radius: must be a number, got true");
  EXPECT_EQ(error_of(head + R"("trajectories":{"kind":"random-forces","interval":0},"spheres":[{"position":[1,1,1],"radius":1}]})"),
            "t.json: trajectories.interval: must be positive, got 0");
  EXPECT_EQ(error_of(head + R"("contact_tolerance":-1,"spheres":[{"position":[1,1,1],"radius":1}]})"),
            "t.json: contact_tolerance: must be positive and finite, got -1");
  EXPECT_EQ(error_of(head + R"("cell_ratio":1,"spheres":[{"position":[1,1,1],"radius":1}]})"),
            "t.json: cell_ratio: must be 0 (the cost model chooses) or at least 2, got 1");
  EXPECT_EQ(error_of(head + R"("gravity":[0,0,1e60],"spheres":[{"position":[1,1,1],"radius":1}]})"),
            "t.json: gravity: gravity.z must be at most 1e+50 in magnitude, got 1e+60");
}

// A force interval or integration step so short that the probes alone would take hours
// (no event budget counts them) is refused before the run, naming the setting; a long
// enough one, or an earlier end, runs.
TEST(Scenario, StepsTooShortToIntegrateAreRefused) {
  auto refusal = [](const Scenario& s) -> std::string {
    try {
      ScenarioRun run(s, RunSettings{});
    } catch (const kds::InvalidInput& e) {
      return e.what();
    }
    return "(no error)";
  };
  const std::string head = R"({"kds_scenario":1,"box":{"lo":[0,0,0],"hi":[10,10,10]},"spheres":[)"
                           R"({"position":[2,5,5],"radius":1,"max_acceleration":1,"velocity":[3,0,0]},)"
                           R"({"position":[8,5,5],"radius":1,"max_acceleration":1,"velocity":[-3,0,0]}],)";
  const Scenario forces = read_scenario(head + R"("trajectories":{"kind":"random-forces","interval":1e-300}})", "t.json");
  const std::string message = refusal(forces);
  EXPECT_NE(message.find("\"trajectories\".interval = 1e-300: 2 spheres integrated in"), std::string::npos) << message;
  EXPECT_NE(message.find("at most 1e+09 pieces"), std::string::npos) << message;
  const Scenario field = read_scenario(head + R"("trajectories":{"kind":"circulation","piece_length":1e-12}})", "t.json");
  EXPECT_NE(refusal(field).find("piece_length = 1e-12"), std::string::npos) << refusal(field);
  RunSettings early;
  early.until = 1e-4;  // 2e8 pieces in all
  EXPECT_NO_THROW(ScenarioRun(field, early));
  const Scenario fine = read_scenario(head + R"("trajectories":{"kind":"random-forces","interval":1e-3}})", "t.json");
  ScenarioRun run(fine, RunSettings{});
  run.world().run_until(run.until());
  EXPECT_GT(run.world().sphere_contacts(), 0u);
}

TEST(Scenario, DefaultsApplyToMissingOptionalFields) {
  const Scenario s = read_scenario(R"({"kds_scenario":1,"box":{"lo":[0,0,0],"hi":[10,10,10]},
                                      "spheres":[{"position":[5,5,5],"radius":1}]})",
                                   "t.json");
  EXPECT_EQ(s.until, 1);
  EXPECT_EQ(s.structure, "tvb-grid");
  EXPECT_EQ(s.restitution, 1);
  EXPECT_FALSE(s.contact_tolerance);
  EXPECT_EQ(s.trajectories.kind, Trajectories::Kind::ballistic);
  EXPECT_EQ(s.spheres[0].mass, 1);
  EXPECT_EQ(s.spheres[0].velocity, (Vec<3>{0, 0, 0}));
}

TEST(TraceHeader, ReadsBackWhatItWrites) {
  TraceHeader h;
  h.kds = "0.1.0";
  h.scenario = "/tmp/a \"quoted\" name.json";
  h.scenario_hash = content_hash("a");
  h.settings.structure = "all-pairs";
  h.settings.until = 0.1 + 0.2;
  h.settings.seed = 18446744073709551615ULL;
  h.settings.audit = true;
  const TraceHeader r = parse_trace_header(trace_header_line(h), "t.jsonl");
  EXPECT_EQ(r.kds, h.kds);
  EXPECT_EQ(r.scenario, h.scenario);
  EXPECT_EQ(r.scenario_hash, "af63dc4c8601ec8c");  // FNV-1a 64 of "a"
  EXPECT_EQ(r.settings.structure, "all-pairs");
  EXPECT_EQ(r.settings.until, 0.1 + 0.2);
  EXPECT_EQ(r.settings.seed, 18446744073709551615ULL);
  EXPECT_TRUE(r.settings.audit);
  EXPECT_THROW(parse_trace_header(R"({"event":0,"time":1})", "t.jsonl"), InvalidInput);
}

TEST(XyzExport, FrameTimesIncludeBothEnds) {
  EXPECT_EQ(frame_times(2, 1), (std::vector<double>{2}));
  EXPECT_EQ(frame_times(2, 2), (std::vector<double>{0, 2}));
  const std::vector<double> t = frame_times(0.3, 4);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t.front(), 0);
  EXPECT_EQ(t.back(), 0.3);  // exactly the end, not 0.3 * 3 / 3 rounded
  EXPECT_TRUE(t[0] < t[1] && t[1] < t[2] && t[2] < t[3]);
}

}  // namespace
}  // namespace kds::cli
