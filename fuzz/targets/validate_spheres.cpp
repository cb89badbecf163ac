// libFuzzer target: the validation of a set of spheres (io/validate_spheres.cpp) on
// arbitrary doubles, NaN, infinities and subnormals included: the bytes are a box (6
// doubles) then spheres of 8 doubles (x y z vx vy vz radius mass). Every input must be
// accepted or refused with kds::InvalidInput; an accepted set must have levels of cell
// sides that hold every sphere (structures/collision/cell_sides.hpp).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kds/errors.hpp"
#include "structures/collision/cell_sides.hpp"
#include "structures/collision/io/validate_spheres.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<double> v(size / sizeof(double));
  if (!v.empty()) std::memcpy(v.data(), data, v.size() * sizeof(double));
  if (v.size() < 6) return 0;
  kds::Box3 box;
  for (int k = 0; k < 3; ++k) {
    box.lo[k] = v[k];
    box.hi[k] = v[3 + k];
  }
  std::vector<kds::Sphere> spheres;
  for (std::size_t i = 6; i + 8 <= v.size(); i += 8) {
    kds::Sphere s;
    s.position = {v[i], v[i + 1], v[i + 2]};
    s.velocity = {v[i + 3], v[i + 4], v[i + 5]};
    s.radius = v[i + 6];
    s.mass = v[i + 7];
    spheres.push_back(s);
  }
  try {
    kds::validate_spheres(spheres, box);
  } catch (const kds::InvalidInput&) {
    return 0;
  }
  if (spheres.empty()) return 0;
  const kds::CellSides sides(spheres, 2, box);
  if (sides.levels() < 1 || sides.levels() > kds::CellSides::max_levels) __builtin_trap();
  for (const kds::Sphere& s : spheres) (void)sides.level_of(s.radius);  // throws (a bug) if none holds it
  return 0;
}
