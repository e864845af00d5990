// optimize_for_inference, as far as graphport has its passes: the internal entry point the
// next steps build on (research megengine_optimize.md §2.2). Runs, in MegEngine's order,
// ConvertBatchNormToElemwise, RemoveNonComputingOpr, DelayBroadcast, ParamFuse #1,
// ArithMulDistribute, RemoveRedundantTypeCvt, RemoveRedundantCopy, CombineAstypeAndReduce,
// ParamFuse #2, with fuse_grain (on by default) FoldingReduceMean, FoldingGlobalPooling and
// ParamFuse #3, then ParamMerge and RemoveShapeHint; the option passes graphport has
// (FusePreprocess's check, FuseConvBiasNonlin, FuseConvBiasZ) run where MegEngine runs them.
// The passes between them (the arithmetic chain passes, ParamRedistribute, ...) are not all
// implemented yet, so the result is not yet always what MegEngine's dump writes. Every
// MegEngine export calls this unless optimizeForInference is false or asLoaded is set.
// ExpandFusedArith, NormalizeArithChain and FinalArithTransform are implemented but not run: the
// first two take apart what ArithFuse and FinalArithTransform put together again, and with
// ParamRedistribute, ReorderArithChain and ArithFuse missing between them the arithmetic would not
// come out as MegEngine's does.
#ifndef GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_FOR_INFERENCE_H_
#define GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_FOR_INFERENCE_H_

#include <vector>

#include "mge/dump/compat_rewrite.h"
#include "mge/optimize/optimize_options.h"
#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

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
