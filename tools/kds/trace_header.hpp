#pragma once
/// \file
/// The first line of a trace written by `kds run --trace`: which scenario file and which
/// settings produced the events that follow (kds/report/trace.hpp writes those), so that
/// `kds replay --check` can run it again. A JSON object on one line:
///   {"kds_trace":1,"kds":"0.1.0","scenario":"/abs/path/box.json","scenario_fnv1a64":"9ae16a3b2f90404f",
///    "structure":"tvb-grid","until":2,"seed":1,"audit":false}
/// Readers of traces tell it from an event line by its "kds_trace" field (event lines have
/// "event"). docs/cli.md documents it.

#include <cstdint>
#include <string>

#include "tools/kds/scenario_run.hpp"

namespace kds::cli {

/// The version of the trace header (and of the event lines after it) this kds writes and reads.
inline constexpr std::uint64_t trace_version = 1;

struct TraceHeader {
  std::string kds;             ///< the version of kds that wrote the trace
  std::string scenario;        ///< absolute path of the scenario file
  std::string scenario_hash;   ///< FNV-1a 64 of the file's bytes, 16 hex digits
  RunSettings settings;        ///< complete: structure, until and seed set
};

/// FNV-1a 64 of `bytes` as 16 hex digits: enough to notice that a scenario file changed.
std::string content_hash(const std::string& bytes);

/// The header as one line of JSON, without the newline.
std::string trace_header_line(const TraceHeader& h);

/// Reads a header line; InvalidInput naming `file`, line 1, the field and the problem (a
/// trace of another version, a missing field, not a header at all).
TraceHeader parse_trace_header(const std::string& line, const std::string& file);

}  // namespace kds::cli
