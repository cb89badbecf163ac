#pragma once
/// \file
/// The command-line parser shared by the examples, the tools (kds_spheres) and the
/// benchmarks (bench/tvb_grid): `--name value` options, `--name` flags, operands, and
/// --help / -h, which prints the usage to stdout and exits with 0. Bad input exits with 2
/// after `program: message` naming the option, then the usage, on stderr.
///
/// Two styles over the same scanner:
///  - CommandLine calls a handler per option as it reads the command line in order, so a
///    program checks each value where it stores it (the examples and kds_spheres);
///  - Arguments keeps the values and checks them when asked (the benchmarks).
/// Header-only, so that each program stays a single source file with no library of its own.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kds::programs {

/// A finite number spelled out in full ("2.5", "1e-3"), or nothing.
inline std::optional<double> to_number(const std::string& text) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x)) return std::nullopt;
  return x;
}

/// A decimal integer >= 0 as strtoull reads it (no sign, nothing after the digits), or nothing.
inline std::optional<std::uint64_t> to_unsigned(const std::string& text) {
  char* end = nullptr;
  const unsigned long long x = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || *end != '\0') return std::nullopt;
  return static_cast<std::uint64_t>(x);
}

/// Conditions for Value::number.
inline bool positive(double x) { return x > 0; }
inline auto at_least(double min) {
  return [min](double x) { return x >= min; };
}
inline auto between(double lo, double hi) {
  return [lo, hi](double x) { return x >= lo && x <= hi; };
}
/// A whole number in [lo, hi].
inline auto integer_in(double lo, double hi = std::numeric_limits<double>::max()) {
  return [lo, hi](double x) { return x >= lo && x <= hi && x == std::floor(x); };
}

class CommandLine;

/// The value given to an option, as its handler sees it.
struct Value {
  const CommandLine& line;
  std::string name;  ///< the option, "--n"
  std::string text;  ///< what followed it

  /// Fails with "<name> <requirement>, not '<text>'" unless `ok`.
  void require(bool ok, const std::string& requirement) const;
  /// A finite number; fails with "<name> needs a number, not '<text>'" otherwise.
  double number() const;
  /// A finite number x with ok(x); fails as number() does, then as require(ok(x), requirement).
  template <class Ok>
  double number(Ok ok, const std::string& requirement) const {
    const double x = number();
    require(ok(x), requirement);
    return x;
  }
  /// One of `choices`; fails with "<name> must be a, b or c, not '<text>'" otherwise.
  const std::string& choice(const std::vector<std::string>& choices) const;
};

/// Reads the command line in order, calling the handler of each option, flag and operand.
class CommandLine {
 public:
  /// `program` starts every error message; `usage` is printed on --help and after errors.
  CommandLine(std::string program, std::string usage) : program_(std::move(program)), usage_(std::move(usage)) {}

  /// `--name`, with no value.
  void flag(const std::string& name, std::function<void()> on) { flags_.emplace_back(name, std::move(on)); }
  /// `--name value`; the last one given wins, and each is checked by `on`.
  void option(const std::string& name, std::function<void(const Value&)> on) {
    options_.emplace_back(name, std::move(on));
  }
  /// Words that do not start with "--" (a file name); without a handler they are errors.
  void operands(std::function<void(const std::string&)> on) { operands_ = std::move(on); }

  void parse(int argc, char** argv) const {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        std::fputs(usage_.c_str(), stdout);
        std::exit(0);
      }
      if (const auto* on = find(flags_, arg)) {
        (*on)();
      } else if (const auto* on_value = find(options_, arg)) {
        if (i + 1 >= argc) fail("option " + arg + " needs a value");
        (*on_value)(Value{*this, arg, argv[++i]});
      } else if (operands_ && arg.rfind("--", 0) != 0) {
        operands_(arg);
      } else {
        fail("unknown option '" + arg + "'");
      }
    }
  }

  /// Prints "<program>: <message>" and the usage on stderr, and exits with 2.
  [[noreturn]] void fail(const std::string& message) const {
    std::fprintf(stderr, "%s: %s\n%s", program_.c_str(), message.c_str(), usage_.c_str());
    std::exit(2);
  }

 private:
  template <class Handler>
  static const Handler* find(const std::vector<std::pair<std::string, Handler>>& handlers, const std::string& name) {
    for (const auto& [n, h] : handlers)
      if (n == name) return &h;
    return nullptr;
  }

  std::string program_, usage_;
  std::vector<std::pair<std::string, std::function<void()>>> flags_;
  std::vector<std::pair<std::string, std::function<void(const Value&)>>> options_;
  std::function<void(const std::string&)> operands_;
};

inline void Value::require(bool ok, const std::string& requirement) const {
  if (!ok) line.fail(name + " " + requirement + ", not '" + text + "'");
}

inline double Value::number() const {
  const std::optional<double> x = to_number(text);
  if (!x) line.fail(name + " needs a number, not '" + text + "'");
  return *x;
}

inline const std::string& Value::choice(const std::vector<std::string>& choices) const {
  std::string list;
  for (std::size_t k = 0; k < choices.size(); ++k) {
    if (text == choices[k]) return choices[k];
    list += (k == 0 ? "" : k + 1 == choices.size() ? " or " : ", ") + choices[k];
  }
  line.fail(name + " must be " + list + ", not '" + text + "'");
}

/// The whole command line read at once, values checked when asked for: the benchmarks'
/// style. Errors start with "error: ".
class Arguments {
 public:
  /// `options` take a value, `flags` do not; `usage` is printed on --help and on errors.
  Arguments(int argc, char** argv, std::string usage, const std::vector<std::string>& options,
            const std::vector<std::string>& flags = {})
      : line_("error", std::move(usage)) {
    // The handlers run only here, during the parse.
    for (const auto& name : options) line_.option(name, [this](const Value& v) { values_[v.name] = v.text; });
    for (const auto& name : flags) line_.flag(name, [this, name] { values_[name] = ""; });
    line_.parse(argc, argv);
  }
  Arguments(const Arguments&) = delete;
  Arguments& operator=(const Arguments&) = delete;

  bool flag(const std::string& name) const { return values_.count(name) != 0; }
  std::string text(const std::string& name, const std::string& fallback) const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
  }
  /// A finite number >= `min`.
  double number(const std::string& name, double fallback, double min) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    return Value{line_, name, it->second}.number(at_least(min), "must be at least " + std::to_string(min));
  }
  /// A comma-separated list of finite numbers >= `min`: "30,100,300".
  std::vector<double> list(const std::string& name, const std::vector<double>& fallback, double min) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    std::vector<double> xs;
    std::stringstream ss(it->second);
    for (std::string item; std::getline(ss, item, ',');) {
      const double x = Value{line_, name, item}.number();
      if (!(x >= min)) fail(name + ": every value must be at least " + std::to_string(min) + ", not '" + item + "'");
      xs.push_back(x);
    }
    if (xs.empty()) fail(name + " needs at least one value");
    return xs;
  }
  [[noreturn]] void fail(const std::string& message) const { line_.fail(message); }

 private:
  CommandLine line_;
  std::map<std::string, std::string> values_;
};

}  // namespace kds::programs
