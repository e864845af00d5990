#include "mge/optimize/unique_readers.h"

#include <string_view>

namespace graphport::mge::opt {
namespace {

// Whether input `k` of the node is read for its shape only.
bool ShapeOnly(std::string_view key, size_t k) {
  return key == "GetVarShape" || ((key == "Reshape" || key == "Broadcast") && k == 1);
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
    const std::string_view key = g.Key(node);
    const std::vector<VarRef>& in = g.node(node).inputs;
    for (size_t k = 0; k < in.size(); ++k) {
      if (ShapeOnly(key, k)) continue;
      // An operator reading a var twice depends on it once (MegEngine counts its dep map).
      bool again = false;
      for (size_t j = 0; j < k; ++j) again = again || (in[j] == in[k] && !ShapeOnly(key, j));
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
