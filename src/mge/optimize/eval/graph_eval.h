// Runs the reference evaluator over a graph: the value of any var from its sources
// (ImmutableTensor, SharedDeviceTensor, MultipleDeviceTensorHolder) and the values given for
// the Host2DeviceCopy inputs, operator by operator, each result computed once. GetVarShape
// reads its inputs' static shapes, so shape arithmetic works without their values (an input
// with no static shape is computed for its shape).
#ifndef GRAPHPORT_MGE_OPTIMIZE_EVAL_GRAPH_EVAL_H_
#define GRAPHPORT_MGE_OPTIMIZE_EVAL_GRAPH_EVAL_H_

#include <map>
#include <optional>
#include <string>

#include "mge/optimize/eval/opr_eval.h"
#include "mge/optimize/opt_graph.h"

namespace graphport::mge::opt {

class GraphEvaluator {
 public:
  GraphEvaluator(const OptGraph& graph, EvalOptions options) : g_(graph), options_(options) {}

  // The value of Host2DeviceCopy node `node`.
  void SetInput(uint32_t node, HostValue value) { memo_[{node, 0}] = std::move(value); }
  // nullopt, with `why` naming the operator, when some operator on the way has no kernel
  // here or an input has no value.
  std::optional<HostValue> Value(VarRef v, std::string* why);

 private:
  std::optional<HostValue> EvalNode(VarRef v, std::string* why);
  bool ShapesKnown(const OptNode& n) const;

  const OptGraph& g_;
  EvalOptions options_;
  std::map<VarRef, HostValue> memo_;
  std::map<VarRef, std::string> failed_;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_EVAL_GRAPH_EVAL_H_
