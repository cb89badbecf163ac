#include "tools/kds/contact_csv.hpp"

#include <algorithm>

#include "structures/collision/io/number_text.hpp"
#include "tools/kds/output_file.hpp"

namespace kds::cli {

void write_contacts_csv(std::ostream& out, const std::vector<Contact>& contacts) {
  static const char* walls[wall_count] = {"x-", "x+", "y-", "y+", "z-", "z+"};
  out << "time,kind,a,b,wall\n";
  for (const Contact& c : contacts) {
    out << text::significant17(c.time);
    if (c.with_wall)
      out << ",wall," << c.a << ",," << walls[static_cast<int>(c.wall)] << '\n';
    else
      out << ",sphere," << std::min(c.a, c.b) << ',' << std::max(c.a, c.b) << ",\n";
  }
}

void save_contacts_csv(const std::string& path, const std::vector<Contact>& contacts) {
  write_file(path, [&](std::ostream& out) { write_contacts_csv(out, contacts); });
}

}  // namespace kds::cli
