// The certificate graph and its GraphViz export.
#include <gtest/gtest.h>

#include <boost/graph/connected_components.hpp>
#include <sstream>

#include "kds/report/certificate_graph.hpp"
#include "structures/sorted_list/sorted_list.hpp"

namespace kds::testing {
namespace {

class GraphOfSortedList : public ::testing::Test {
 protected:
  GraphOfSortedList() : list(sim) {
    for (int i = 0; i < 6; ++i) points.push_back(list.insert(Motion<1>::linear(0.0, {double(i)}, {double(i % 3) - 1})));
    list.erase(points[2]);  // leaves a hole in the object ids
    points.erase(points.begin() + 2);
    sim.run_until(3.0);
  }
  Simulator sim;
  SortedList list;
  std::vector<ObjectId> points;
};

TEST_F(GraphOfSortedList, VerticesAreObjectsAndEdgesCertificates) {
  const CertificateGraph g = certificate_graph(sim);
  ASSERT_EQ(boost::num_vertices(g), points.size());
  EXPECT_EQ(boost::num_edges(g), sim.certificate_count());
  std::vector<int> component(boost::num_vertices(g));
  EXPECT_EQ(boost::connected_components(g, component.data()), 1);  // a path along the order
  for (auto [e, end] = boost::edges(g); e != end; ++e) {
    const ObjectId u = g[boost::source(*e, g)].object, v = g[boost::target(*e, g)].object;
    const std::size_t ru = list.rank(u), rv = list.rank(v);
    EXPECT_EQ(std::max(ru, rv) - std::min(ru, rv), 1u) << "certificate " << g[*e].certificate;
    EXPECT_STREQ(g[*e].kind, "order");
  }
}

TEST_F(GraphOfSortedList, GraphvizNamesEveryCertificateAndObject) {
  std::ostringstream os;
  write_graphviz(os, sim);
  const std::string dot = os.str();
  EXPECT_EQ(dot.rfind("graph G {", 0), 0u) << dot;
  std::size_t certificates = 0;
  sim.for_each_certificate([&](const CertificateBase& c) {
    ++certificates;
    const std::string label = "[label=\"order #" + std::to_string(c.id()) + "\"]";
    const std::string edge =
        std::to_string(c.objects()[0]) + "--" + std::to_string(c.objects()[1]) + " " + label;
    const std::string reversed =
        std::to_string(c.objects()[1]) + "--" + std::to_string(c.objects()[0]) + " " + label;
    EXPECT_TRUE(dot.find(edge) != std::string::npos || dot.find(reversed) != std::string::npos)
        << "no edge " << edge << " in\n" << dot;
  });
  EXPECT_EQ(certificates, points.size() - 1);
  for (ObjectId id : points)
    EXPECT_NE(dot.find(std::to_string(id) + "[label=\"object " + std::to_string(id) + "\"]"), std::string::npos)
        << dot;
}

}  // namespace
}  // namespace kds::testing
