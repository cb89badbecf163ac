// The certificate graph and its GraphViz export.
#include <gtest/gtest.h>

#include <boost/graph/connected_components.hpp>
#include <map>
#include <sstream>

#include "kds/report/certificate_graph.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds::testing {
namespace {

class GraphOfSortedList : public ::testing::Test {
 protected:
  GraphOfSortedList() : list(sim) {
    for (int i = 0; i < 6; ++i) {
      const BodyId b = sim.bodies().insert(Motion<1>::linear(0.0, {double(i)}, {double(i % 3) - 1}));
      points.push_back(b);
      entry_of[b] = list.insert(Key::coordinate(b));
    }
    // Leaves a hole in the body indices.
    list.erase(entry_of[points[2]]);
    sim.bodies().erase(points[2]);
    entry_of.erase(points[2]);
    points.erase(points.begin() + 2);
    sim.run_until(3.0);
  }
  Simulator sim;
  SortedList list;
  std::vector<BodyId> points;
  std::map<BodyId, EntryId> entry_of;
};

TEST_F(GraphOfSortedList, VerticesAreBodiesAndEdgesCertificates) {
  const CertificateGraph g = certificate_graph(sim);
  ASSERT_EQ(boost::num_vertices(g), points.size());
  EXPECT_EQ(boost::num_edges(g), sim.certificate_count());
  for (std::size_t v = 0; v < points.size(); ++v) EXPECT_EQ(g[v].body, points[v]) << "vertices in increasing index";
  std::vector<int> component(boost::num_vertices(g));
  EXPECT_EQ(boost::connected_components(g, component.data()), 1);  // a path along the order
  for (auto [e, end] = boost::edges(g); e != end; ++e) {
    const BodyId u = g[boost::source(*e, g)].body, v = g[boost::target(*e, g)].body;
    ASSERT_TRUE(entry_of.count(u) && entry_of.count(v)) << "an edge on an erased body";
    const std::size_t ru = list.rank(entry_of[u]), rv = list.rank(entry_of[v]);
    EXPECT_EQ(std::max(ru, rv) - std::min(ru, rv), 1u) << "certificate " << g[*e].certificate;
    EXPECT_STREQ(g[*e].kind, "order");
  }
}

TEST_F(GraphOfSortedList, GraphvizNamesEveryCertificateAndBody) {
  std::ostringstream os;
  write_graphviz(os, sim);
  const std::string dot = os.str();
  EXPECT_EQ(dot.rfind("graph G {", 0), 0u) << dot;
  std::size_t certificates = 0;
  sim.for_each_certificate([&](const CertificateBase& c) {
    ++certificates;
    const std::string label = "[label=\"order #" + std::to_string(c.id()) + "\"]";
    const std::string u = std::to_string(c.bodies()[0].index), v = std::to_string(c.bodies()[1].index);
    const std::string edge = u + "--" + v + " " + label;
    const std::string reversed = v + "--" + u + " " + label;
    EXPECT_TRUE(dot.find(edge) != std::string::npos || dot.find(reversed) != std::string::npos)
        << "no edge " << edge << " in\n" << dot;
  });
  EXPECT_EQ(certificates, points.size() - 1);
  for (BodyId id : points) {
    const std::string index = std::to_string(id.index);
    EXPECT_NE(dot.find(index + "[label=\"body " + index + "\"]"), std::string::npos) << dot;
  }
  EXPECT_EQ(dot.find("label=\"body 2\""), std::string::npos) << "the erased body is drawn:\n" << dot;
}

}  // namespace
}  // namespace kds::testing
