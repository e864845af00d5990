// The remapper fusions tfjs-converter gets from Grappler's second pass on CPU-placed nodes
// (research: savedmodel_freeze.md §4.3, tfjs.md §4.1-4.2):
//   Conv2D + BiasAdd [+ Relu|Relu6|Elu|LeakyRelu]  -> _FusedConv2D
//   MatMul + BiasAdd [+ Relu|Relu6|Elu|LeakyRelu]  -> _FusedMatMul
//   Conv2D + Squeeze + BiasAdd                     -> _FusedConv2D named as the conv, then the
//                                                     Squeeze named as the BiasAdd (conv1d)
// The fused node takes the name and the place of the pattern's last node, the contraction's
// device and attrs (Conv2D: T, strides, padding, explicit_paddings, data_format, dilations,
// use_cudnn_on_gpu; MatMul: T, transpose_a, transpose_b; each with its OpDef default where the
// contraction lacks it, as after the converter's import), fused_ops ["BiasAdd"(, act)],
// num_args 1, epsilon 0, and leakyrelu_alpha for LeakyRelu: the attrs TF.js reads.
// As the remapper, it needs NHWC, Conv2D of float/double and MatMul of float, every node but
// the last read only by the next one, and no node but the last among the graph's outputs.
#ifndef GRAPHPORT_TF_OPTIMIZE_FUSE_CONTRACTIONS_H_
#define GRAPHPORT_TF_OPTIMIZE_FUSE_CONTRACTIONS_H_

#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

struct ContractionFusion {
  int conv2d = 0;
  int matmul = 0;
  int conv1d = 0;       // Conv2D + Squeeze + BiasAdd
  int activations = 0;  // of those, fused with an activation
};

// Sets device "/device:CPU:0" on every Conv2D and MatMul, as the converter does before its
// remap pass (Grappler fuses only CPU-placed nodes). Returns the number of nodes set.
int PlaceContractionsOnCpu(tensorflow::GraphDef* graph);

// Nodes of `keep` (graph tensors) are never removed or renamed. Only CPU-placed contractions
// (device naming CPU) fuse.
ContractionFusion FuseContractions(tensorflow::GraphDef* graph,
                                   const std::vector<std::string>& keep);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_FUSE_CONTRACTIONS_H_
