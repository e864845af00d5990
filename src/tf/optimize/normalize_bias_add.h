// tfjs-converter's normalize_bias_add (research: tfjs.md §3 step 6): an Add or AddV2 that is
// the only consumer of a Conv2D, DepthwiseConv2dNative or MatMul (its input 0) and adds a 1-D
// Const becomes a BiasAdd (data_format NHWC), so the remapper can fuse it. The converter does
// not check the other operand's rank; this pass asks for a 1-D Const, and for an NHWC
// convolution, so that the BiasAdd computes what the Add did.
#ifndef GRAPHPORT_TF_OPTIMIZE_NORMALIZE_BIAS_ADD_H_
#define GRAPHPORT_TF_OPTIMIZE_NORMALIZE_BIAS_ADD_H_

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

// Returns the number of Add/AddV2 nodes made BiasAdd (they keep their names).
int NormalizeBiasAdd(tensorflow::GraphDef* graph);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_NORMALIZE_BIAS_ADD_H_
