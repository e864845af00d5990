// tfjs-converter's two Prelu passes (research: tfjs.md §3 steps 10 and 12):
// - FuseOpsForPrelu: Keras's PReLU, Add(Relu(x), Mul(-alpha, Relu(Neg(x)))) (the Relu as the
//   Add's input 0, the Mul as its input 1; the Mul's operands in either order), becomes
//   Prelu(x, alpha): the first Relu turns into the Prelu (its name, no T attr), the Const's
//   values are negated in place (it then holds +alpha), and the Add's consumers read the Prelu.
// - FusePreluIntoContraction: a Prelu whose input 0 is a _FusedConv2D, _FusedMatMul or
//   FusedDepthwiseConv2dNative with at most one fused op joins it: alpha appended to the
//   inputs, "Prelu" to fused_ops, num_args + 1; the Prelu's consumers read the fused node.
// Beyond the converter, each node that goes must be read only inside the pattern, and the
// alpha Const only by its Mul, so that nothing else sees a changed value.
#ifndef GRAPHPORT_TF_OPTIMIZE_FUSE_PRELU_H_
#define GRAPHPORT_TF_OPTIMIZE_FUSE_PRELU_H_

#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

// Both rewrite `outputs` (graph tensors) that named a node they removed, and never remove a
// node named by `inputs`. Each returns the number of patterns fused.
int FuseOpsForPrelu(tensorflow::GraphDef* graph, const std::vector<std::string>& inputs,
                    std::vector<std::string>* outputs);
int FusePreluIntoContraction(tensorflow::GraphDef* graph, const std::vector<std::string>& inputs,
                             std::vector<std::string>* outputs);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_FUSE_PRELU_H_
