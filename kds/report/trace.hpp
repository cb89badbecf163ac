#pragma once
/// \file
/// A trace of a simulation: one JSON object per event, one per line (JSON Lines), so that
/// a run can be replayed, plotted or diffed against another run with ordinary tools.
///
/// Each line has the fields
///   "event"    index of the event (0 for the first),
///   "time"     a decimal approximation of the event time (17 significant digits),
///   "interval" [lo, hi]: the isolating interval of the exact time (lo == hi for a double),
///   "exact"    whether the exact path was needed to decide it,
///   "kind"     the failed certificate's kind,
///   "bodies"   the indices of the certificate's bodies,
///   "touched"  certificates created, destroyed or rescheduled by the repair.
/// For example:
///   {"event":0,"time":0.5,"interval":[0.5,0.5],"exact":false,"kind":"order","bodies":[3,1],"touched":5}
/// Traces written by `kds run --trace` start with one more line, a header naming the
/// scenario file and the settings (it has "kds_trace" where events have "event"), so that
/// `kds replay --check` can run them again: docs/cli.md.

#include <ostream>

#include "kds/observer.hpp"

namespace kds {

class TraceWriter final : public Observer {
 public:
  /// Writes to `out`, which must outlive the writer; register with Simulator::add_observer.
  explicit TraceWriter(std::ostream& out) : out_(out) {}
  void on_event(const EventRecord& e) override;

 private:
  std::ostream& out_;
};

}  // namespace kds
