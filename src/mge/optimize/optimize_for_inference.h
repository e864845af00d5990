// optimize_for_inference (research megengine_optimize.md §2.2): MegEngine's default pipeline on
// a loaded graph, in MegEngine's order: ConvertBatchNormToElemwise, RemoveNonComputingOpr,
// DelayBroadcast, ExpandFusedArith, NormalizeArithChain, ParamRedistribute, ParamFuse #1,
// ArithMulDistribute, ReorderArithChain, ArithFuse, ReorderArithChain again,
// FinalArithTransform, RemoveRedundantTypeCvt, RemoveRedundantCopy, CombineAstypeAndReduce,
// ParamFuse #2, with fuse_grain (on by default) FoldingReduceMean, FoldingGlobalPooling and
// ParamFuse #3, then ParamMerge and RemoveShapeHint. The arithmetic passes take apart what
// they later put together (ExpandFusedArith and ArithFuse, NormalizeArithChain and
// FinalArithTransform); operators made again are deduplicated against the graph's own, so a
// graph that is already optimized comes out as the loaded graph itself.
// Not here yet: CondExecConstPredicateFolding (no conditional execution in a dump), the
// kwarg passes (fuse_conv_bias_nonlinearity, io16xc32, the layouts, ...) and FuseDeconvCvt;
// default exports do not call this.
#ifndef GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_FOR_INFERENCE_H_
#define GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_FOR_INFERENCE_H_

#include <vector>

#include "mge/dump/compat_rewrite.h"
#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

struct OptimizeOptions {
  bool fuse_grain = true;  // Network.dump's enable_fuse_grain default
};

struct OptimizeResult {
  std::vector<PassReport> passes;  // every pass run, in order
  bool changed = false;
  // The optimized graph: the input graph itself when no pass changed it (nothing is copied),
  // else out->graph.
  const Graph* graph = nullptr;
};

// Optimizes `graph`; a changed graph goes to out->graph (which points into `graph`'s bytes
// and into `out`).
OptimizeResult OptimizeForInference(const Graph& graph, const OptimizeOptions& options,
                                    RewrittenGraph* out);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_FOR_INFERENCE_H_
