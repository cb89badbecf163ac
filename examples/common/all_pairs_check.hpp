#pragma once
/// \file
/// The check the collision examples end with: the same scene, run again with the
/// all-pairs reference (the brute-force twin of every broad phase), must give the
/// structure's contacts to the bit: the same times, the same bodies, in the same order.

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "structures/collision/contact.hpp"

namespace kds::examples {

/// The same contact: the same time to the bit, the same two spheres, or the same sphere
/// and wall. (The normal follows from those.)
inline bool same_contact(const Contact& x, const Contact& y) {
  return x.time == y.time && x.a == y.a && x.b == y.b && x.with_wall == y.with_wall && (!x.with_wall || x.wall == y.wall);
}

/// Compares the contacts of the broad phase `structure` with `reference`, all-pairs' on
/// the same scene, and says so: on stdout when they agree ("All-pairs reference: the same
/// 12 contacts ..."), else on stderr, prefixed with `program`, with the first contact
/// that differs. True when they agree.
inline bool same_as_all_pairs(const std::string& program, const std::string& structure,
                              const std::vector<Contact>& contacts, const std::vector<Contact>& reference) {
  std::size_t agree = 0;
  while (agree < contacts.size() && agree < reference.size() && same_contact(contacts[agree], reference[agree])) ++agree;
  if (agree != contacts.size() || contacts.size() != reference.size()) {
    std::fprintf(stderr, "%s: %s and all-pairs differ at contact %zu (%zu vs %zu contacts)\n", program.c_str(),
                 structure.c_str(), agree, contacts.size(), reference.size());
    return false;
  }
  std::printf("All-pairs reference: the same %zu contacts at the same times, in the same order\n", agree);
  return true;
}

}  // namespace kds::examples
