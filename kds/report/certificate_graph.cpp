#include "kds/report/certificate_graph.hpp"

#include <boost/graph/graphviz.hpp>
#include <vector>

namespace kds {

CertificateGraph certificate_graph(const Simulator& sim) {
  CertificateGraph g;
  // Object ids are dense, with holes where objects were removed: scan until all are found.
  std::vector<std::size_t> vertex_of;
  for (ObjectId id = 0; boost::num_vertices(g) < sim.object_count(); ++id) {
    vertex_of.push_back(boost::num_vertices(g));
    if (sim.has_object(id)) boost::add_vertex(CertificateGraphVertex{id}, g);
  }
  sim.for_each_certificate([&](const CertificateBase& c) {
    const auto objects = c.objects();
    const CertificateGraphEdge edge{c.id(), c.kind()};
    if (objects.size() == 1) boost::add_edge(vertex_of[objects[0]], vertex_of[objects[0]], edge, g);
    for (std::size_t i = 0; i + 1 < objects.size(); ++i)
      boost::add_edge(vertex_of[objects[i]], vertex_of[objects[i + 1]], edge, g);
  });
  return g;
}

void write_graphviz(std::ostream& os, const Simulator& sim) {
  const CertificateGraph g = certificate_graph(sim);
  auto vertex_label = [&](std::ostream& out, CertificateGraph::vertex_descriptor v) {
    out << "[label=\"object " << g[v].object << "\"]";
  };
  auto edge_label = [&](std::ostream& out, CertificateGraph::edge_descriptor e) {
    out << "[label=\"" << g[e].kind << " #" << g[e].certificate << "\"]";
  };
  boost::write_graphviz(os, g, vertex_label, edge_label, boost::default_writer(),
                        boost::get(&CertificateGraphVertex::object, g));
}

}  // namespace kds
