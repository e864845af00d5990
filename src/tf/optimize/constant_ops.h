// The ops the constant folder evaluates: those that only move elements (ExpandDims, Squeeze,
// Reshape, Transpose, ConcatV2, Pack) and Shape, with TensorFlow's semantics for each, any
// fixed-width dtype. No arithmetic: a folded value is the inputs' bits, moved.
#ifndef GRAPHPORT_TF_OPTIMIZE_CONSTANT_OPS_H_
#define GRAPHPORT_TF_OPTIMIZE_CONSTANT_OPS_H_

#include <string>
#include <vector>

#include "tensorflow/node_def.pb.h"
#include "tf/optimize/dense_tensor.h"

namespace graphport::tf {

// True for an op EvaluateConstantOp knows.
bool IsFoldableOp(const std::string& op);

// `node` evaluated on `inputs` (its data inputs' values, in order). False when the op is not
// foldable or the inputs are not what the op takes (a bad axis, shapes that do not agree):
// such a node is left for the runtime, which reports it.
bool EvaluateConstantOp(const tensorflow::NodeDef& node, const std::vector<DenseTensor>& inputs,
                        DenseTensor* out);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_CONSTANT_OPS_H_
