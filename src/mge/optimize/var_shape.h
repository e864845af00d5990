// The static shape of an OptVar, held once per distinct shape in its graph's ShapeTable: a
// pass that re-makes a 100k-operator graph gave each new var a copy of its input's shape, a
// heap block per var, where a graph has a few distinct shapes. A VarShape reads like the
// std::optional<Shape> it stands for (and converts to a reference to one).
#ifndef GRAPHPORT_MGE_OPTIMIZE_VAR_SHAPE_H_
#define GRAPHPORT_MGE_OPTIMIZE_VAR_SHAPE_H_

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "mge/optimize/eval/host_value.h"

namespace graphport::mge::opt {

class VarShape {
 public:
  VarShape() = default;  // not known

  const std::optional<Shape>& get() const { return *shape_; }
  operator const std::optional<Shape>&() const { return *shape_; }  // NOLINT
  explicit operator bool() const { return shape_->has_value(); }
  bool has_value() const { return shape_->has_value(); }
  const Shape& operator*() const { return **shape_; }
  const Shape* operator->() const { return &**shape_; }
  const Shape& value() const { return shape_->value(); }

  friend bool operator==(const VarShape& a, const VarShape& b) {
    return a.shape_ == b.shape_ || *a.shape_ == *b.shape_;
  }
  friend bool operator!=(const VarShape& a, const VarShape& b) { return !(a == b); }
  friend bool operator==(const VarShape& a, const std::optional<Shape>& b) {
    return *a.shape_ == b;
  }
  friend bool operator==(const std::optional<Shape>& a, const VarShape& b) {
    return a == *b.shape_;
  }
  friend bool operator!=(const VarShape& a, const std::optional<Shape>& b) { return !(a == b); }
  friend bool operator!=(const std::optional<Shape>& a, const VarShape& b) { return !(a == b); }

 private:
  friend class ShapeTable;
  explicit VarShape(const std::optional<Shape>* shape) : shape_(shape) {}
  static inline const std::optional<Shape> kUnknown;
  const std::optional<Shape>* shape_ = &kUnknown;
};

// The distinct shapes of a graph's vars; each stays where it is for the table's life.
class ShapeTable {
 public:
  VarShape Intern(const std::optional<Shape>& shape);

 private:
  size_t Probe(const Shape& shape, size_t hash) const;

  std::deque<std::optional<Shape>> shapes_;
  // Open addressing over indices into shapes_ (kFree: empty), at most half full.
  static constexpr uint32_t kFree = ~uint32_t{0};
  std::vector<uint32_t> slots_;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_VAR_SHAPE_H_
