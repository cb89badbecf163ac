#include "kds/report/certificate_graph.hpp"

#include <boost/graph/graphviz.hpp>
#include <boost/property_map/transform_value_property_map.hpp>
#include <vector>

namespace kds {

CertificateGraph certificate_graph(const Simulator& sim) {
  CertificateGraph g;
  // Body indices are dense, with holes where bodies were erased.
  std::vector<std::size_t> vertex_of(sim.bodies().index_bound());
  sim.bodies().for_each([&](BodyId id) {
    vertex_of[id.index] = boost::num_vertices(g);
    boost::add_vertex(CertificateGraphVertex{id}, g);
  });
  sim.for_each_certificate([&](const CertificateBase& c) {
    const auto bodies = c.bodies();
    const CertificateGraphEdge edge{c.id(), c.kind()};
    if (bodies.size() == 1) boost::add_edge(vertex_of[bodies[0].index], vertex_of[bodies[0].index], edge, g);
    for (std::size_t i = 0; i + 1 < bodies.size(); ++i)
      boost::add_edge(vertex_of[bodies[i].index], vertex_of[bodies[i + 1].index], edge, g);
  });
  return g;
}

void write_graphviz(std::ostream& os, const Simulator& sim) {
  const CertificateGraph g = certificate_graph(sim);
  auto vertex_label = [&](std::ostream& out, CertificateGraph::vertex_descriptor v) {
    out << "[label=\"body " << g[v].body << "\"]";
  };
  auto edge_label = [&](std::ostream& out, CertificateGraph::edge_descriptor e) {
    out << "[label=\"" << g[e].kind << " #" << g[e].certificate << "\"]";
  };
  boost::write_graphviz(os, g, vertex_label, edge_label, boost::default_writer(),
                        boost::make_transform_value_property_map([](BodyId b) { return b.index; },
                                                                        boost::get(&CertificateGraphVertex::body, g)));
}

}  // namespace kds
