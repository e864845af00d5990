// optimize_for_inference (research megengine_optimize.md §2.2): MegEngine's default pipeline on
// a loaded graph, in MegEngine's order: ConvertBatchNormToElemwise, RemoveNonComputingOpr,
// DelayBroadcast, ExpandFusedArith, NormalizeArithChain, ParamRedistribute, ParamFuse #1,
// ArithMulDistribute, ReorderArithChain, ArithFuse, ReorderArithChain again,
// FinalArithTransform, RemoveRedundantTypeCvt, RemoveRedundantCopy, CombineAstypeAndReduce,
// ParamFuse #2, with fuse_grain (on by default) FoldingReduceMean, FoldingGlobalPooling and
// ParamFuse #3, then ParamMerge and RemoveShapeHint; the option passes graphport has
// (FusePreprocess's check, ConvertF32ToF16 for ioc16 and io16xc32, FuseConvBiasNonlin,
// FuseConvBiasZ, and for nchw44 / nchw88 PaddingChannel, EnableNchwxx and
// ShuffleShuffleRemove) run where MegEngine runs them.
// The arithmetic passes take apart what they later put together (ExpandFusedArith and
// ArithFuse, NormalizeArithChain and FinalArithTransform); operators made again are
// deduplicated against the graph's own, so a graph that is already optimized comes out with
// the loaded operators. Not here: CondExecConstPredicateFolding (no conditional execution in a
// dump), FuseDeconvCvt, and the other layout kwargs (refused before this runs). Every
// MegEngine export calls this unless optimizeForInference is false or asLoaded is set.
#ifndef GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_FOR_INFERENCE_H_
#define GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_FOR_INFERENCE_H_

#include <functional>
#include <vector>

#include "mge/dump/compat_rewrite.h"
#include "mge/optimize/optimize_options.h"
#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

struct OptimizeResult {
  std::vector<PassReport> passes;  // every pass run, in order
  bool changed = false;
  // The optimized graph, out->graph: named and numbered as MegEngine dumps it, even when no
  // pass changed an operator (OptGraph::Emit).
  const Graph* graph = nullptr;
};

// Called after each pass with its report and the pass graph as it stands: a development aid
// (tests/cpp/mge/optimize/trace_passes.cc prints the graph as the reference driver's
// --trace-passes does, so that the two can be compared pass by pass).
using AfterPass = std::function<void(const PassReport&, const OptGraph&)>;

// Optimizes `graph`; a changed graph goes to out->graph (which points into `graph`'s bytes
// and into `out`).
OptimizeResult OptimizeForInference(const Graph& graph, const OptimizeOptions& options,
                                    RewrittenGraph* out, const AfterPass& after_pass = {});

// `graph` as MegEngine dumps a graph it loaded and did not optimize (Network.dump with
// optimize_for_inference=False): the same operators, with vars named, shaped and numbered
// as MegEngine has them (OptGraph::Emit), in out->graph.
const Graph& AsMegEngineLoadedIt(const Graph& graph, RewrittenGraph* out);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_FOR_INFERENCE_H_
