#pragma once
/// \file
/// The benchmark's output: one CSV row per n and mode, and the same figures as a table.
///
/// The raw counters are in the CSV so that any rate can be recomputed; the derived
/// columns are the ones the targets are stated in (docs/benchmarks.md).

#include <cstdint>
#include <ostream>
#include <vector>

#include "bench/sorted_list/measure.hpp"

namespace kds::bench {

/// The repetitions of one n in one mode, summed.
struct Row {
  std::size_t n = 0;
  Exactness mode = Exactness::filtered;
  int repetitions = 0;
  double horizon = 0;
  RunResult total;  ///< sums over the repetitions
  /// run_seconds (CPU) of the filtered row over that of the floating row with the same
  /// n (same scenes); 0 where unknown.
  double filtered_over_floating = 0;

  /// Events per CPU second of the event loop.
  double events_per_second() const { return total.run_seconds > 0 ? total.events / total.run_seconds : 0; }
  double swaps_per_point() const { return repetitions > 0 ? double(total.swaps) / double(n * repetitions) : 0; }
  /// Every call of the exact path: failure times, signs and root comparisons.
  std::uint64_t exact_fallbacks() const {
    return total.solver.failure_exact + total.solver.sign_exact + total.solver.comparisons_exact;
  }
  /// exact_fallbacks() per `per` root comparisons.
  double fallbacks_per(double per) const {
    return total.solver.comparisons > 0 ? per * double(exact_fallbacks()) / double(total.solver.comparisons) : 0;
  }
};

const char* mode_name(Exactness mode);
void write_csv(std::ostream& os, const std::vector<Row>& rows);
void write_table(std::ostream& os, const std::vector<Row>& rows);

}  // namespace kds::bench
