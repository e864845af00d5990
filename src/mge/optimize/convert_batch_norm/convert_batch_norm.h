// ConvertBatchNormToElemwise (research megengine_optimize.md §2.3 P1): an inference-mode
// BatchNorm with five inputs becomes (scale * (x - mean)) * (var + eps)^-0.5 + bias, built in
// MegEngine's creation order, so with constant statistics of fewer than 1024 channels the
// eps add and the PowC fold at once into sqrt(1 / (var + eps)).
#ifndef GRAPHPORT_MGE_OPTIMIZE_CONVERT_BATCH_NORM_CONVERT_BATCH_NORM_H_
#define GRAPHPORT_MGE_OPTIMIZE_CONVERT_BATCH_NORM_CONVERT_BATCH_NORM_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

// Throws Error(kUnsupported) naming a five-input BatchNorm that is not in INFERENCE mode (an
// assertion in MegEngine) or whose result dtype differs from its input's.
PassReport ConvertBatchNormToElemwise(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_CONVERT_BATCH_NORM_CONVERT_BATCH_NORM_H_
