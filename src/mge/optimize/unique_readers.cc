#include "mge/optimize/unique_readers.h"

namespace graphport::mge::opt {
namespace {

// Which inputs of an operator of class `cls` are read for their shape only: all of them,
// the second, or none. Told once per operator by the class's address (the registry holds one
// class per key), not by comparing names: a count runs over 100k operators in each pass.
enum class ShapeReads { kNone, kAll, kSecond };
ShapeReads ShapeReadsOf(const OprClass* cls) {
  static const OprClass* const kGetVarShape = FindClassByKey("GetVarShape");
  static const OprClass* const kReshape = FindClassByKey("Reshape");
  static const OprClass* const kBroadcast = FindClassByKey("Broadcast");
  if (cls == nullptr) return ShapeReads::kNone;
  if (cls == kGetVarShape) return ShapeReads::kAll;
  if (cls == kReshape || cls == kBroadcast) return ShapeReads::kSecond;
  return ShapeReads::kNone;
}
bool ShapeOnly(ShapeReads reads, size_t k) {
  return reads == ShapeReads::kAll || (reads == ShapeReads::kSecond && k == 1);
}

}  // namespace

UniqueReaders::UniqueReaders(const OptGraph& g) : g_(g), nodes_(g.size()) {
  counts_.assign(g.var_count(), 0);
  for (uint32_t node : g.TopoOrder()) {
    const ShapeReads reads = ShapeReadsOf(g.node(node).cls());
    const VarList& in = g.node(node).inputs;
    for (size_t k = 0; k < in.size(); ++k) {
      if (ShapeOnly(reads, k)) continue;
      // An operator reading a var twice depends on it once (MegEngine counts its dep map).
      bool again = false;
      for (size_t j = 0; j < k; ++j) again = again || (in[j] == in[k] && !ShapeOnly(reads, j));
      if (!again) ++counts_[g.VarIndex(in[k])];
    }
  }
  for (const VarRef& v : g.endpoints()) ++counts_[g.VarIndex(v)];
}

std::vector<uint32_t> OperatorReaderCounts(const OptGraph& g) {
  std::vector<uint32_t> counts(g.size(), 0);
  for (uint32_t node : g.TopoOrder()) {
    const VarList& in = g.node(node).inputs;
    for (size_t k = 0; k < in.size(); ++k) {
      bool again = false;
      for (size_t j = 0; j < k; ++j) again = again || in[j] == in[k];
      if (!again) ++counts[in[k].node];
    }
  }
  return counts;
}

uint32_t UniqueReaders::Count(VarRef v) const {
  if (v.node >= nodes_) return 0;
  return counts_[g_.VarIndex(v)];
}

}  // namespace graphport::mge::opt
