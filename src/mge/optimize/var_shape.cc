#include "mge/optimize/var_shape.h"

namespace graphport::mge::opt {
namespace {

size_t HashOf(const Shape& shape) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ shape.size();
  for (uint32_t d : shape) h = (h ^ d) * 0xbf58476d1ce4e5b9ull;
  return static_cast<size_t>(h ^ (h >> 31));
}

}  // namespace

size_t ShapeTable::Probe(const Shape& shape, size_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    if (slots_[i] == kFree || *shapes_[slots_[i]] == shape) return i;
  }
}

VarShape ShapeTable::Intern(const std::optional<Shape>& shape) {
  if (!shape) return VarShape();
  if (2 * (shapes_.size() + 1) > slots_.size()) {
    slots_.assign(slots_.empty() ? 16 : 2 * slots_.size(), kFree);
    for (uint32_t i = 0; i < shapes_.size(); ++i) {
      slots_[Probe(*shapes_[i], HashOf(*shapes_[i]))] = i;
    }
  }
  const size_t slot = Probe(*shape, HashOf(*shape));
  if (slots_[slot] == kFree) {
    slots_[slot] = static_cast<uint32_t>(shapes_.size());
    shapes_.push_back(shape);
  }
  return VarShape(&shapes_[slots_[slot]]);
}

}  // namespace graphport::mge::opt
