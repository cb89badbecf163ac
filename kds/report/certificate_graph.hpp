#pragma once
/// \file
/// The certificate graph of a simulator: objects as vertices, certificates as edges.
///
/// It is what the locality criterion measures (how many certificates an object is in)
/// and what teachers want to draw. A Boost.Graph `adjacency_list`, so that any Boost.Graph
/// algorithm (components, degrees, layouts) runs on it. A certificate on one object is a
/// loop; on k > 2 objects it joins consecutive objects (k - 1 edges with the same
/// certificate); a certificate on no object has no edge.

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <ostream>

#include "kds/simulator.hpp"

namespace kds {

struct CertificateGraphVertex {
  ObjectId object = no_object;
};
struct CertificateGraphEdge {
  std::uint32_t certificate = 0;  ///< CertificateBase::id()
  const char* kind = "";          ///< CertificateBase::kind()
};
using CertificateGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, CertificateGraphVertex,
                                               CertificateGraphEdge>;

/// The live objects (in increasing id) and certificates of `sim` now.
CertificateGraph certificate_graph(const Simulator& sim);

/// Writes the certificate graph in GraphViz DOT: vertices labelled "object <id>", edges
/// labelled "<kind> #<certificate id>".
void write_graphviz(std::ostream& os, const Simulator& sim);

}  // namespace kds
