#pragma once
// A minimal JSON reader for the tests: enough of RFC 8259 to check that trace lines are
// well formed (objects, arrays, strings with escapes, numbers, true, false, null).
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace kds::testing {

struct Json {
  using Array = std::vector<Json>;
  using Object = std::map<std::string, Json>;
  std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<Array>, std::shared_ptr<Object>> value;

  bool is_number() const { return std::holds_alternative<double>(value); }
  double number() const { return std::get<double>(value); }
  bool boolean() const { return std::get<bool>(value); }
  const std::string& string() const { return std::get<std::string>(value); }
  const Array& array() const { return *std::get<std::shared_ptr<Array>>(value); }
  const Object& object() const { return *std::get<std::shared_ptr<Object>>(value); }
  const Json& operator[](const std::string& key) const {
    auto it = object().find(key);
    if (it == object().end()) throw std::runtime_error("JSON: no field '" + key + "'");
    return it->second;
  }
};

/// Parses one JSON text; throws std::runtime_error naming the offset of the problem.
class JsonReader {
 public:
  static Json parse(const std::string& text) {
    JsonReader r(text);
    Json j = r.value();
    r.space();
    if (r.i_ != text.size()) r.fail("trailing characters");
    return j;
  }

 private:
  explicit JsonReader(const std::string& text) : s_(text) {}
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON at offset " + std::to_string(i_) + ": " + what);
  }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool take(char c) {
    space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  bool word(const char* w) {
    const std::string ws(w);
    if (s_.compare(i_, ws.size(), ws) != 0) return false;
    i_ += ws.size();
    return true;
  }
  Json value() {
    space();
    if (i_ >= s_.size()) fail("unexpected end");
    const char c = s_[i_];
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return Json{string()};
    if (word("true")) return Json{true};
    if (word("false")) return Json{false};
    if (word("null")) return Json{nullptr};
    return number();
  }
  Json object() {
    expect('{');
    auto o = std::make_shared<Json::Object>();
    if (!take('}')) {
      do {
        space();
        std::string key = string();
        expect(':');
        (*o)[key] = value();
      } while (take(','));
      expect('}');
    }
    return Json{o};
  }
  Json array() {
    expect('[');
    auto a = std::make_shared<Json::Array>();
    if (!take(']')) {
      do a->push_back(value());
      while (take(','));
      expect(']');
    }
    return Json{a};
  }
  std::string string() {
    if (i_ >= s_.size() || s_[i_] != '"') fail("expected a string");
    std::string out;
    for (++i_; i_ < s_.size() && s_[i_] != '"'; ++i_) {
      if (static_cast<unsigned char>(s_[i_]) < 0x20) fail("control character in a string");
      if (s_[i_] != '\\') {
        out += s_[i_];
        continue;
      }
      if (++i_ >= s_.size()) fail("unfinished escape");
      switch (s_[i_]) {
        case '"': case '\\': case '/': out += s_[i_]; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'u':
          if (i_ + 4 >= s_.size()) fail("short \\u escape");
          out += static_cast<char>(std::stoi(s_.substr(i_ + 1, 4), nullptr, 16));
          i_ += 4;
          break;
        default: fail("unknown escape");
      }
    }
    if (i_ >= s_.size()) fail("unterminated string");
    ++i_;
    return out;
  }
  Json number() {
    // JSON numbers: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    const std::size_t start = i_;
    auto digits = [&] {
      const std::size_t from = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      if (i_ == from) fail("expected a digit");
      return i_ - from;
    };
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    const bool leading_zero = i_ < s_.size() && s_[i_] == '0';
    if (digits() > 1 && leading_zero) fail("leading zero");
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      digits();
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      digits();
    }
    return Json{std::strtod(s_.substr(start, i_ - start).c_str(), nullptr)};
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

}  // namespace kds::testing
