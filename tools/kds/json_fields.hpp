#pragma once
/// \file
/// Reading a JSON document field by field, so that every error names the file, the path
/// of the field in the document ("spheres[3].radius") and the problem. Objects refuse
/// fields they do not know (a misspelt "raduis" is an error, not a silently ignored key).

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kds/motion.hpp"

namespace kds::cli {

/// "a string", "an array", "a number"...: what a JSON value is, for error messages.
std::string json_type_name(const nlohmann::json& value);

/// Throws InvalidInput "<file>: <path>: <problem>" (or "<file>: <problem>" at the root).
[[noreturn]] void fail_at(const std::string& file, const std::string& path, const std::string& problem);

/// A value of a document and where it is.
struct JsonValue {
  const nlohmann::json& value;
  const std::string& file;
  std::string path;

  /// A finite number (JSON integers are numbers too).
  double number() const;
  /// A whole number >= 0 that fits 64 bits, written without fraction or exponent.
  std::uint64_t count() const;
  std::string string() const;
  bool boolean() const;
  /// An array of three numbers [x, y, z].
  Vec<3> vector3() const;
  /// The elements of an array, each with its path ("spheres[0]", "spheres[1]"...).
  std::vector<JsonValue> elements() const;
  [[noreturn]] void fail(const std::string& problem) const { fail_at(file, path, problem); }
};

/// An object of a document with the fields it may have.
class JsonObject {
 public:
  /// Throws unless `v` is an object whose every key is in `known`.
  JsonObject(const JsonValue& v, std::initializer_list<const char*> known);

  bool has(const char* key) const { return object_.value.contains(key); }
  /// The field, or an error "missing field".
  JsonValue required(const char* key) const;
  /// The field's path: "spheres[3].radius".
  std::string path(const char* key) const;
  const JsonValue& self() const { return object_; }

  double number(const char* key, double fallback) const { return has(key) ? required(key).number() : fallback; }
  std::uint64_t count(const char* key, std::uint64_t fallback) const {
    return has(key) ? required(key).count() : fallback;
  }
  std::string string(const char* key, const std::string& fallback) const {
    return has(key) ? required(key).string() : fallback;
  }
  Vec<3> vector3(const char* key, const Vec<3>& fallback) const {
    return has(key) ? required(key).vector3() : fallback;
  }

 private:
  JsonValue object_;
};

}  // namespace kds::cli
