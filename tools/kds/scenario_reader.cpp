#include "tools/kds/scenario_reader.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "kds/errors.hpp"
#include "structures/sphere_worlds.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/collision/io/validate_spheres.hpp"
#include "tools/kds/json_fields.hpp"

namespace kds::cli {
namespace {

using nlohmann::json;

/// Parses the text; malformed or truncated JSON and duplicate keys (which nlohmann would
/// silently resolve to the last one) are errors naming the file.
json parse(const std::string& text, const std::string& file) {
  std::vector<std::set<std::string>> keys;  // the keys seen in each open object
  std::string duplicate;
  const json::parser_callback_t watch = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    if (event == json::parse_event_t::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second &&
        duplicate.empty())
      duplicate = parsed.get<std::string>();
    return true;
  };
  json doc;
  try {
    doc = json::parse(text, watch);
  } catch (const json::parse_error& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line 3, column 14: ...".
    std::string what = e.what();
    if (const auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    fail_at(file, "", "malformed JSON: " + what);
  } catch (const json::out_of_range& e) {
    // A number beyond the range of a double ("1e400"): nlohmann says which, not where.
    std::string what = e.what();
    if (const auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    fail_at(file, "", what + " (beyond the range of a double)");
  }
  if (!duplicate.empty()) fail_at(file, "", "field \"" + duplicate + "\" appears twice in one object");
  return doc;
}

Trajectories read_trajectories(const JsonValue& v) {
  Trajectories t;
  const std::string kind = JsonObject(v, {"kind", "interval", "seed", "speed", "rate", "piece_length"})
                               .required("kind")
                               .string();
  if (kind == trajectories_name(Trajectories::Kind::ballistic)) {
    JsonObject o(v, {"kind"});
    t.kind = Trajectories::Kind::ballistic;
  } else if (kind == trajectories_name(Trajectories::Kind::random_forces)) {
    JsonObject o(v, {"kind", "interval", "seed"});
    t.kind = Trajectories::Kind::random_forces;
    t.interval = o.number("interval", t.interval);
    if (!(t.interval > 0)) o.required("interval").fail("must be positive, got " + text::shortest(t.interval));
    t.seed = o.count("seed", t.seed);
  } else if (kind == trajectories_name(Trajectories::Kind::circulation)) {
    JsonObject o(v, {"kind", "speed", "rate", "piece_length"});
    t.kind = Trajectories::Kind::circulation;
    t.speed = o.number("speed", t.speed);
    t.rate = o.number("rate", t.rate);
    t.piece_length = o.number("piece_length", t.piece_length);
    if (!(t.speed >= 0)) o.required("speed").fail("must be >= 0, got " + text::shortest(t.speed));
    if (!(t.rate > 0)) o.required("rate").fail("must be positive, got " + text::shortest(t.rate));
    if (!(t.piece_length > 0))
      o.required("piece_length").fail("must be positive, got " + text::shortest(t.piece_length));
  } else {
    JsonValue{v.value["kind"], v.file, v.path + ".kind"}.fail(
        "must be \"ballistic\", \"random-forces\" or \"circulation\", got \"" + kind + "\"");
  }
  return t;
}

Sphere read_sphere(const JsonValue& v) {
  const JsonObject o(v, {"position", "velocity", "radius", "mass", "max_acceleration"});
  Sphere s;
  s.position = o.required("position").vector3();
  s.velocity = o.vector3("velocity", s.velocity);
  s.radius = o.required("radius").number();
  s.mass = o.number("mass", s.mass);
  s.max_acceleration = o.number("max_acceleration", s.max_acceleration);
  return s;
}

/// The JSON path of a field named by validate_spheres: "position.y" is "position[1]".
std::string sphere_field_path(std::size_t sphere, const std::string& field) {
  std::string path = "spheres[" + std::to_string(sphere) + "]";
  if (field.empty()) return path;
  const auto dot = field.find('.');
  if (dot == std::string::npos) return path + "." + field;
  const char axis = field[dot + 1];
  return path + "." + field.substr(0, dot) + "[" + std::to_string(axis - 'x') + "]";
}

/// The planar response turns contacts in the plane z = const only: a sphere that moves
/// vertically would leave its plane anyway, and the response would be wrong for it.
void validate_planar(const Scenario& s, const JsonObject& root) {
  const std::string& file = root.self().file;
  const std::string why = ", but \"response\" is \"planar\": the spheres must keep on their plane z = const";
  if (s.trajectories.kind != Trajectories::Kind::ballistic)
    fail_at(file, "trajectories.kind",
            "is \"" + std::string(trajectories_name(s.trajectories.kind)) + "\" (unknown trajectories move in 3D)" + why);
  if (s.gravity[2] != 0) fail_at(file, "gravity[2]", "is " + text::shortest(s.gravity[2]) + why);
  for (std::size_t i = 0; i < s.spheres.size(); ++i)
    if (s.spheres[i].velocity[2] != 0)
      fail_at(file, sphere_field_path(i, "velocity.z"), "is " + text::shortest(s.spheres[i].velocity[2]) + why);
}

/// The checks of the collision world on the spheres (io/validate_spheres.hpp), reported
/// at the fields of the file.
void validate(const Scenario& s, const JsonObject& root) {
  if (s.contact_tolerance)
    if (const auto p = tolerance_problem(*s.contact_tolerance, s.box)) root.required("contact_tolerance").fail(*p);
  for (std::size_t i = 0; i < s.spheres.size(); ++i)
    if (s.spheres[i].max_acceleration > 0 && s.trajectories.kind == Trajectories::Kind::ballistic)
      fail_at(root.self().file, sphere_field_path(i, "max_acceleration"),
              "is " + text::shortest(s.spheres[i].max_acceleration) +
                  " (an unknown trajectory), but trajectories.kind is \"ballistic\": set it to \"random-forces\" or "
                  "\"circulation\", or max_acceleration to 0");
  if (s.response == Response::planar) validate_planar(s, root);
  const auto p = find_sphere_problem(s.spheres, s.box);
  if (!p) return;
  if (p->other)
    fail_at(root.self().file, sphere_field_path(p->sphere, p->field),
            "overlaps spheres[" + std::to_string(*p->other) + "]: " + p->message);
  fail_at(root.self().file, sphere_field_path(p->sphere, p->field), p->message);
}

}  // namespace

const char* response_name(Response response) { return response == Response::planar ? "planar" : "elastic"; }

const char* trajectories_name(Trajectories::Kind kind) {
  switch (kind) {
    case Trajectories::Kind::random_forces: return "random-forces";
    case Trajectories::Kind::circulation: return "circulation";
    default: return "ballistic";
  }
}

Scenario read_scenario(const std::string& text, const std::string& file) {
  const json doc = parse(text, file);
  const JsonValue root_value{doc, file, ""};
  if (!doc.is_object()) root_value.fail("a scenario must be a JSON object {...}, got " + json_type_name(doc));
  const JsonObject root(root_value, {"kds_scenario", "name", "description", "generated_by", "box", "gravity",
                                     "restitution", "response", "contact_tolerance", "until", "structure", "cell_ratio",
                                     "trajectories", "spheres"});
  const JsonValue version = root.required("kds_scenario");
  if (version.count() != scenario_version)
    version.fail("this kds reads version " + std::to_string(scenario_version) + " of the scenario format, the file is version " +
                 std::to_string(version.count()));

  Scenario s;
  s.name = root.string("name", "");
  s.description = root.string("description", "");
  s.generated_by = root.string("generated_by", "");

  const JsonObject box(root.required("box"), {"lo", "hi"});
  s.box.lo = box.required("lo").vector3();
  s.box.hi = box.required("hi").vector3();
  if (const auto p = box_problem(s.box)) box.self().fail(*p);

  s.gravity = root.vector3("gravity", s.gravity);
  if (const auto p = gravity_problem(s.gravity)) root.required("gravity").fail(*p);
  s.restitution = root.number("restitution", s.restitution);
  if (!(s.restitution >= 0 && s.restitution <= 1))
    root.required("restitution").fail("must lie in [0, 1] (1: elastic), got " + text::shortest(s.restitution));
  if (root.has("response")) {
    const JsonValue v = root.required("response");
    const std::string name = v.string();
    if (name == response_name(Response::planar))
      s.response = Response::planar;
    else if (name != response_name(Response::elastic))
      v.fail("must be \"elastic\" or \"planar\", got \"" + name + "\"");
  }
  if (root.has("contact_tolerance")) s.contact_tolerance = root.required("contact_tolerance").number();
  s.until = root.number("until", s.until);
  if (!(s.until > 0)) root.required("until").fail("must be positive, got " + text::shortest(s.until));

  s.structure = root.string("structure", s.structure);
  const std::vector<std::string> names = sphere_world_names();
  if (std::find(names.begin(), names.end(), s.structure) == names.end())
    root.required("structure").fail("unknown structure \"" + s.structure + "\" (known: " + sphere_world_list() + ")");
  s.cell_ratio = root.number("cell_ratio", s.cell_ratio);
  if (!(s.cell_ratio == 0 || s.cell_ratio >= 2))
    root.required("cell_ratio").fail("must be 0 (the cost model chooses) or at least 2, got " + text::shortest(s.cell_ratio));

  if (root.has("trajectories")) s.trajectories = read_trajectories(root.required("trajectories"));
  const std::vector<JsonValue> spheres = root.required("spheres").elements();
  if (spheres.empty()) root.required("spheres").fail("must hold at least one sphere");
  for (const JsonValue& v : spheres) s.spheres.push_back(read_sphere(v));
  validate(s, root);
  return s;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidInput(path + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InvalidInput(path + ": cannot read the file");
  return text.str();
}

Scenario load_scenario(const std::string& path) { return read_scenario(read_file(path), path); }

}  // namespace kds::cli
