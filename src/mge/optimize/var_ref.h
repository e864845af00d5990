// A var of the graph the passes rewrite: output `output` of node `node` (opt_graph.h).
#ifndef GRAPHPORT_MGE_OPTIMIZE_VAR_REF_H_
#define GRAPHPORT_MGE_OPTIMIZE_VAR_REF_H_

#include <cstddef>
#include <cstdint>
#include <functional>

namespace graphport::mge::opt {

struct VarRef {
  uint32_t node = 0;
  uint32_t output = 0;
  bool operator==(const VarRef& o) const { return node == o.node && output == o.output; }
  bool operator!=(const VarRef& o) const { return !(*this == o); }
  bool operator<(const VarRef& o) const {
    return node != o.node ? node < o.node : output < o.output;
  }
};

struct VarRefHash {
  size_t operator()(const VarRef& v) const {
    return std::hash<uint64_t>()(uint64_t{v.node} << 32 | v.output);
  }
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_VAR_REF_H_
