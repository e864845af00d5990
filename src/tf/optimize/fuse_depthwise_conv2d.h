// tfjs-converter's fuse_depthwise_conv2d (research: tfjs.md §4.2): DepthwiseConv2dNative
// followed by BiasAdd and/or Relu|Relu6|Elu becomes TF.js's FusedDepthwiseConv2dNative. The
// depthwise node keeps its name, place and attrs (with the OpDef's defaults for those it
// lacks: data_format, dilations, explicit_paddings); it gains num_args (1 with a bias, else 0),
// fused_ops ([BiasAdd|NoOp(, act)]) and the bias input. Patterns are tried in the converter's
// order: depthwise + BiasAdd + act, depthwise + BiasAdd, depthwise + act. Every node after the
// depthwise must be the only consumer of the one before it; the last one's consumers, and an
// output naming it, are pointed at the depthwise node.
#ifndef GRAPHPORT_TF_OPTIMIZE_FUSE_DEPTHWISE_CONV2D_H_
#define GRAPHPORT_TF_OPTIMIZE_FUSE_DEPTHWISE_CONV2D_H_

#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

// `outputs` (graph tensors) are rewritten where a removed node was named. Returns the number of
// depthwise convolutions fused.
int FuseDepthwiseConv2d(tensorflow::GraphDef* graph, const std::vector<std::string>& inputs,
                        std::vector<std::string>* outputs);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_FUSE_DEPTHWISE_CONV2D_H_
