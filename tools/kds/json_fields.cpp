#include "tools/kds/json_fields.hpp"

#include <cmath>
#include <cstdlib>

#include "kds/errors.hpp"

namespace kds::cli {

std::string json_type_name(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string (" + value.dump() + ")";
    case nlohmann::json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return "the number " + value.dump();
    default: return "a value of another kind";
  }
}

void fail_at(const std::string& file, const std::string& path, const std::string& problem) {
  throw InvalidInput(file + ": " + (path.empty() ? "" : path + ": ") + problem);
}

double JsonValue::number() const {
  if (!value.is_number()) {
    // A number written with its unit ("2 m") is the likeliest string here.
    if (value.is_string()) {
      const std::string& text = value.get_ref<const std::string&>();
      char* end = nullptr;
      std::strtod(text.c_str(), &end);
      if (!text.empty() && *end == '\0') fail("must be a number, not a string: write " + text + " without quotes");
      fail("must be a number without a unit (one unit system per file), got " + json_type_name(value));
    }
    fail("must be a number, got " + json_type_name(value));
  }
  const double x = value.get<double>();
  // nlohmann reads 1e400 as infinity: the text was beyond the range of a double.
  if (!std::isfinite(x)) fail("must be a finite number, got " + value.dump());
  return x;
}

std::uint64_t JsonValue::count() const {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer()) fail("must be a non-negative integer, got " + value.dump());
  fail("must be a non-negative integer, got " + json_type_name(value));
}

std::string JsonValue::string() const {
  if (!value.is_string()) fail("must be a string, got " + json_type_name(value));
  return value.get<std::string>();
}

bool JsonValue::boolean() const {
  if (!value.is_boolean()) fail("must be true or false, got " + json_type_name(value));
  return value.get<bool>();
}

Vec<3> JsonValue::vector3() const {
  if (!value.is_array() || value.size() != 3) {
    const std::string got = value.is_array() ? "an array of " + std::to_string(value.size()) : json_type_name(value);
    fail("must be an array of three numbers [x, y, z], got " + got);
  }
  Vec<3> v{};
  for (std::size_t k = 0; k < 3; ++k) v[k] = JsonValue{value[k], file, path + "[" + std::to_string(k) + "]"}.number();
  return v;
}

std::vector<JsonValue> JsonValue::elements() const {
  if (!value.is_array()) fail("must be an array, got " + json_type_name(value));
  std::vector<JsonValue> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) out.push_back({value[i], file, path + "[" + std::to_string(i) + "]"});
  return out;
}

JsonObject::JsonObject(const JsonValue& v, std::initializer_list<const char*> known) : object_(v) {
  if (!v.value.is_object()) v.fail("must be an object {...}, got " + json_type_name(v.value));
  for (const auto& item : v.value.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || item.key() == k;
    if (ok) continue;
    std::string list;
    for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    fail_at(v.file, path(item.key().c_str()), "unknown field (the fields here are: " + list + ")");
  }
}

std::string JsonObject::path(const char* key) const {
  return object_.path.empty() ? std::string(key) : object_.path + "." + key;
}

JsonValue JsonObject::required(const char* key) const {
  const auto it = object_.value.find(key);
  if (it == object_.value.end()) fail_at(object_.file, path(key), "missing field (required)");
  return JsonValue{*it, object_.file, path(key)};
}

}  // namespace kds::cli
