#pragma once
/// \file
/// Contact events as CSV, for spreadsheets and plotting scripts: a header line, then one
/// contact per line in the order processed,
///   time,kind,a,b,wall
///   0.0078125,sphere,0,37,
///   0.5,wall,3,,x+
/// time with 17 significant digits; kind "sphere" (a and b, a < b) or "wall" (a and the
/// wall: x-, x+, y-, y+, z-, z+, the low or high face of the box along that axis).

#include <ostream>
#include <string>
#include <vector>

#include "structures/collision/contact.hpp"

namespace kds::cli {

void write_contacts_csv(std::ostream& out, const std::vector<Contact>& contacts);

/// Writes the file at `path`; InvalidInput if it cannot.
void save_contacts_csv(const std::string& path, const std::vector<Contact>& contacts);

}  // namespace kds::cli
