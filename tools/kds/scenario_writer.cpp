#include "tools/kds/scenario_writer.hpp"

#include <nlohmann/json.hpp>

#include "tools/kds/output_file.hpp"

namespace kds::cli {
namespace {

using nlohmann::ordered_json;

ordered_json vec(const Vec<3>& v) { return ordered_json::array({v[0], v[1], v[2]}); }

ordered_json trajectories(const Trajectories& t) {
  ordered_json j;
  j["kind"] = trajectories_name(t.kind);
  if (t.kind == Trajectories::Kind::random_forces) {
    j["interval"] = t.interval;
    j["seed"] = t.seed;
  }
  if (t.kind == Trajectories::Kind::circulation) {
    j["speed"] = t.speed;
    j["rate"] = t.rate;
    j["piece_length"] = t.piece_length;
  }
  return j;
}

ordered_json sphere(const Sphere& s) {
  ordered_json j;
  j["position"] = vec(s.position);
  j["velocity"] = vec(s.velocity);
  j["radius"] = s.radius;
  j["mass"] = s.mass;
  if (s.max_acceleration != 0) j["max_acceleration"] = s.max_acceleration;
  return j;
}

}  // namespace

void write_scenario(std::ostream& out, const Scenario& s) {
  ordered_json head;
  head["kds_scenario"] = scenario_version;
  if (!s.name.empty()) head["name"] = s.name;
  if (!s.description.empty()) head["description"] = s.description;
  if (!s.generated_by.empty()) head["generated_by"] = s.generated_by;
  head["box"] = {{"lo", vec(s.box.lo)}, {"hi", vec(s.box.hi)}};
  head["gravity"] = vec(s.gravity);
  head["restitution"] = s.restitution;
  head["response"] = response_name(s.response);
  if (s.contact_tolerance) head["contact_tolerance"] = *s.contact_tolerance;
  head["until"] = s.until;
  head["structure"] = s.structure;
  if (s.cell_ratio != 0) head["cell_ratio"] = s.cell_ratio;
  head["trajectories"] = trajectories(s.trajectories);
  // One field per line, the spheres one per line too: a file of 10^4 spheres stays
  // readable and diffable (nlohmann's dump indents all or nothing).
  out << "{\n";
  for (const auto& field : head.items()) out << "  \"" << field.key() << "\": " << field.value().dump() << ",\n";
  out << "  \"spheres\": [\n";
  for (std::size_t i = 0; i < s.spheres.size(); ++i)
    out << "    " << sphere(s.spheres[i]).dump() << (i + 1 < s.spheres.size() ? ",\n" : "\n");
  out << "  ]\n}\n";
}

void save_scenario(const std::string& path, const Scenario& s) {
  write_file(path, [&](std::ostream& out) { write_scenario(out, s); });
}

}  // namespace kds::cli
