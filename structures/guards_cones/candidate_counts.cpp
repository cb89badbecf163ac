#include "structures/guards_cones/candidate_counts.hpp"

#include <algorithm>
#include <stdexcept>

#include "kds/errors.hpp"

namespace kds {

void CandidateCounts::reset(std::size_t n) {
  partners_.assign(n, {});
  resetting_.assign(n, 0);
  touched_mark_.assign(n, 0);
  touched_.clear();
  started_ = false;
}

void CandidateCounts::start_notifying() {
  touched_.clear();
  std::fill(touched_mark_.begin(), touched_mark_.end(), 0);
  started_ = true;
}

void CandidateCounts::add(SphereId a, SphereId b) {
  auto& pa = partners_[a];
  const auto it = std::find_if(pa.begin(), pa.end(), [b](const auto& p) { return p.first == b; });
  if (it != pa.end()) {
    ++it->second;
    auto& pb = partners_[b];
    std::find_if(pb.begin(), pb.end(), [a](const auto& p) { return p.first == a; })->second++;
    return;
  }
  pa.emplace_back(b, 1);
  partners_[b].emplace_back(a, 1);
  touched(a);
}

void CandidateCounts::remove(SphereId a, SphereId b) {
  auto& pa = partners_[a];
  auto& pb = partners_[b];
  const auto ia = std::find_if(pa.begin(), pa.end(), [b](const auto& p) { return p.first == b; });
  const auto ib = std::find_if(pb.begin(), pb.end(), [a](const auto& p) { return p.first == a; });
  if (ia == pa.end() || ib == pb.end()) throw std::logic_error("guards-cones: removing a pair that is not counted");
  if (--ia->second > 0) {
    --ib->second;
    return;
  }
  *ia = pa.back();
  pa.pop_back();
  *ib = pb.back();
  pb.pop_back();
  touched(a);
}

void CandidateCounts::touched(SphereId a) {
  if (!started_ || touched_mark_[a]) return;
  touched_mark_[a] = 1;
  touched_.push_back(a);
}

void CandidateCounts::notify(CollisionWorld& world) {
  // The world refreshes a pair from either side; a sphere between bound_will_reset and the
  // world's next question (candidates) is refreshed by the world itself.
  for (std::size_t i = 0; i < touched_.size(); ++i) {
    const SphereId a = touched_[i];
    touched_mark_[a] = 0;
    if (!resetting_[a]) world.candidates_changed(a);
  }
  touched_.clear();
}

void CandidateCounts::candidates(SphereId id, std::vector<SphereId>& out) {
  resetting_[id] = 0;
  for (const auto& p : partners_[id]) out.push_back(p.first);
}

std::size_t CandidateCounts::pairs() const {
  std::size_t s = 0;
  for (const auto& p : partners_) s += p.size();
  return s / 2;
}

void CandidateCounts::audit(const std::map<std::pair<SphereId, SphereId>, std::uint32_t>& expected,
                            const std::string& when) const {
  std::size_t listed = 0;
  for (SphereId a = 0; a < partners_.size(); ++a)
    for (const auto& [b, count] : partners_[a]) {
      ++listed;
      const auto it = expected.find({std::min(a, b), std::max(a, b)});
      if (it == expected.end() || it->second != count)
        throw AuditFailure(when + "the pair {" + std::to_string(a) + ", " + std::to_string(b) + "} is counted " +
                           std::to_string(count) + " times, but " +
                           std::to_string(it == expected.end() ? 0 : it->second) + " closest objects name it");
    }
  if (listed != 2 * expected.size())
    throw AuditFailure(when + std::to_string(expected.size()) + " candidate pairs expected, " +
                       std::to_string(listed) + " partner entries listed");
}

bool set_closest(ClosestPerCone& closest, ConeIndex c, SphereId owner, SphereId k, CandidateCounts& counts) {
  const auto it = std::find_if(closest.begin(), closest.end(), [c](const auto& p) { return p.first == c; });
  const SphereId old = it == closest.end() ? no_sphere : it->second;
  if (old == k) return false;
  if (old != no_sphere) counts.remove(owner, old);
  if (k != no_sphere) counts.add(owner, k);
  if (k == no_sphere) {
    *it = closest.back();
    closest.pop_back();
  } else if (it == closest.end()) {
    closest.emplace_back(c, k);
  } else {
    it->second = k;
  }
  return true;
}

}  // namespace kds
