// Rewrites the ops that TensorFlow's registry does not hold, or holds only for Grappler's own
// use, into stock TensorFlow ops, so that TensorFlow can import a graph that came from TF.js:
// _FusedConv2D, _FusedMatMul and FusedDepthwiseConv2dNative into their contraction followed
// by BiasAdd / FusedBatchNormV3 and the activation; Prelu into Relu, Neg, Mul and Sub;
// DepthwiseConv2d into DepthwiseConv2dNative.
#ifndef GRAPHPORT_TFJS_UNFUSE_OPS_H_
#define GRAPHPORT_TFJS_UNFUSE_OPS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tfjs {

struct UnfuseRewrite {
  std::string node;  // the fused node's name, which the last new node keeps
  std::string op;    // its op
  std::vector<std::string> fused_ops;
  std::vector<std::pair<std::string, std::string>> into;  // (name, op), in graph order
  std::string function;  // the library function whose body held the node; empty: the graph
};

// Rewrites the graph's nodes and those of every library function's body, in place. Every
// consumer keeps working: the last node of each rewrite takes the fused node's name (inside a
// function, references "<node>:<output arg>:<i>" and the function's ret follow its output arg).
// Throws graphport::Error(kUnsupported) naming the node for a fusion it cannot split (an
// unknown fused op, an argument count that does not add up).
std::vector<UnfuseRewrite> UnfuseOps(tensorflow::GraphDef* graph);

// [{node, op, fusedOps, [function], into: [{name, op}]}]: what `info` lists.
nlohmann::json RewritesToJson(const std::vector<UnfuseRewrite>& rewrites);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_UNFUSE_OPS_H_
