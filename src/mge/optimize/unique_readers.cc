#include "mge/optimize/unique_readers.h"

#include <string_view>

namespace graphport::mge::opt {
namespace {

// Which inputs of an operator of class `key` are read for their shape only: all of them,
// the second, or none. Told once per operator, not once per input and pair of inputs (the
// class name compares were most of the count on a graph of 100k Elemwise).
enum class ShapeReads { kNone, kAll, kSecond };
ShapeReads ShapeReadsOf(std::string_view key) {
  if (key == "GetVarShape") return ShapeReads::kAll;
  if (key == "Reshape" || key == "Broadcast") return ShapeReads::kSecond;
  return ShapeReads::kNone;
}
bool ShapeOnly(ShapeReads reads, size_t k) {
  return reads == ShapeReads::kAll || (reads == ShapeReads::kSecond && k == 1);
}

}  // namespace

UniqueReaders::UniqueReaders(const OptGraph& g) : g_(g), nodes_(g.size()) {
  counts_.assign(g.var_count(), 0);
  for (uint32_t node : g.TopoOrder()) {
    const ShapeReads reads = ShapeReadsOf(g.Key(node));
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
