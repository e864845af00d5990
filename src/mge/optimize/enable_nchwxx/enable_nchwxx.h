// EnableNchwxx (research megengine_optimize.md §4.7), the pass of enable_nchw44 (pack 4, Arm
// NEON) and enable_nchw88 (pack 8, x86 AVX2): Float32 convolutions run on channel-packed
// tensors, NCHW -> NCHWc{p} with out[n][c/p][h][w][c%p] = in[n][c][h][w].
//
// Each NCHW Convolution / ConvBias is classified by its weight:
//   pure (dense, IC and OC multiples of p): weight KCRS -> KCRSc{p}k{p}, packed src;
//   hybrid (dense, the first conv of a network, MegEngine's is_nchw_nchwxx_optimized): weight
//     KCRS -> KRSCk{p}, NCHW src, packed output;
//   channel-wise (group, ICPG = OCPG = 1, G % p = 0): weight (G,1,1,R,S) -> (G/p,1,1,R,S,p);
//   group (ICPG and OCPG multiples of p): weight GKCRS -> GKCRSc{p}k{p};
//   anything else stays NCHW (TRANS_NONE; graphport does not run PaddingChannel).
// The weight relayouts are Reshape + Dimshuffle chains on constant shapes, which the
// ParamFuse after the option passes folds into one ImmutableTensor; feature relayouts are
// Reshape + Dimshuffle built on GetVarShape of the feature, at the edges: before the first
// packed operator and wherever a packed var reaches an operator that runs in NCHW or a graph
// output. Pooling and AdaptivePooling run packed on a packed input, Reduce over H or W reads
// it as it is; Elemwise, TypeCvt, PowC and Concat along the channels run packed when each
// input is packed, a 4-d tensor whose channel count p divides (relaid to packed) or, but for
// Concat, a scalar; every other operator gets its packed inputs relaid back to NCHW. A relayout
// back and forth of the same var is not emitted (what ShuffleShuffleRemove cancels).
//
// MegEngine requires NCHW convolutions: a model converted before (a packed format, or a
// ConvBias with a fourth input) is refused as UNSUPPORTED, as MegEngine throws.
#ifndef GRAPHPORT_MGE_OPTIMIZE_ENABLE_NCHWXX_ENABLE_NCHWXX_H_
#define GRAPHPORT_MGE_OPTIMIZE_ENABLE_NCHWXX_ENABLE_NCHWXX_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

// EnableNchwxxPass with pack size 4 (enable_nchw44).
PassReport EnableNchw44(OptGraph* g);
// EnableNchwxxPass with pack size 8 (enable_nchw88).
PassReport EnableNchw88(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_ENABLE_NCHWXX_ENABLE_NCHWXX_H_
