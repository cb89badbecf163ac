#include "bench/event_cost/validation.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>

#include "bench/event_cost/scenes.hpp"
#include "bench/tvb_grid/lattice_scene.hpp"
#include "kds/simulator.hpp"
#include "structures/collision/collision_world.hpp"
#include "structures/hard_spheres/hard_sphere_world.hpp"

namespace kds::bench {
namespace {

/// A contact as compared: its time's bits, the spheres, and the wall (or -1).
using Key = std::tuple<std::uint64_t, SphereId, SphereId, int>;

Key key_of(const Contact& c) {
  return {std::bit_cast<std::uint64_t>(c.time), c.a, c.with_wall ? SphereId{0} : c.b,
          c.with_wall ? static_cast<int>(c.wall) : -1};
}

std::vector<Contact> up_to(const std::vector<Contact>& all, double horizon) {
  std::vector<Contact> out;
  for (const Contact& c : all)
    if (c.time <= horizon) out.push_back(c);
  return out;
}

/// The reference's contacts: all-pairs (not audited: its tests audit it), until `count`
/// contacts; then every event at or before the last one's time. Sets `horizon`.
std::vector<Contact> reference(const std::vector<Sphere>& spheres, const CollisionWorldSettings& base, std::size_t count,
                               double& horizon) {
  Simulator sim(SimulatorSettings{.audit = false});
  CollisionWorldSettings settings = base;
  settings.broad_phase = "all-pairs";
  CollisionWorld world(sim, settings, spheres);
  while (world.contacts().size() < count && sim.step()) {
  }
  horizon = world.contacts().empty() ? sim.now_approx() : world.contacts().back().time;
  sim.run_until(horizon);
  return up_to(world.contacts(), horizon);
}

std::vector<Contact> collision_world(const std::vector<Sphere>& spheres, const CollisionWorldSettings& base,
                                     double horizon) {
  Simulator sim(SimulatorSettings{.audit = true});
  CollisionWorldSettings settings = base;
  settings.broad_phase = "tvb-grid";
  CollisionWorld world(sim, settings, spheres);
  sim.run_until(horizon);
  return up_to(world.contacts(), horizon);
}

std::vector<Contact> hard_spheres(const std::vector<Sphere>& spheres, const CollisionWorldSettings& settings,
                                  double horizon) {
  HardSphereWorld world(settings, spheres);
  world.audit();
  while (world.now() <= horizon && world.step()) world.audit();
  return up_to(world.contacts(), horizon);
}

/// Fills missed, spurious and reordered: contacts as multisets, then the common ones in
/// the two orders.
void compare(const std::vector<Contact>& ref, const std::vector<Contact>& got, ValidationRow& row) {
  std::map<Key, long> balance;  // reference count minus code count
  for (const Contact& c : ref) ++balance[key_of(c)];
  for (const Contact& c : got) --balance[key_of(c)];
  for (const auto& [k, b] : balance) {
    if (b > 0) row.missed += static_cast<std::size_t>(b);
    if (b < 0) row.spurious += static_cast<std::size_t>(-b);
  }
  // The common contacts of each sequence, in its order (a multiset intersection).
  auto common = [&](const std::vector<Contact>& seq, bool is_reference) {
    std::map<Key, long> left;
    for (const auto& [k, b] : balance) left[k] = 0;
    std::map<Key, long> in_other;
    for (const Contact& c : is_reference ? got : ref) ++in_other[key_of(c)];
    std::vector<Key> out;
    for (const Contact& c : seq) {
      const Key k = key_of(c);
      if (left[k] < in_other[k]) {
        ++left[k];
        out.push_back(k);
      }
    }
    return out;
  };
  const std::vector<Key> a = common(ref, true), b = common(got, false);
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (a[i] != b[i]) ++row.reordered;
  row.reference_contacts = ref.size();
  row.contacts = got.size();
}

void validate_scene(const std::string& work, const std::vector<Sphere>& spheres, const Box3& box, std::size_t count,
                    std::vector<ValidationRow>& rows) {
  CollisionWorldSettings settings;
  settings.box = box;
  double horizon = 0;
  const std::vector<Contact> ref = reference(spheres, settings, count, horizon);
  for (const char* code : {"kds", "kds_hard_spheres"}) {
    ValidationRow row;
    row.work = work;
    row.code = code;
    row.n = spheres.size();
    row.horizon = horizon;
    const std::string c = code;
    compare(ref, c == "kds" ? collision_world(spheres, settings, horizon) : hard_spheres(spheres, settings, horizon), row);
    rows.push_back(row);
  }
}

}  // namespace

std::vector<ValidationRow> validate(std::size_t n, const RunSettings& s) {
  const std::size_t count = std::max<std::size_t>(20, static_cast<std::size_t>(std::ceil(s.per_sphere * static_cast<double>(n))));
  std::vector<ValidationRow> rows;
  const LatticeScene lattice = hard_sphere_scene(n, s.phi, s.seed, s.shuffled);
  validate_scene("hard_spheres", lattice.spheres, lattice.box, count, rows);
  const auto [paper, box] = paper_scene(n, s.seed, true);
  validate_scene("paper_ballistic", paper, box, count, rows);
  return rows;
}

}  // namespace kds::bench
