#pragma once
/// \file
/// Broad phases by name: `CollisionWorldSettings::broad_phase = "tvb-grid"`, the
/// `--broad-phase NAME` option of the programs, the tests that run every broad phase
/// against all-pairs. The broad phases shipped with kds are listed in
/// structures/broad_phases.cpp (one line each); users may register their own.

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "structures/collision/broad_phase.hpp"

namespace kds {

using BroadPhaseFactory = std::function<std::unique_ptr<BroadPhase>()>;

/// Adds a broad phase under `name`; InvalidInput if the name is taken. Register before
/// worlds are built on other threads.
void register_broad_phase(const std::string& name, BroadPhaseFactory make);
/// The registered names, sorted.
std::vector<std::string> broad_phase_names();
/// A new broad phase of that name; InvalidInput naming the known ones if there is none.
std::unique_ptr<BroadPhase> make_broad_phase(const std::string& name);

namespace detail {
struct BuiltinBroadPhase {
  const char* name;
  std::unique_ptr<BroadPhase> (*make)();
};
/// The broad phases shipped with kds, defined in structures/broad_phases.cpp: the one
/// place that knows every broad-phase folder, so that the collision layer does not.
std::span<const BuiltinBroadPhase> builtin_broad_phases();
}  // namespace detail

}  // namespace kds
