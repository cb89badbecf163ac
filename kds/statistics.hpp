#pragma once
/// \file
/// What the simulator counts: events by kind, certificate traffic, and how often the
/// exact path of the solver ran.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "kds/solver.hpp"

namespace kds {

struct Statistics {
  std::uint64_t events = 0;                ///< certificate failures processed
  std::uint64_t external_events = 0;       ///< changes of the attribute a structure reports (swaps...)
  std::uint64_t events_at_equal_times = 0; ///< events whose time equals the previous event's exactly
  std::uint64_t certificates_created = 0;
  std::uint64_t certificates_destroyed = 0;
  std::uint64_t certificates_rescheduled = 0;  ///< failure times recomputed for existing certificates
  std::uint64_t certificates_renewed = 0;  ///< certificates given new data in place (Simulator::renew)
  std::uint64_t certificates_kept = 0;  ///< certificates a motion change left as they were (Simulator::keep)
  std::uint64_t certificates_live = 0;
  std::uint64_t certificates_live_max = 0;
  std::uint64_t touched_total = 0;  ///< certificates created, destroyed or rescheduled while processing events (a renewal counts as a destruction and a creation)
  std::uint64_t touched_max = 0;    ///< ... the most in one event
  std::uint64_t beyond_horizon = 0;  ///< failures not queued because they lie beyond the certificate's horizon
  std::uint64_t failures_deferred = 0;  ///< failure times deferred (CertificateBase::holds_before)
  std::uint64_t deferred_computed = 0;  ///< ... and computed later, when their time reached the front of the queue
  std::uint64_t audits = 0;
  std::uint64_t audits_skipped = 0; ///< no double lay strictly between two events
  SolverCounters solver;            ///< solver activity since the simulator started

  struct KindCount {
    std::string kind;
    std::uint64_t count;
  };
  std::vector<KindCount> events_by_kind;
  std::uint64_t events_of(const std::string& kind) const {
    for (const auto& k : events_by_kind)
      if (k.kind == kind) return k.count;
    return 0;
  }

  /// A human-readable summary, one fact per line.
  friend std::ostream& operator<<(std::ostream& os, const Statistics& s) {
    os << "events: " << s.events << " (external " << s.external_events << ", at equal times "
       << s.events_at_equal_times << ")\n";
    for (const auto& k : s.events_by_kind) os << "  " << k.kind << ": " << k.count << '\n';
    os << "certificates: created " << s.certificates_created << ", destroyed " << s.certificates_destroyed
 << ", rescheduled " << s.certificates_rescheduled << ", renewed " << s.certificates_renewed << ", kept " << s.certificates_kept << ", live " << s.certificates_live << " (max "
       << s.certificates_live_max << ")\n";
    os << "failure times: " << s.solver.failure_computations << " computed, " << s.solver.failure_exact
       << " by the exact path";
    if (s.solver.failure_apart > 0) os << ", " << s.solver.failure_apart << " \"not before the horizon\" by holds_before alone";
    os << '\n';
    if (s.failures_deferred > 0)
      os << "failure times deferred: " << s.failures_deferred << ", of which computed later " << s.deferred_computed
         << '\n';
    os << "comparisons: " << s.solver.comparisons << ", " << s.solver.comparisons_exact << " exact, "
       << s.solver.comparisons_same_line << " of one linear function\n";
    os << "sign queries: " << s.solver.sign_queries << ", " << s.solver.sign_exact << " exact\n";
    if (s.solver.exact_linear > 0)
      os << "exact failure times and signs of linear functions (rational lane): " << s.solver.exact_linear << '\n';
    if (s.audits + s.audits_skipped > 0)
      os << "audits: " << s.audits << " passed, " << s.audits_skipped << " skipped (no double between two events)\n";
    return os;
  }
};

}  // namespace kds
