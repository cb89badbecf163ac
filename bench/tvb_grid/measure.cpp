#include "bench/tvb_grid/measure.hpp"

#include <malloc.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace kds::bench {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

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

void open_csv(std::ofstream& csv, const std::string& path, const std::string& header) {
  if (path.empty()) return;
  csv.open(path);
  if (!csv) {
    std::fprintf(stderr, "cannot write '%s'\n", path.c_str());
    std::exit(1);
  }
  csv << header << '\n';
}

}  // namespace kds::bench
