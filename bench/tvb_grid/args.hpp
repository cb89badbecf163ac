#pragma once
/// \file
/// The command line of the sphere-world benchmarks: `--name value` options, `--name`
/// flags and --help, with an error naming the option on bad input (exit 2).

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace kds::bench {

class Args {
 public:
  /// `options` take a value, `flags` do not; `usage` is printed on --help and on errors.
  Args(int argc, char** argv, std::string usage, const std::vector<std::string>& options,
       const std::vector<std::string>& flags = {})
      : usage_(std::move(usage)) {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        std::printf("%s", usage_.c_str());
        std::exit(0);
      }
      if (contains(flags, arg)) {
        values_[arg] = "";
      } else if (contains(options, arg)) {
        if (i + 1 >= argc) fail("option " + arg + " needs a value");
        values_[arg] = argv[++i];
      } else {
        fail("unknown option '" + arg + "'");
      }
    }
  }

  bool flag(const std::string& name) const { return values_.count(name) != 0; }
  std::string text(const std::string& name, const std::string& fallback) const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
  }
  /// A finite number >= `min`.
  double number(const std::string& name, double fallback, double min) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    const double x = parse(name, it->second);
    if (!(x >= min)) fail(name + " must be at least " + std::to_string(min) + ", not '" + it->second + "'");
    return x;
  }
  /// A comma-separated list of finite numbers >= `min`: "30,100,300".
  std::vector<double> list(const std::string& name, const std::vector<double>& fallback, double min) const {
    auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    std::vector<double> xs;
    std::stringstream ss(it->second);
    for (std::string item; std::getline(ss, item, ',');) {
      const double x = parse(name, item);
      if (!(x >= min)) fail(name + ": every value must be at least " + std::to_string(min) + ", not '" + item + "'");
      xs.push_back(x);
    }
    if (xs.empty()) fail(name + " needs at least one value");
    return xs;
  }

 private:
  static bool contains(const std::vector<std::string>& v, const std::string& s) {
    for (const auto& x : v)
      if (x == s) return true;
    return false;
  }
  [[noreturn]] void fail(const std::string& message) const {
    std::fprintf(stderr, "error: %s\n%s", message.c_str(), usage_.c_str());
    std::exit(2);
  }
  double parse(const std::string& name, const std::string& text) const {
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(x)) fail(name + " needs a number, not '" + text + "'");
    return x;
  }

  std::string usage_;
  std::map<std::string, std::string> values_;
};

}  // namespace kds::bench
