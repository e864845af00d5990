#include "mge/optimize/relayout/reformat.h"

#include <vector>

namespace graphport::mge::opt {
namespace {

// One axis of a target shape: axis `axis` of the input's shape divided or multiplied by
// `factor`, or (axis < 0) the constant `factor`. A factor of 0 stands for the pack size.
struct ShapeAxis {
  int32_t axis;
  uint32_t factor;
  bool mul = false;
};

struct Recipe {
  std::vector<ShapeAxis> split;  // the first Reshape's shape; empty: none
  std::vector<int32_t> order;    // the Dimshuffle
  std::vector<ShapeAxis> merge;  // the last Reshape's shape; empty: none
};

constexpr uint32_t kPack = 0;

const Recipe& RecipeOf(Reformat key) {
  static const auto* recipes = new std::vector<Recipe>{
      // kToPacked: (N, C/p, p, H, W), then C%p innermost.
      {{{0, 1}, {1, kPack}, {-1, kPack}, {2, 1}, {3, 1}}, {0, 1, 3, 4, 2}, {}},
      // kToNchw: C%p back beside C//p, then (N, C*p, H, W) from the packed shape.
      {{}, {0, 1, 4, 2, 3}, {{0, 1}, {1, kPack, true}, {2, 1}, {3, 1}}},
      // kDenseWeight: (K/p, p, C/p, p, R, S).
      {{{0, kPack}, {-1, kPack}, {1, kPack}, {-1, kPack}, {2, 1}, {3, 1}}, {0, 2, 4, 5, 3, 1}, {}},
      // kGroupWeight: (G, K/p, p, C/p, p, R, S).
      {{{0, 1}, {1, kPack}, {-1, kPack}, {2, kPack}, {-1, kPack}, {3, 1}, {4, 1}},
       {0, 1, 3, 5, 6, 4, 2},
       {}},
      // kChannelWiseWeight: (G/p, p, 1, 1, R, S).
      {{{0, kPack}, {-1, kPack}, {-1, 1}, {-1, 1}, {3, 1}, {4, 1}}, {0, 2, 3, 4, 5, 1}, {}},
      // kHybridWeight: (K/p, p, C, R, S).
      {{{0, kPack}, {-1, kPack}, {1, 1}, {2, 1}, {3, 1}}, {0, 3, 4, 2, 1}, {}},
      // kPackedToNhwc: (N, H, W, C%p, ...) then (N, H, W, C*p).
      {{}, {0, 2, 3, 1, 4}, {{0, 1}, {2, 1}, {3, 1}, {1, kPack, true}}},
  };
  return (*recipes)[static_cast<size_t>(key)];
}

// MakeShapeEmitter: the target shape computed from x's, in the order MegEngine makes it.
VarRef MakeShape(OprMaker* m, VarRef x, const std::vector<ShapeAxis>& axes, uint32_t pack) {
  const VarRef shape = m->GetVarShape(x);
  auto constant = [&](uint32_t v) { return m->ScalarImm(static_cast<float>(v), kI32, x); };
  VarList parts;
  for (const ShapeAxis& a : axes) {
    const uint32_t factor = a.factor == kPack ? pack : a.factor;
    if (a.axis < 0) {
      parts.push_back(constant(factor));
      continue;
    }
    OprMaker::IndexItem at;
    at.idx = true;
    const VarRef dim = m->Subtensor(shape, {at}, {constant(static_cast<uint32_t>(a.axis))});
    parts.push_back(a.mul ? m->Elemwise(kMul, {dim, constant(factor)})
                          : m->FloorDiv(dim, constant(factor)));
  }
  return m->Concat(std::move(parts), 0);
}

}  // namespace

VarRef EmitReformat(OprMaker* m, VarRef x, Reformat key, uint32_t pack) {
  const Recipe& r = RecipeOf(key);
  VarRef out = x;
  if (!r.split.empty()) out = m->Reshape(out, MakeShape(m, x, r.split, pack));
  out = m->Dimshuffle(out, r.order);
  if (!r.merge.empty()) out = m->Reshape(out, MakeShape(m, x, r.merge, pack));
  return out;
}

}  // namespace graphport::mge::opt
