#include "kds/bodies.hpp"

#include <algorithm>
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

void Bodies::require(BodyId id, std::string_view operation) const {
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

void Bodies::require_axis(BodyId id, int axis, std::string_view operation) const {
  require(id, operation);
  if (axis < 0 || axis >= dimension(id))
    throw InvalidInput(std::string(operation) + ": body " + std::to_string(id.index) + " has dimension " +
                       std::to_string(dimension(id)) + ", no axis " + std::to_string(axis));
}

BodyId Bodies::at_index(std::uint32_t index) const {
  if (index >= records_.size() || !records_[index].alive) return BodyId::none();
  return BodyId{index, records_[index].generation};
}

BodyId Bodies::allocate(int dimension) {
  std::uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    index = static_cast<std::uint32_t>(records_.size());
    // The arrays by index grow together: room in all of them first, so that an allocation
    // that fails leaves them all of one size.
    auto make_room = [](auto& v) {
      if (v.size() == v.capacity()) v.reserve(std::max<std::size_t>(16, 2 * v.capacity()));
    };
    make_room(records_);
    make_room(lists_);
    make_room(live_generation_);
    make_room(place_);
    records_.emplace_back().generation = tag_;
    lists_.emplace_back();
    live_generation_.push_back(kDead);
    place_.push_back(0);
  }
  std::vector<std::uint32_t>& free_slots = free_slots_[dimension - 1];
  std::uint32_t slot;
  if (!free_slots.empty()) {
    slot = free_slots.back();
    free_slots.pop_back();
  } else {
    switch (dimension) {
      case 1: slot = static_cast<std::uint32_t>(motions1_.size()); motions1_.emplace_back(); break;
      case 2: slot = static_cast<std::uint32_t>(motions2_.size()); motions2_.emplace_back(); break;
      default: slot = static_cast<std::uint32_t>(motions3_.size()); motions3_.emplace_back(); break;
    }
    if (slot > kSlotMask) throw std::length_error("kds::Bodies: more than 2^30 bodies of one dimension");
  }
  place_[index] = (static_cast<std::uint32_t>(dimension) << kDimensionShift) | slot;
  Record& r = records_[index];
  r.alive = true;
  r.holders = 0;
  r.dimension = static_cast<std::uint8_t>(dimension);
  live_generation_[index] = r.generation;
  ++live_;
  return BodyId{index, r.generation};
}

Motion<3> Bodies::motion(BodyId id) const {
  const int d = dimension(id);
  if (d == 3) return motion_as<3>(id);
  std::array<Motion<3>::Coefficients, 3> c{};
  double start = 0;
  if (d == 1) {
    c[0] = motion_as<1>(id).coefficients(0);
    start = motion_as<1>(id).start();
  } else {
    for (int i = 0; i < 2; ++i) c[i] = motion_as<2>(id).coefficients(i);
    start = motion_as<2>(id).start();
  }
  return Motion<3>::polynomial(start, c);
}

void Bodies::erase(BodyId id) {
  require(id, "Bodies::erase");
  Record& r = records_[id.index];
  if (r.holders > 0)
    throw InvalidInput("Bodies::erase: body " + std::to_string(id.index) + " is still held by " +
                       std::to_string(r.holders) + " structure(s); remove it from them first");
  if (!lists_[id.index].empty())
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

void Bodies::begin_motion_change(BodyId id, double start) {
  // Motions change at a double: round the clock first (a no-op when it is one already),
  // then nothing else may touch the queue until the body's certificates are rescheduled.
  sim_.round_clock();
  sim_.check_motion_start(start, "Bodies::set_motion: body", id.index);
  // Unschedule first, replace the motion second (set_motion does it after this returns):
  // taking one certificate out of the queue may compare (exactly) the failure times of
  // the body's other certificates, which must still be computed from the motion that
  // produced them.
  // (reschedule changes no list: the walk reads the entries in place.)
  for (const BodyLink l : lists_[id.index]) sim_.reschedule(l.owner());
}

void Bodies::end_motion_change(BodyId id) {
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
  for (std::uint32_t index : retired_)
    free_slots_[(place_[index] >> kDimensionShift) - 1].push_back(place_[index] & kSlotMask);
  free_.insert(free_.end(), retired_.begin(), retired_.end());
  retired_.clear();
}

const CertificateList& Bodies::certificates_of(BodyId id) const {
  require(id, "Bodies::certificates_of");
  return lists_[id.index];
}

}  // namespace kds
