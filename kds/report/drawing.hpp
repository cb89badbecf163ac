#pragma once
/// \file
/// What a structure shows of itself to a viewer: a small, generic list of shapes (boxes,
/// spheres, segments, labels), so that a replay viewer draws any structure without
/// knowing it. A structure fills a Drawing for one of its objects at the current time;
/// the drawing stands until the structure draws that object differently (the replay
/// file records one drawing per object and time interval: docs/viewer.md).
///
/// A shape is either fixed in space (a grid cell) or carried by a body (`follow`): its
/// coordinates are then offsets from that body's position at every instant (a threshold
/// box around a rolling ball's tangency point, the bounding box of a sphere), so that a
/// drawing of moving things stays valid between events without being redrawn.
///
/// Shapes are in the structure's own frame; whoever writes them out translates them.
/// New kinds of structures (guards and cones) add data, never new shape kinds, unless
/// these four cannot show them.

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kds/body_id.hpp"

namespace kds {

struct Shape {
  enum class Kind : std::uint8_t { box, sphere, segment, label };
  static constexpr std::uint32_t fixed = ~std::uint32_t{0};

  Kind kind = Kind::box;
  std::array<double, 3> a{};  ///< box: low corner; sphere: centre; segment: first end; label: anchor
  std::array<double, 3> b{};  ///< box: high corner; segment: second end; unused otherwise
  double radius = 0;          ///< sphere only
  std::uint32_t follow = fixed;  ///< a body index whose position the coordinates are offsets from, or `fixed`
  std::string role;           ///< what it stands for ("cell", "threshold box", ...): the viewer's legend and colour
  std::string text;           ///< label only

  friend bool operator==(const Shape&, const Shape&) = default;
};

class Drawing {
 public:
  using Point = std::array<double, 3>;

  void box(const Point& lo, const Point& hi, std::string role) { add({Shape::Kind::box, lo, hi, 0, Shape::fixed, std::move(role), {}}); }
  /// A box whose corners are offsets from the position of `body`.
  void box_on(BodyId body, const Point& lo, const Point& hi, std::string role) {
    add({Shape::Kind::box, lo, hi, 0, body.index, std::move(role), {}});
  }
  void sphere(const Point& centre, double radius, std::string role) {
    add({Shape::Kind::sphere, centre, {}, radius, Shape::fixed, std::move(role), {}});
  }
  void segment(const Point& a, const Point& b, std::string role) {
    add({Shape::Kind::segment, a, b, 0, Shape::fixed, std::move(role), {}});
  }
  void label(const Point& at, std::string text, std::string role) {
    add({Shape::Kind::label, at, {}, 0, Shape::fixed, std::move(role), std::move(text)});
  }

  /// Any shape (the helpers above fill most).
  void add(Shape s) { shapes_.push_back(std::move(s)); }

  const std::vector<Shape>& shapes() const { return shapes_; }
  bool empty() const { return shapes_.empty(); }
  void clear() { shapes_.clear(); }
  /// Moves every fixed shape by `d` (carried shapes are offsets and do not move).
  void translate(const Point& d);
  /// The shapes as a JSON array (docs/viewer.md, "Replay files"), 17 significant digits.
  std::string json() const;

 private:
  std::vector<Shape> shapes_;
};

}  // namespace kds
