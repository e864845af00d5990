// tfjs-converter's fold_batch_norms (research: savedmodel_freeze.md §4.4): a batch norm after
// a convolution with a Const filter, optionally through a BiasAdd/Add/AddV2 with a Const bias,
// is folded into the filter and a bias. Matched: BatchNormWithGlobalNormalization (inputs x,
// mean, variance, beta, gamma; gamma used only with scale_after_normalization),
// FusedBatchNorm and FusedBatchNormV3 (x, gamma, beta, mean, variance); not FusedBatchNormV2,
// which the converter does not match either. The arithmetic is the converter's NumPy:
//   v      = variance + epsilon                     (in the variance's dtype)
//   scale  = 1.0 / sqrt(v) * gamma                  (float64)
//   offset = -(mean - bias) * scale + beta          (float64, stored in the mean's dtype;
//                                                    mean - bias in the mean's dtype)
//   filter[..., c] = filter[..., c] * scale[c]      (float64 product, stored in the filter's
//                                                    dtype; depthwise c = in * multiplier + m)
// The result is the converter's: Const <conv>_weights, the conv (same name) reading it, Const
// <conv>_bn_offset and a BiasAdd named as the batch norm, these four appended at the end; the
// batch norm, the bias add and the old filter go (the filter only when nothing else reads it,
// where the converter drops it regardless).
#ifndef GRAPHPORT_TF_OPTIMIZE_FOLD_BATCH_NORMS_H_
#define GRAPHPORT_TF_OPTIMIZE_FOLD_BATCH_NORMS_H_

#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

struct BatchNormFolding {
  int folded = 0;
  // "<bn>: <why>" for each batch norm after a convolution that stayed.
  std::vector<std::string> skipped;
};

// Nodes named in `keep` are not removed (a batch norm whose conv or bias add is kept stays).
BatchNormFolding FoldBatchNorms(tensorflow::GraphDef* graph, const std::vector<std::string>& keep);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_FOLD_BATCH_NORMS_H_
