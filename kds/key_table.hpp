#pragma once
/// \file
/// The entries of a keyed structure (a sorted list, a tournament, the sorted lists of box
/// overlap to come): dense entry ids reused after erase, each holding a key, and the
/// bodies its key names held for as long as the entry lives. Each structure keeps what it
/// needs per entry beside it (a rank, a leaf slot), indexed by the same ids.
///
/// Speed: the order certificates of a structure read two keys per failure-time
/// computation, and a sorted list makes three such certificates per swap. So the keys
/// that almost every structure uses, one body's coordinate plus an offset, are also
/// kept in a 24-byte record beside the full Key: value() and bodies() read only that
/// record and the body's motion (one cache line each), never the 72-byte Key.

#include <string>
#include <vector>

#include "kds/huge_pages.hpp"
#include "kds/key.hpp"

namespace kds {

class KeyTable {
 public:
  /// `structure` and `noun` name the owner in error messages ("SortedList", "list").
  KeyTable(Bodies& bodies, const char* structure, const char* noun)
      : bodies_(&bodies), structure_(structure), noun_(noun) {}
  KeyTable(const KeyTable&) = delete;
  KeyTable& operator=(const KeyTable&) = delete;
  /// Releases the bodies of every entry still present; never throws.
  ~KeyTable() {
    for (std::size_t e = 0; e < keys_.size(); ++e)
      if (present_[e]) release(keys_[e]);
  }

  /// Throws InvalidInput "<structure>::<operation>: ..." unless the key's bodies are live
  /// here and its axes exist. Changes nothing.
  /// (The structure's name is put in front only on failure: no string is built for a key
  /// that passes.)
  void check(const Key& key, const char* operation) const {
    try {
      key.require(*bodies_, operation);
    } catch (const InvalidInput& e) {
      throw InvalidInput(std::string(structure_) + "::" + e.what());
    }
  }
  /// A new entry for a checked key (holds its bodies). Entry ids are dense and reused.
  EntryId add(const Key& key) {
    EntryId e;
    if (!free_.empty()) {
      e = free_.back();
      free_.pop_back();
    } else {
      e = static_cast<EntryId>(keys_.size());
      keys_.push_back(Key::coordinate(BodyId::none()));
      compact_.emplace_back();
      present_.push_back(false);
    }
    hold(key);
    keys_[e] = key;
    set_compact(e, key);
    present_[e] = true;
    return e;
  }
  /// Forgets an entry (releases its bodies; its id may be reused).
  void remove(EntryId e) {
    release(keys_[e]);
    keys_[e] = Key::coordinate(BodyId::none());  // drops a user's key source now
    compact_[e] = Compact{};
    present_[e] = false;
    free_.push_back(e);
  }
  /// Gives an entry a new, checked key (holds the new bodies before releasing the old).
  void replace(EntryId e, const Key& key) {
    hold(key);
    release(keys_[e]);
    keys_[e] = key;
    set_compact(e, key);
  }

  bool contains(EntryId e) const { return e < keys_.size() && present_[e]; }
  /// Throws InvalidInput "<structure>::<operation>: entry N is not in the <noun>".
  void require(EntryId e, const char* operation) const {
    if (!contains(e))
      throw InvalidInput(where(operation) + ": entry " + std::to_string(e) + " is not in the " + noun_);
  }
  /// The key of an entry (unchecked).
  const Key& operator[](EntryId e) const { return keys_[e]; }
  /// The key of an entry as a polynomial in s = t - origin, in NT (unchecked: the hot
  /// path of order certificates).
  template <class NT>
  [[gnu::always_inline]] Polynomial<NT> value(EntryId e, double origin) const {
    const Compact& c = compact_[e];
    if (!c.coordinate) return keys_[e].value<NT>(*bodies_, origin);
    Polynomial<NT> p = bodies_->coordinate_at<NT>(c.place, c.axis, origin);
    if (c.offset != 0) p += Polynomial<NT>(NT(c.offset));
    return p;
  }
  /// value() as a Line (kds/line.hpp), with the same rounding; false when the key is not
  /// a coordinate key or its coordinate is not linear (then use value()).
  template <class NT>
  [[gnu::always_inline]] bool line(EntryId e, double origin, Line<NT>& out) const {
    const Compact& c = compact_[e];
    if (!c.coordinate || !bodies_->coordinate_line_at<NT>(c.place, c.axis, origin, out)) return false;
    if (c.offset != 0) out = out + Line<NT>::constant(NT(c.offset));
    return true;
  }
  /// value() as the motion stores it, x + offset + v (t - t0) (kds/line.hpp); false when
  /// the key is not a coordinate key or its coordinate is not linear.
  [[gnu::always_inline]] bool stored_line(EntryId e, StoredLine& out) const {
    const Compact& c = compact_[e];
    if (!c.coordinate || !bodies_->coordinate_stored_line_at(c.place, c.axis, out)) return false;
    out.offset = c.offset;
    return true;
  }
  /// The sign of key a - key b when it is a constant known exactly: both keys fixed
  /// linear forms with the same u (kds/linear_form.hpp) of one body, such as two
  /// coordinates of one body on one axis with different offsets, or of two bodies that
  /// move alike along u (both at rest there, say). Sign::unknown otherwise, and then the
  /// caller computes. For an order certificate between two such keys the filter could
  /// not see the constant (interval subtraction leaves the motion's terms as intervals
  /// around zero, and the constant is often exactly 0: planes that coincide) and went to
  /// the exact path every time. A constant of two bodies holds until either motion
  /// changes, when the certificates over them are rescheduled.
  Sign constant_difference_sign(EntryId a, EntryId b) const {
    const Compact& ca = compact_[a];
    const Compact& cb = compact_[b];
    if (ca.coordinate && cb.coordinate) {
      // Two bodies' coordinates are left to the caller: the sorted list's hot path, where
      // the stored lines decide level keys of one speed exactly (kds/solver.hpp).
      if (ca.body != cb.body || ca.axis != cb.axis) return Sign::unknown;
      return ca.offset > cb.offset ? Sign::positive : ca.offset < cb.offset ? Sign::negative : Sign::zero;
    }
    if (!(ca.coordinate || ca.form) || !(cb.coordinate || cb.form)) return Sign::unknown;
    const LinearForm fa = form_of(a);
    const LinearForm fb = form_of(b);
    if (fa.body == fb.body) return sign_of_difference(fa, fb);
    return two_body_sign(fa, fb);
  }
  /// The linear form of an entry's key, if it has one (kds/linear_form.hpp).
  bool linear_form(EntryId e, LinearForm& out) const {
    if (!compact_[e].coordinate && !compact_[e].form) return false;
    out = form_of(e);
    return true;
  }
  /// The bodies the key of an entry depends on (unchecked).
  BodyList bodies_of(EntryId e) const {
    const Compact& c = compact_[e];
    if (c.coordinate) return BodyList{c.body};
    return keys_[e].bodies();
  }
  /// One more than the largest entry id in use.
  std::size_t id_bound() const { return keys_.size(); }
  const Bodies& bodies() const { return *bodies_; }

 private:
  std::string where(const char* operation) const { return std::string(structure_) + "::" + operation; }
  /// The linear form of an entry whose Compact says it has one.
  LinearForm form_of(EntryId e) const {
    const Compact& c = compact_[e];
    if (c.form) return forms_[e];
    LinearForm f;
    f.body = c.body;
    f.u[c.axis] = 1;
    f.offset[c.axis] = c.offset;
    return f;
  }
  /// sign_of_difference of forms of two bodies, from their motions as stored.
  Sign two_body_sign(const LinearForm& a, const LinearForm& b) const {
    if (a.u != b.u) return Sign::unknown;
    const Bodies& bodies = *bodies_;
    auto with_motion = [&](BodyId id, auto&& f) {
      if (bodies.dimension(id) == 3) return f(bodies.motion_as<3>(id));
      return f(bodies.motion(id));  // a copy widened to three axes
    };
    return with_motion(a.body, [&](const Motion<3>& ma) {
      return with_motion(b.body, [&](const Motion<3>& mb) { return sign_of_difference(a, ma, b, mb); });
    });
  }
  void set_compact(EntryId e, const Key& key) {
    LinearForm f;
    compact_[e] = Compact::of(key, *bodies_, f);
    if (compact_[e].form) {
      // Kept beside the keys, and only as far as the largest entry with a form: a
      // structure of coordinate keys never grows it. Read on every order certificate
      // between two forms, where asking the key would be a virtual call on another line.
      if (forms_.size() <= e) forms_.resize(std::size_t{e} + 1);
      forms_[e] = f;
    }
  }
  void hold(const Key& key) {
    for (BodyId b : key.bodies()) bodies_->hold(b);
  }
  void release(const Key& key) noexcept {
    for (BodyId b : key.bodies()) bodies_->release(b);
  }

  /// A coordinate key's body, axis and offset; `coordinate` false for every other key,
  /// and `form` true for those that are linear forms of one body's position (so that
  /// constant_difference_sign asks only them).
  struct Compact {
    BodyId body = BodyId::none();
    double offset = 0;
    std::uint32_t place = 0;  // Bodies::place(body): fixed while the table holds the body
    std::int8_t axis = 0;
    bool coordinate = false;
    bool form = false;
    /// `form` receives the key's linear form when `form` is set.
    static Compact of(const Key& k, const Bodies& bodies, LinearForm& form) {
      if (!k.is_coordinate()) {
        Compact c;
        c.form = k.linear_form(form);
        return c;
      }
      return {k.coordinate_body(), k.coordinate_offset(), bodies.place(k.coordinate_body()),
              static_cast<std::int8_t>(k.coordinate_axis()), true};
    }
  };
  static_assert(sizeof(Compact) == 24, "the order certificate reads one Compact per key: keep it small");

  Bodies* bodies_;
  const char* structure_;
  const char* noun_;
  LargeVector<Key> keys_;  // by entry (on huge pages once large: kds/huge_pages.hpp)
  LargeVector<Compact> compact_;  // by entry
  std::vector<LinearForm> forms_;  // by entry, for the entries whose Compact has `form`
  std::vector<bool> present_;
  std::vector<EntryId> free_;
};

}  // namespace kds
