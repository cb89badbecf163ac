#pragma once
/// \file
/// The moving bodies of a simulator, shared by every structure attached to it.
///
/// A body is a point with a polynomial motion in 1, 2 or 3 dimensions (a sphere's
/// centre, a box's corner, a point on a line). The simulator owns its bodies
/// (`Simulator::bodies()`); structures name them by `BodyId` and read their motions from
/// here, so that several structures watch the same bodies at once: a sorted list over
/// their x-coordinates, a tournament over their gaps and a collision world over their
/// spheres, all on one set of motions.
///
/// **The motion-change protocol** is written once, in `set_motion`: the clock is rounded
/// up to a double (motions change at representable times), the new motion must not start
/// before it, the motion is replaced, and exactly the certificates that name the body are
/// rescheduled; a certificate the change violates fails at once. Then the observers hear
/// of it.
///
/// **Ids** carry a generation: an id kept after its body was erased is *stale*, and every
/// operation given one throws InvalidInput naming the body and the operation; so does an
/// id made by another simulator (*foreign*).
///
/// **Holding**: a structure that keeps a body (a key of a sorted list, a sphere of a
/// collision world) holds it (`hold`/`release`); erasing a held body, or one that still
/// has certificates, is an InvalidInput and changes nothing.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kds/body_id.hpp"
#include "kds/certificate.hpp"
#include "kds/huge_pages.hpp"
#include "kds/motion.hpp"
#include "kds/signal.hpp"

namespace kds {

class Simulator;

class Bodies {
 public:
  static constexpr int max_dimension = 3;

  /// Adds a body with motion `m` (validated: InvalidInput on a NaN or infinite value).
  /// The motion may be written about any start time; the body exists from now on.
  template <int D>
  BodyId insert(const Motion<D>& m) {
    static_assert(D >= 1 && D <= max_dimension, "kds::Bodies: 1, 2 or 3 dimensions");
    validate(m, [] { return std::string("Bodies::insert: new body"); });
    const BodyId id = allocate(D);
    motions<D>()[place_[id.index] & kSlotMask] = m;
    inserted_.emit(id);
    return id;
  }
  /// Removes a body. InvalidInput (nothing changed) if it is stale or foreign, held by a
  /// structure, or still named by a certificate.
  void erase(BodyId id);
  /// Replaces the motion of a body at the current time, by the protocol above.
  /// InvalidInput (nothing changed) on a stale id, a NaN, a motion of another dimension,
  /// or a motion that starts before the current time.
  template <int D>
  void set_motion(BodyId id, const Motion<D>& m) {
    // The messages are built only on failure: a motion change is on the hot path of every
    // structure, which must not allocate there (issue 8; tests/structures/hot_path/).
    require(id, "Bodies::set_motion");
    validate(m, [&] { return "Bodies::set_motion: body " + std::to_string(id.index); });
    if (D != dimension(id))
      throw InvalidInput("Bodies::set_motion: body " + std::to_string(id.index) + " has dimension " +
                         std::to_string(dimension(id)) + ", not " + std::to_string(D));
    begin_motion_change(id, m.start());
    motions<D>()[place_[id.index] & kSlotMask] = m;
    end_motion_change(id);
  }

  /// Whether `id` names a live body of this simulator.
  bool contains(BodyId id) const {
    return id.index < live_generation_.size() && live_generation_[id.index] == id.generation;
  }
  /// Throws InvalidInput "<operation>: body <i> ..." unless `id` names a live body here,
  /// saying whether it is stale (erased), foreign (another simulator's) or none.
  void require(BodyId id, std::string_view operation) const;
  /// Like require(), and also that the body has at least `axis + 1` dimensions.
  void require_axis(BodyId id, int axis, std::string_view operation) const;

  int dimension(BodyId id) const { return records_[id.index].dimension; }
  /// The motion, in three dimensions (unused axes are zero).
  Motion<3> motion(BodyId id) const;
  /// The motion of a body of dimension D (no check: hot path; D must be its dimension).
  template <int D>
  const Motion<D>& motion_as(BodyId id) const {
    return motions<D>()[place_[id.index] & kSlotMask];
  }
  /// Coordinate `axis` as a polynomial in s = t - origin, in NT; zero on an axis the body
  /// does not have (no check: hot path).
  template <class NT>
  [[gnu::always_inline]] Polynomial<NT> coordinate(BodyId id, int axis, double origin) const {
    return coordinate_at<NT>(place_[id.index], axis, origin);
  }
  /// Where a live body's motion is stored: fixed from its insertion to its erasure, so a
  /// structure that holds the body may keep it (KeyTable does) and skip one lookup per read.
  std::uint32_t place(BodyId id) const { return place_[id.index]; }
  /// coordinate() of the body stored at `place` (no check: hot path).
  template <class NT>
  [[gnu::always_inline]] Polynomial<NT> coordinate_at(std::uint32_t place, int axis, double origin) const {
    const std::uint32_t slot = place & kSlotMask;
    switch (place >> kDimensionShift) {
      case 1:
        return axis == 0 ? motions1_[slot].coordinate<NT>(0, origin) : Polynomial<NT>();
      case 2:
        return axis < 2 ? motions2_[slot].coordinate<NT>(axis, origin) : Polynomial<NT>();
      default:
        return motions3_[slot].coordinate<NT>(axis, origin);
    }
  }

  /// coordinate_at() as a Line (kds/line.hpp); false when that coordinate is not linear.
  template <class NT>
  [[gnu::always_inline]] bool coordinate_line_at(std::uint32_t place, int axis, double origin, Line<NT>& out) const {
    const std::uint32_t slot = place & kSlotMask;
    switch (place >> kDimensionShift) {
      case 1:
        if (axis != 0) return out = Line<NT>(), true;
        return motions1_[slot].coordinate_line<NT>(0, origin, out);
      case 2:
        if (axis >= 2) return out = Line<NT>(), true;
        return motions2_[slot].coordinate_line<NT>(axis, origin, out);
      default:
        return motions3_[slot].coordinate_line<NT>(axis, origin, out);
    }
  }

  /// The coordinate of the body stored at `place` as its motion stores it
  /// (Motion::stored_line); false when that coordinate is not linear.
  [[gnu::always_inline]] bool coordinate_stored_line_at(std::uint32_t place, int axis, StoredLine& out) const {
    const std::uint32_t slot = place & kSlotMask;
    switch (place >> kDimensionShift) {
      case 1:
        if (axis != 0) return out = StoredLine{}, true;
        return motions1_[slot].stored_line(0, out);
      case 2:
        if (axis >= 2) return out = StoredLine{}, true;
        return motions2_[slot].stored_line(axis, out);
      default:
        return motions3_[slot].stored_line(axis, out);
    }
  }

  /// Live bodies.
  std::size_t size() const { return live_; }
  /// One more than the largest index in use: indices are dense below it, with holes.
  std::uint32_t index_bound() const { return static_cast<std::uint32_t>(records_.size()); }
  /// The live body at `index`, or BodyId::none().
  BodyId at_index(std::uint32_t index) const;
  /// Calls f(BodyId) for every live body, in increasing index.
  template <class F>
  void for_each(F&& f) const {
    for (std::uint32_t i = 0; i < records_.size(); ++i)
      if (records_[i].alive) f(BodyId{i, records_[i].generation});
  }

  /// A structure keeps the body (erase() refuses while any structure holds it).
  void hold(BodyId id);
  void release(BodyId id);
  std::uint32_t holders(BodyId id) const { return records_[id.index].holders; }

  /// The certificates that name a body, in no particular order (kds/body_links.hpp). A
  /// view to read at once: creating, renewing or destroying a certificate changes it, and
  /// inserting a body may move every list.
  const CertificateList& certificates_of(BodyId id) const;

  /// Told after a body is inserted, after its motion changed (certificates already
  /// rescheduled), and before it is erased (its motion still readable). Callbacks may
  /// read anything and change motions of other bodies; see kds/signal.hpp.
  Signal<BodyId>& on_insert() { return inserted_; }
  Signal<BodyId>& on_motion_change() { return motion_changed_; }
  Signal<BodyId>& on_erase() { return erasing_; }

 private:
  friend class Simulator;
  explicit Bodies(Simulator& sim);
  ~Bodies();
  Bodies(const Bodies&) = delete;
  Bodies& operator=(const Bodies&) = delete;

  struct Record {
    std::uint32_t generation = 0;
    std::uint32_t holders = 0;
    std::uint8_t dimension = 0;
    bool alive = false;
  };

  /// Motions are stored by dimension, each in its own array, so that a 1D body's motion
  /// is 40 bytes and a sorted list over 1D keys reads one cache line per key (a widened
  /// Motion<3> is 104). place_[index] says which array and where.
  template <int D>
  LargeVector<Motion<D>>& motions() {
    if constexpr (D == 1) return motions1_;
    else if constexpr (D == 2) return motions2_;
    else return motions3_;
  }
  template <int D>
  const LargeVector<Motion<D>>& motions() const {
    return const_cast<Bodies*>(this)->motions<D>();
  }
  /// `what()` names the operation in the message, built only when m is invalid.
  template <int D, class What>
  static void validate(const Motion<D>& m, const What& what) {
    try {
      m.validate();
    } catch (const InvalidInput& e) {
      throw InvalidInput(what() + ": " + e.what());
    }
  }
  /// A live body of `dimension` with a motion slot (its motion is set by the caller).
  BodyId allocate(int dimension);
  /// The motion-change protocol around the assignment (see the file comment): round
  /// the clock, check the start, unschedule the body's certificates; then, after the new
  /// motion is stored, tell the observers.
  void begin_motion_change(BodyId id, double start);
  void end_motion_change(BodyId id);
  /// The clock moved on: erased bodies' indices may be reused.
  void recycle();
  /// The certificate list of a live body (the simulator links certificates to it).
  CertificateList& list(BodyId id) { return lists_[id.index]; }

  Simulator& sim_;
  std::uint32_t tag_;  // this simulator's mark in the high bits of every generation
  LargeVector<Record> records_;
  // By index: the certificates that name the body (kds/body_links.hpp), apart from the
  // records so that linking reads one 32-byte entry of a plain array.
  LargeVector<CertificateList> lists_;
  // By index: the generation of the live body there, or kDead (no generation has it):
  // contains() reads one contiguous word, on every certificate's creation.
  static constexpr std::uint32_t kDead = ~std::uint32_t{0};
  LargeVector<std::uint32_t> live_generation_;
  // By index: (dimension << kDimensionShift) | slot in motions<dimension>().
  static constexpr std::uint32_t kDimensionShift = 30;
  static constexpr std::uint32_t kSlotMask = (std::uint32_t{1} << kDimensionShift) - 1;
  LargeVector<std::uint32_t> place_;
  LargeVector<Motion<1>> motions1_;
  LargeVector<Motion<2>> motions2_;
  LargeVector<Motion<3>> motions3_;
  std::array<std::vector<std::uint32_t>, max_dimension> free_slots_;  // by dimension - 1
  std::vector<std::uint32_t> free_;     // indices to reuse
  std::vector<std::uint32_t> retired_;  // erased at the current time: reused once the clock moves on
  std::size_t live_ = 0;
  Signal<BodyId> inserted_, motion_changed_, erasing_;
};

}  // namespace kds
