// MegEngine's UniqReaderCheck (research megengine_optimize.md §2.1.5): how many operators
// need a var's device value, counted once before a pass runs, plus one for a graph endpoint.
// Readers of the shape only (GetVarShape, the target of Reshape and Broadcast) do not count;
// an operator that reads a var twice counts once.
// A var is uniquely read with at most one such reader; vars made during the pass, which the
// count never saw, are too.
#ifndef GRAPHPORT_MGE_OPTIMIZE_UNIQUE_READERS_H_
#define GRAPHPORT_MGE_OPTIMIZE_UNIQUE_READERS_H_

#include <cstdint>
#include <vector>

#include "mge/optimize/opt_graph.h"

namespace graphport::mge::opt {

class UniqueReaders {
 public:
  explicit UniqueReaders(const OptGraph& g);

  bool operator()(VarRef v) const { return Count(v) <= 1; }
  uint32_t Count(VarRef v) const;

 private:
  const OptGraph& g_;
  uint32_t nodes_;                // the nodes seen
  std::vector<uint32_t> counts_;  // by OptGraph::VarIndex, for the vars of the nodes seen
};

// MegEngine's FindNext::used_count (gopt_helper.h), per node: how many (reader, var) pairs
// read any of the node's outputs, shape-only readers included, graph endpoints not.
std::vector<uint32_t> OperatorReaderCounts(const OptGraph& g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_UNIQUE_READERS_H_
