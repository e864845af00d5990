// The graph optimizations tfjs-converter applies to a frozen graph before it writes a TF.js
// graph model (research: savedmodel_freeze.md §4.2 optimize_graph), in its order:
//   1. Grappler pass 1, as far as it decides the output: Identity/NoOp removal, Identity
//      chains folded onto their Consts, control edges that order nothing dropped, pruning;
//   2. fold_batch_norms; 3. normalize_bias_add; 4. Conv2D and MatMul placed on the CPU;
//   5. Grappler pass 2: the remapper's fusions (_FusedConv2D, _FusedMatMul), then its
//      dependency optimizer (pass 1's removal again);
//   6. fuse_ops_for_prelu; 7. fuse_depthwise_conv2d; 8. fuse_prelu_with_fused_conv2d_or_matmul.
// General constant folding and the arithmetic optimizer are not done.
#ifndef GRAPHPORT_TF_OPTIMIZE_OPTIMIZE_FOR_TFJS_H_
#define GRAPHPORT_TF_OPTIMIZE_OPTIMIZE_FOR_TFJS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

// `inputs` and `outputs` are graph tensors ("node:i"); no node they name is removed or renamed,
// except that an output whose node a TF.js fusion absorbs is rewritten to name the fused node
// (as the converter's rewiring does). Returns the report: {pass: {what it did, counts}}.
// Throws Error (kParseError) for a graph that cannot run (a cycle of Identity nodes).
nlohmann::json OptimizeForTfjs(tensorflow::GraphDef* graph, const std::vector<std::string>& inputs,
                               std::vector<std::string>* outputs);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_OPTIMIZE_FOR_TFJS_H_
