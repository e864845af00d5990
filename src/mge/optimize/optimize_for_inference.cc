#include "mge/optimize/optimize_for_inference.h"

#include <chrono>

#include "mge/optimize/arith_fuse/arith_fuse.h"
#include "mge/optimize/arith_mul_distribute/arith_mul_distribute.h"
#include "mge/optimize/combine_astype_and_reduce/combine_astype_and_reduce.h"
#include "mge/optimize/convert_batch_norm/convert_batch_norm.h"
#include "mge/optimize/convert_f32_to_f16/convert_f32_to_f16.h"
#include "mge/optimize/delay_broadcast/delay_broadcast.h"
#include "mge/optimize/enable_nchwxx/enable_nchwxx.h"
#include "mge/optimize/expand_fused_arith/expand_fused_arith.h"
#include "mge/optimize/final_arith_transform/final_arith_transform.h"
#include "mge/optimize/folding_global_pooling/folding_global_pooling.h"
#include "mge/optimize/folding_reduce_mean/folding_reduce_mean.h"
#include "mge/optimize/fuse_conv_bias_nonlin/fuse_conv_bias_nonlin.h"
#include "mge/optimize/fuse_conv_bias_z/fuse_conv_bias_z.h"
#include "mge/optimize/fuse_preprocess/fuse_preprocess.h"
#include "mge/optimize/normalize_arith_chain/normalize_arith_chain.h"
#include "mge/optimize/padding_channel/padding_channel.h"
#include "mge/optimize/param_fuse/param_fuse.h"
#include "mge/optimize/param_merge/param_merge.h"
#include "mge/optimize/param_redistribute/param_redistribute.h"
#include "mge/optimize/remove_non_computing/remove_non_computing.h"
#include "mge/optimize/remove_redundant_copy/remove_redundant_copy.h"
#include "mge/optimize/remove_redundant_typecvt/remove_redundant_typecvt.h"
#include "mge/optimize/remove_shape_hint/remove_shape_hint.h"
#include "mge/optimize/reorder_arith_chain/reorder_arith_chain.h"
#include "mge/optimize/shuffle_shuffle_remove/shuffle_shuffle_remove.h"

namespace graphport::mge::opt {

OptimizeResult OptimizeForInference(const Graph& graph, const OptimizeOptions& options,
                                    RewrittenGraph* out, const AfterPass& after_pass) {
  OptGraph g(graph, out);
  OptimizeResult result;
  auto run = [&](PassReport (*pass)(OptGraph*)) {
    const auto start = std::chrono::steady_clock::now();
    result.passes.push_back(pass(&g));
    result.passes.back().ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (after_pass) after_pass(result.passes.back(), g);
  };
  run(ConvertBatchNormToElemwise);
  run(RemoveNonComputingOpr);
  run(DelayBroadcast);
  run(ExpandFusedArith);
  run(NormalizeArithChain);
  run(ParamRedistribute);
  run(ParamFuse);  // #1
  run(ArithMulDistribute);
  run(ReorderArithChain);
  run(ArithFuse);
  run(ReorderArithChain);  // again: fused operators may have changed shapes
  run(FinalArithTransform);
  run(RemoveRedundantTypeCvt);
  run(RemoveRedundantCopy);
  run(CombineAstypeAndReduce);
  run(ParamFuse);  // #2
  // The option passes, in MegEngine's fixed order (the layout transforms other than NCHW44
  // and NCHW88 are refused before this: ReadOptimizeKwargs). Both float16 conversions run
  // when both are asked for.
  if (options.fuse_grain) {
    run(FoldingReduceMean);
    run(FoldingGlobalPooling);
  }
  if (options.fuse_preprocess) run(FusePreprocess);
  if (options.f16_io_comp) run(ConvertF32ToF16Ioc16);
  if (options.f16_io_f32_comp) run(ConvertF32ToF16Io16xc32);
  // The layout block: FuseConvBiasNonlin, PaddingChannel (weights only), the layout pass,
  // ShuffleShuffleRemove.
  if (options.layout == Layout::kNchw44) {
    run(FuseConvBiasNonlin);
    run(PaddingChannel44);
    run(EnableNchw44);
    run(ShuffleShuffleRemove);
  } else if (options.layout == Layout::kNchw88) {
    run(FuseConvBiasNonlin);
    run(PaddingChannel88);
    run(EnableNchw88);
    run(ShuffleShuffleRemove);
  }
  if (options.fuse_conv_bias_nonlinearity) run(FuseConvBiasNonlin);
  if (options.fuse_conv_bias_with_z) {
    run(FuseConvBiasNonlin);
    run(FuseConvBiasZ);
  }
  if (options.AnyOptionPass()) run(ParamFuse);  // #3, after the option passes
  run(ParamMerge);
  run(RemoveShapeHint);
  result.graph = &g.Emit();
  // What one pass does a later one may undo (ArithFuse fuses again what ExpandFusedArith
  // took apart, into the loaded operators), so the graph changed only if Emit() found it so.
  result.changed = !g.emitted_unchanged();
  return result;
}

const Graph& AsMegEngineLoadedIt(const Graph& graph, RewrittenGraph* out) {
  OptGraph g(graph, out);
  return g.Emit();
}

}  // namespace graphport::mge::opt
