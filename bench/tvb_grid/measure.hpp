#pragma once
/// \file
/// What the sphere-world benchmarks measure, the same way in each program: CPU and wall
/// time (bench/common/stopwatch.hpp), heap memory, and the event counts by type.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/common/stopwatch.hpp"
#include "kds/statistics.hpp"

namespace kds::bench {

/// Heap bytes in use (glibc's mallinfo2): unlike the resident set size, it falls when
/// memory is freed and is not fooled by pages reused from an earlier run in the process.
std::size_t heap_bytes();

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

}  // namespace kds::bench
