#pragma once
/// \file
/// Collision logs and final states as plain text, so that kds can be compared line by
/// line with another simulator run on the same scene (docs/scene-format.md).
///
/// Contact log: one contact per line, `time i j`, time with 17 significant digits, i < j
/// for a pair; a wall contact is `time i w<axis><side>`, e.g. `wx-` for the low x face
/// and `wz+` for the high z face.
/// States: one sphere per line in id order, `x y z vx vy vz` with 17 significant digits:
/// the first six fields of a sphere line of a scene file.

#include <iosfwd>
#include <string>
#include <vector>

#include "structures/collision/contact.hpp"
#include "structures/collision/sphere.hpp"

namespace kds {

/// "wx-", "wx+", "wy-", "wy+", "wz-", "wz+".
std::string wall_name(Wall w);

void write_contacts(std::ostream& out, const std::vector<Contact>& contacts);
/// Reads a contact log (`#` comments and blank lines allowed); throws InvalidInput naming
/// `name`, the line and the field on malformed input.
std::vector<Contact> read_contacts(std::istream& in, const std::string& name);

void write_states(std::ostream& out, const std::vector<SphereState>& states);
std::vector<SphereState> read_states(std::istream& in, const std::string& name);

}  // namespace kds
