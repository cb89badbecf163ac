#pragma once
/// \file
/// The clocks every benchmark reads: CPU time of this thread (the machine is shared: wall
/// time counts other people's work, CPU time does not) and wall time for the record.

namespace kds::bench {

/// CPU seconds consumed by the calling thread.
double cpu_seconds();
/// Seconds on a steady clock.
double wall_seconds();

/// Start and stop of a measured stretch.
struct Stopwatch {
  double cpu0 = cpu_seconds(), wall0 = wall_seconds();
  double cpu() const { return cpu_seconds() - cpu0; }
  double wall() const { return wall_seconds() - wall0; }
};

}  // namespace kds::bench
