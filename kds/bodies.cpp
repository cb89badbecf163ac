#include "kds/bodies.hpp"

#include <atomic>
#include <sstream>

#include "kds/simulator.hpp"

namespace kds {
namespace {

// Generations: the high 12 bits mark the simulator (its serial number), the low 20 count
// the reuses of an index. A foreign id is told from a stale one by the high bits (two
// simulators 4096 apart in creation order share a mark: an unlikely false "stale").
constexpr std::uint32_t kTagShift = 20;
constexpr std::uint32_t kCountMask = (std::uint32_t{1} << kTagShift) - 1;

std::uint32_t next_tag() {
  static std::atomic<std::uint32_t> serial{0};
  return (serial.fetch_add(1, std::memory_order_relaxed) & 0xFFFu) << kTagShift;
}

}  // namespace

Bodies::Bodies(Simulator& sim) : sim_(sim), tag_(next_tag()) {}

Bodies::~Bodies() = default;

void Bodies::require(BodyId id, const std::string& operation) const {
  if (contains(id)) return;
  std::ostringstream os;
  os << operation << ": ";
  if (id.is_none()) {
    os << "no body given (a default BodyId)";
  } else {
    os << "body " << id.index;
    if ((id.generation & ~kCountMask) != tag_) os << " belongs to another simulator";
    else if (id.index < records_.size()) os << " was erased (a stale id)";
    else os << " does not exist";
  }
  throw InvalidInput(os.str());
}

void Bodies::require_axis(BodyId id, int axis, const std::string& operation) const {
  require(id, operation);
  if (axis < 0 || axis >= dimension(id))
    throw InvalidInput(operation + ": body " + std::to_string(id.index) + " has dimension " +
                       std::to_string(dimension(id)) + ", no axis " + std::to_string(axis));
}

BodyId Bodies::at_index(std::uint32_t index) const {
  if (index >= records_.size() || !records_[index].alive) return BodyId::none();
  return BodyId{index, records_[index].generation};
}

BodyId Bodies::insert_widened(const Motion<3>& m, int dimension) {
  std::uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    index = static_cast<std::uint32_t>(records_.size());
    records_.emplace_back();
    records_.back().generation = tag_;
    motions_.emplace_back();
    live_generation_.push_back(kDead);
  }
  Record& r = records_[index];
  r.alive = true;
  r.holders = 0;
  r.dimension = static_cast<std::uint8_t>(dimension);
  live_generation_[index] = r.generation;
  motions_[index] = m;
  ++live_;
  const BodyId id{index, r.generation};
  inserted_.emit(id);
  return id;
}

void Bodies::erase(BodyId id) {
  require(id, "Bodies::erase");
  Record& r = records_[id.index];
  if (r.holders > 0)
    throw InvalidInput("Bodies::erase: body " + std::to_string(id.index) + " is still held by " +
                       std::to_string(r.holders) + " structure(s); remove it from them first");
  if (!r.certificates.empty())
    throw InvalidInput("Bodies::erase: body " + std::to_string(id.index) + " still has certificates");
  erasing_.emit(id);
  r.alive = false;
  live_generation_[id.index] = kDead;
  r.generation = (r.generation & ~kCountMask) | ((r.generation + 1) & kCountMask);
  if (r.generation == kDead) r.generation &= ~kCountMask;  // kDead marks free slots: never a generation
  // Its index is reused only after the clock moves on: the clock may be the root of a
  // destroyed certificate that still reads this body's motion (docs/architecture.md, 5).
  retired_.push_back(id.index);
  --live_;
}

void Bodies::set_widened(BodyId id, const Motion<3>& m) {
  const std::string what = "Bodies::set_motion: body " + std::to_string(id.index);
  // Motions change at a double: round the clock first (a no-op when it is one already),
  // then nothing else may touch the queue until the body's certificates are rescheduled.
  sim_.round_clock();
  sim_.check_motion_start(m.start(), what);
  // Unschedule first, replace the motion second: taking one certificate out of the queue
  // may compare (exactly) the failure times of the body's other certificates, which must
  // still be computed from the motion that produced them.
  for (BodyLink& l : records_[id.index].certificates) sim_.reschedule(l.owner);
  motions_[id.index] = m;
  motion_changed_.emit(id);
}

void Bodies::hold(BodyId id) {
  require(id, "Bodies::hold");
  ++records_[id.index].holders;
}

void Bodies::release(BodyId id) {
  if (!contains(id) || records_[id.index].holders == 0) return;  // called from destructors: never throws
  --records_[id.index].holders;
}

void Bodies::recycle() {
  free_.insert(free_.end(), retired_.begin(), retired_.end());
  retired_.clear();
}

const CertificateList& Bodies::certificates_of(BodyId id) const {
  require(id, "Bodies::certificates_of");
  return records_[id.index].certificates;
}

}  // namespace kds
