#include "tools/kds/trace_header.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "kds/errors.hpp"
#include "tools/kds/json_fields.hpp"

namespace kds::cli {

std::string content_hash(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

std::string trace_header_line(const TraceHeader& h) {
  nlohmann::ordered_json j;
  j["kds_trace"] = trace_version;
  j["kds"] = h.kds;
  j["scenario"] = h.scenario;
  j["scenario_fnv1a64"] = h.scenario_hash;
  j["structure"] = h.settings.structure;
  j["until"] = h.settings.until.value_or(0);
  j["seed"] = h.settings.seed.value_or(0);
  j["audit"] = h.settings.audit;
  return j.dump();
}

TraceHeader parse_trace_header(const std::string& line, const std::string& file) {
  const std::string where = file + ":1";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error&) {
    fail_at(where, "", "not a kds trace header (the first line of a trace written by `kds run --trace` is a JSON object "
                       "with \"kds_trace\"); traces without one cannot be replayed");
  }
  if (!j.is_object() || !j.contains("kds_trace"))
    fail_at(where, "", "not a kds trace header: the first line has no \"kds_trace\" field (traces written by the "
                       "examples carry no scenario and cannot be replayed)");
  const JsonValue root{j, where, ""};
  const JsonObject o(root, {"kds_trace", "kds", "scenario", "scenario_fnv1a64", "structure", "until", "seed", "audit"});
  const JsonValue version = o.required("kds_trace");
  if (version.count() != trace_version)
    version.fail("trace from another version of kds (" + o.string("kds", "?") + "): trace version " +
                 std::to_string(version.count()) + ", this kds reads version " + std::to_string(trace_version));
  TraceHeader h;
  h.kds = o.required("kds").string();
  h.scenario = o.required("scenario").string();
  h.scenario_hash = o.required("scenario_fnv1a64").string();
  h.settings.structure = o.required("structure").string();
  h.settings.until = o.required("until").number();
  h.settings.seed = o.required("seed").count();
  h.settings.audit = o.required("audit").boolean();
  return h;
}

}  // namespace kds::cli
