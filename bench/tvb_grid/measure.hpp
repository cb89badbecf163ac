#pragma once
/// \file
/// What the sphere-world benchmarks measure, the same way in each program: CPU time of
/// this thread (the machine is shared: wall time counts other people's work, CPU time
/// does not), wall time for the record, resident memory, and the event counts by type.

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "kds/statistics.hpp"

namespace kds::bench {

/// CPU seconds consumed by the calling thread.
double cpu_seconds();
/// Seconds on a steady clock.
double wall_seconds();
/// Heap bytes in use (glibc's mallinfo2): unlike the resident set size, it falls when
/// memory is freed and is not fooled by pages reused from an earlier run in the process.
std::size_t heap_bytes();

/// Start and stop of a measured stretch.
struct Stopwatch {
  double cpu0 = cpu_seconds(), wall0 = wall_seconds();
  double cpu() const { return cpu_seconds() - cpu0; }
  double wall() const { return wall_seconds() - wall0; }
};

/// The sphere world's event kinds, in the paper's order (Figure 6).
inline const std::vector<std::string>& sphere_event_kinds() {
  static const std::vector<std::string> kinds{"entering", "leaving", "resetting", "bound collision", "wall", "collision"};
  return kinds;
}

/// "entering,leaving,resetting,bound_collision,wall,collision": CSV column names.
std::string event_kind_columns();
/// The counts of those kinds in `s`, in the same order.
std::vector<std::uint64_t> event_kind_counts(const Statistics& s);
/// "1,2,3": values for a CSV line.
std::string comma_separated(const std::vector<std::uint64_t>& values);

/// Opens the CSV file at `path` (no file when empty) and writes its header line. Exits the
/// program with status 1 and a message naming the file if it cannot be written.
void open_csv(std::ofstream& csv, const std::string& path, const std::string& header);

}  // namespace kds::bench
