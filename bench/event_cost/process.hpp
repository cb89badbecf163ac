#pragma once
/// \file
/// What one measured process needs: its CPU time, its resident size now and at its peak,
/// and, for the driver, running a copy of itself and reading what it prints. Each
/// configuration runs in its own process so that the peak resident size is its own.

#include <cstddef>
#include <string>
#include <vector>

namespace kds::bench {

/// CPU seconds of this process (user + system).
double process_cpu_seconds();
/// Resident bytes now (from /proc/self/statm; 0 if unreadable).
std::size_t resident_bytes();
/// Peak resident bytes of this process so far (getrusage).
std::size_t peak_resident_bytes();

/// Runs this program again with `arguments` and returns the lines it printed on stdout.
/// Throws std::runtime_error if it cannot be started or does not exit with status 0.
std::vector<std::string> run_self(const std::vector<std::string>& arguments);

}  // namespace kds::bench
