#pragma once
/// \file
/// The certificate graph of a simulator: bodies as vertices, certificates as edges.
///
/// It is what the locality criterion measures (how many certificates a body is in)
/// and what teachers want to draw. A Boost.Graph `adjacency_list`, so that any Boost.Graph
/// algorithm (components, degrees, layouts) runs on it. A certificate on one body is a
/// loop; on k > 2 bodies it joins consecutive bodies (k - 1 edges with the same
/// certificate); a certificate on no body has no edge.

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <ostream>

#include "kds/simulator.hpp"

namespace kds {

struct CertificateGraphVertex {
  BodyId body;
};
struct CertificateGraphEdge {
  std::uint32_t certificate = 0;  ///< CertificateBase::id()
  const char* kind = "";          ///< CertificateBase::kind()
};
using CertificateGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, CertificateGraphVertex,
                                               CertificateGraphEdge>;

/// The live bodies (in increasing index) and certificates of `sim` now.
CertificateGraph certificate_graph(const Simulator& sim);

/// Writes the certificate graph in GraphViz DOT: vertices labelled "body <index>", edges
/// labelled "<kind> #<certificate id>".
void write_graphviz(std::ostream& os, const Simulator& sim);

}  // namespace kds
