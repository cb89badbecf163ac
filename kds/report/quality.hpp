#pragma once
/// \file
/// The four quality criteria of a kinetic data structure (Basch, Guibas, Hershberger),
/// measured on a running simulator:
/// - compactness: how many certificates it holds, now and at most;
/// - responsiveness: how many certificates an event creates, destroys or reschedules;
/// - locality: how many certificates one body is in (a motion change costs that many);
/// - efficiency: how many events it processes per change of what it maintains.
/// Written for teaching and for comparing structures, so every number comes from the
/// simulator's own counters or its certificate graph (kds/report/certificate_graph.hpp).

#include <cstddef>
#include <cstdint>
#include <ostream>

#include "kds/simulator.hpp"

namespace kds {

struct Quality {
  std::size_t bodies = 0;  ///< live bodies now

  // Compactness.
  std::size_t certificates = 0;       ///< live certificates now
  std::uint64_t certificates_max = 0; ///< the most live at once so far

  // Responsiveness: certificates touched (created, destroyed, rescheduled) per event.
  double touched_per_event = 0;        ///< average over the events so far (0 without events)
  std::uint64_t touched_per_event_max = 0;

  // Locality, over the live bodies now.
  std::size_t certificates_per_body_max = 0;
  double certificates_per_body = 0;  ///< average (0 without bodies)
  BodyId busiest_body;                 ///< a body with the most certificates (smallest index)

  // Efficiency.
  std::uint64_t events = 0;
  std::uint64_t external_events = 0;
  /// events / external_events; 0 when there was no external event yet.
  double events_per_external_event = 0;
};

/// Measures the criteria now. Not const: the simulator's statistics are brought up to date.
Quality measure_quality(Simulator& sim);

/// A short printable summary, one criterion per line.
std::ostream& operator<<(std::ostream& os, const Quality& q);

}  // namespace kds
