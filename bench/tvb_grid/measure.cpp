#include "bench/tvb_grid/measure.hpp"

#include <malloc.h>

namespace kds::bench {

std::size_t heap_bytes() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;  // small blocks in use + large blocks served by mmap
}

std::string event_kind_columns() {
  std::string s;
  for (const std::string& k : sphere_event_kinds()) {
    if (!s.empty()) s += ',';
    for (char c : k) s += c == ' ' ? '_' : c;
  }
  return s;
}

std::vector<std::uint64_t> event_kind_counts(const Statistics& stats) {
  std::vector<std::uint64_t> counts;
  for (const std::string& k : sphere_event_kinds()) counts.push_back(stats.events_of(k));
  return counts;
}

std::string comma_separated(const std::vector<std::uint64_t>& values) {
  std::string s;
  for (std::uint64_t v : values) {
    if (!s.empty()) s += ',';
    s += std::to_string(v);
  }
  return s;
}

}  // namespace kds::bench
