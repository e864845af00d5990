// FoldingGlobalPooling (research megengine_optimize.md §4.5; one of the enable_fuse_grain
// passes, on by default): a global pooling written as Reshape (N,C,H,W) -> (N,C,H*W), then
// Reduce MEAN or MAX over axis 2, then axis operators back to 4-d (a chain of AxisAddRemove
// ending in (N,C,1,1), or AxisAddRemove then Dimshuffle (0,1,-1,-1)) becomes one
// AdaptivePooling of the Reshape's input to (1,1), AVERAGE or MAX.
#ifndef GRAPHPORT_MGE_OPTIMIZE_FOLDING_GLOBAL_POOLING_FOLDING_GLOBAL_POOLING_H_
#define GRAPHPORT_MGE_OPTIMIZE_FOLDING_GLOBAL_POOLING_FOLDING_GLOBAL_POOLING_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport FoldingGlobalPooling(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_FOLDING_GLOBAL_POOLING_FOLDING_GLOBAL_POOLING_H_
