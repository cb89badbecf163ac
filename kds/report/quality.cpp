#include "kds/report/quality.hpp"

#include <algorithm>
#include <iomanip>
#include <vector>

#include "kds/report/certificate_graph.hpp"

namespace kds {
namespace {

/// Certificates on vertex v: distinct certificate ids among its edges (a certificate on
/// k > 2 bodies gives its middle bodies two edges, and a loop may be listed twice).
std::size_t certificates_on(const CertificateGraph& g, CertificateGraph::vertex_descriptor v,
                            std::vector<std::uint32_t>& scratch) {
  scratch.clear();
  for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) scratch.push_back(g[*e].certificate);
  std::sort(scratch.begin(), scratch.end());
  return static_cast<std::size_t>(std::unique(scratch.begin(), scratch.end()) - scratch.begin());
}

}  // namespace

Quality measure_quality(Simulator& sim) {
  const Statistics& s = sim.statistics();
  Quality q;
  q.bodies = sim.bodies().size();
  q.certificates = sim.certificate_count();
  q.certificates_max = s.certificates_live_max;
  q.events = s.events;
  q.external_events = s.external_events;
  q.touched_per_event = s.events == 0 ? 0.0 : double(s.touched_total) / double(s.events);
  q.touched_per_event_max = s.touched_max;
  q.events_per_external_event = s.external_events == 0 ? 0.0 : double(s.events) / double(s.external_events);

  const CertificateGraph g = certificate_graph(sim);
  std::vector<std::uint32_t> scratch;
  std::size_t total = 0;
  for (auto [v, end] = boost::vertices(g); v != end; ++v) {
    const std::size_t n = certificates_on(g, *v, scratch);
    total += n;
    if (q.busiest_body.is_none() || n > q.certificates_per_body_max) {
      q.busiest_body = g[*v].body;
      q.certificates_per_body_max = n;
    }
  }
  q.certificates_per_body = q.bodies == 0 ? 0.0 : double(total) / double(q.bodies);
  return q;
}

std::ostream& operator<<(std::ostream& os, const Quality& q) {
  const auto flags = os.flags();
  const auto precision = os.precision();
  os << std::fixed << std::setprecision(2);
  os << "compactness:    " << q.certificates << " certificates for " << q.bodies << " bodies (at most "
     << q.certificates_max << ")\n";
  os << "responsiveness: " << q.touched_per_event << " certificates touched per event (at most "
     << q.touched_per_event_max << ")\n";
  os << "locality:       " << q.certificates_per_body << " certificates per body (at most "
     << q.certificates_per_body_max;
  if (!q.busiest_body.is_none()) os << ", on body " << q.busiest_body;
  os << ")\n";
  os << "efficiency:     " << q.events << " events for " << q.external_events << " external events";
  if (q.external_events > 0) os << " (" << q.events_per_external_event << " per external event)";
  os << '\n';
  os.flags(flags);
  os.precision(precision);
  return os;
}

}  // namespace kds
