// EnableNchwxx (research megengine_optimize.md §4.7), the pass of enable_nchw44 (pack 4, Arm
// NEON) and enable_nchw88 (pack 8, x86 AVX2): Float32 convolutions run on channel-packed
// tensors, NCHW -> NCHWc{p} with out[n][c/p][h][w][c%p] = in[n][c][h][w].
//
// MegEngine's two stages (tensor_reformat.cpp TensorReformatPass): an insert stage visits
// each operator and rewrites those of its table, putting a RelayoutPlaceholder wherever a var
// changes layout (the placeholder builds its relayout once while it is constructed, to tell its
// shape); a translate stage then replaces each placeholder by its relayout (reformat.h), made
// again on the placeholder's input as it stands. Each NCHW Convolution / ConvBias is classified
// by its weight (after PaddingChannel):
//   pure (dense, IC and OC multiples of p): weight KCRS -> KCRSc{p}k{p}, packed src;
//   hybrid (dense, the first conv of a network, MegEngine's is_nchw_nchwxx_optimized): weight
//     KCRS -> KRSCk{p}, NCHW src, packed output;
//   channel-wise (group, ICPG = OCPG = 1, G % p = 0): weight (G,1,1,R,S) -> (G/p,1,1,R,S,p);
//   group (ICPG and OCPG multiples of p): weight GKCRS -> GKCRSc{p}k{p};
//   anything else stays NCHW (TRANS_NONE), a packed input relaid back.
// Pooling, AdaptivePooling and Resize run packed on a packed input, Reduce over H or W reads
// it as it is; Elemwise, TypeCvt, ElemwiseMultiType, PowC and Concat run packed when some
// input is packed and every other one is packed, a 4-d tensor whose channel count p divides
// (relaid to packed) or a scalar; the other operators of MegEngine's table get their packed
// inputs relaid back to NCHW, each reader its own placeholder, and a graph output that changed
// shape is relaid back too. The weight relayouts fold into constants (ParamFuse).
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
