#include "structures/collision/broad_phase_registry.hpp"

#include <map>
#include <mutex>

#include "kds/errors.hpp"

namespace kds {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, BroadPhaseFactory> factories;  // sorted by name
};

Registry& registry() {
  static Registry* r = [] {
    auto* fresh = new Registry;  // never destroyed: worlds may be built during static destruction
    for (const detail::BuiltinBroadPhase& b : detail::builtin_broad_phases()) fresh->factories.emplace(b.name, b.make);
    return fresh;
  }();
  return *r;
}

}  // namespace

void register_broad_phase(const std::string& name, BroadPhaseFactory make) {
  if (name.empty() || !make) throw InvalidInput("register_broad_phase: needs a name and a factory");
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  if (!r.factories.emplace(name, std::move(make)).second)
    throw InvalidInput("register_broad_phase: the name '" + name + "' is taken");
}

std::vector<std::string> broad_phase_names() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [name, make] : r.factories) names.push_back(name);
  return names;
}

std::unique_ptr<BroadPhase> make_broad_phase(const std::string& name) {
  Registry& r = registry();
  BroadPhaseFactory make;
  {
    const std::lock_guard lock(r.mutex);
    if (auto it = r.factories.find(name); it != r.factories.end()) make = it->second;
  }
  if (!make) {
    std::string known;
    for (const std::string& n : broad_phase_names()) known += (known.empty() ? "" : ", ") + n;
    throw InvalidInput("unknown broad phase '" + name + "' (known: " + known + ")");
  }
  return make();
}

}  // namespace kds
