#include "structures/box_overlap/overlap_set.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kds/errors.hpp"

namespace kds {
namespace {

bool remove_one(std::vector<SphereId>& v, SphereId x) {
  const auto it = std::find(v.begin(), v.end(), x);
  if (it == v.end()) return false;
  *it = v.back();  // order does not matter: swap with the last and pop
  v.pop_back();
  return true;
}

std::string pair_text(SphereId a, SphereId b) { return "{" + std::to_string(a) + ", " + std::to_string(b) + "}"; }

}  // namespace

void OverlapSet::reset(std::size_t n) {
  partners_.assign(n, {});
  pairs_ = 0;
}

void OverlapSet::add(SphereId a, SphereId b) {
  if (a == b || contains(a, b)) throw std::logic_error("box overlap: pair " + pair_text(a, b) + " added twice");
  partners_[a].push_back(b);
  partners_[b].push_back(a);
  ++pairs_;
}

bool OverlapSet::erase(SphereId a, SphereId b) {
  if (!remove_one(partners_[a], b)) return false;
  if (!remove_one(partners_[b], a))
    throw std::logic_error("box overlap: pair " + pair_text(a, b) + " was listed by one partner only");
  --pairs_;
  return true;
}

bool OverlapSet::contains(SphereId a, SphereId b) const {
  // Look in the shorter list: a large box may overlap many small ones.
  const auto& la = partners_[a];
  const auto& lb = partners_[b];
  return la.size() <= lb.size() ? std::find(la.begin(), la.end(), b) != la.end()
                                : std::find(lb.begin(), lb.end(), a) != lb.end();
}

void OverlapSet::check() const {
  std::size_t listed = 0;
  for (SphereId a = 0; a < partners_.size(); ++a) {
    const auto& l = partners_[a];
    listed += l.size();
    for (std::size_t i = 0; i < l.size(); ++i) {
      const SphereId b = l[i];
      if (b == a || b >= partners_.size())
        throw AuditFailure("box overlap: sphere " + std::to_string(a) + " lists an invalid partner " + std::to_string(b));
      if (std::find(l.begin() + static_cast<std::ptrdiff_t>(i) + 1, l.end(), b) != l.end())
        throw AuditFailure("box overlap: pair " + pair_text(a, b) + " listed twice");
      const auto& back = partners_[b];
      if (std::find(back.begin(), back.end(), a) == back.end())
        throw AuditFailure("box overlap: pair " + pair_text(a, b) + " listed by one partner only");
    }
  }
  if (listed != 2 * pairs_)
    throw AuditFailure("box overlap: " + std::to_string(pairs_) + " pairs counted, " + std::to_string(listed) +
                           " partner entries listed");
}

}  // namespace kds
