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

UniqueReaders::UniqueReaders(const OptGraph& g) {
  first_.reserve(g.size());
  uint32_t total = 0;
  for (uint32_t i = 0; i < g.size(); ++i) {
    first_.push_back(total);
    total += static_cast<uint32_t>(g.node(i).outputs.size());
  }
  counts_.assign(total, 0);
  for (uint32_t node : g.TopoOrder()) {
    const ShapeReads reads = ShapeReadsOf(g.Key(node));
    const std::vector<VarRef>& in = g.node(node).inputs;
    for (size_t k = 0; k < in.size(); ++k) {
      if (ShapeOnly(reads, k)) continue;
      // An operator reading a var twice depends on it once (MegEngine counts its dep map).
      bool again = false;
      for (size_t j = 0; j < k; ++j) again = again || (in[j] == in[k] && !ShapeOnly(reads, j));
      if (!again) ++counts_[first_[in[k].node] + in[k].output];
    }
  }
  for (const VarRef& v : g.endpoints()) ++counts_[first_[v.node] + v.output];
}

std::vector<uint32_t> OperatorReaderCounts(const OptGraph& g) {
  std::vector<uint32_t> counts(g.size(), 0);
  for (uint32_t node : g.TopoOrder()) {
    const std::vector<VarRef>& in = g.node(node).inputs;
    for (size_t k = 0; k < in.size(); ++k) {
      bool again = false;
      for (size_t j = 0; j < k; ++j) again = again || in[j] == in[k];
      if (!again) ++counts[in[k].node];
    }
  }
  return counts;
}

uint32_t UniqueReaders::Count(VarRef v) const {
  if (v.node >= first_.size()) return 0;
  return counts_[first_[v.node] + v.output];
}

}  // namespace graphport::mge::opt
