// The relayouts EnableNchwxx and ShuffleShuffleRemove emit, as MegEngine's ReformatManager builds
// them for the NCHW44 / NCHW88 keys (its ReformatEmitter,
// global_layout_transform/reformat_emitter.cpp): a Reshape to the split shape, a Dimshuffle to the
// target order, and a Reshape to the merged shape where the target needs one. Each shape is
// computed from the input's: GetVarShape, one Subtensor per axis (IndexAt), that axis divided or
// multiplied by the pack size, constants for the fixed axes, a Concat. On a constant weight all of
// it folds into ImmutableTensors as it is made, but for the permuting Dimshuffle (the ParamFuse
// after the layout pass folds that); on a feature map it stays. The split and the order of each key
// are what MegEngine's analysis of the named shapes gives (NCHWc4 is N, C//4, H, W, C%4, and so
// on).
#ifndef GRAPHPORT_MGE_OPTIMIZE_RELAYOUT_REFORMAT_H_
#define GRAPHPORT_MGE_OPTIMIZE_RELAYOUT_REFORMAT_H_

#include <cstdint>

#include "mge/optimize/opr_maker.h"

namespace graphport::mge::opt {

enum class Reformat : uint8_t {
  kToPacked,           // feature NCHW -> NCHWc{p}
  kToNchw,             // feature NCHWc{p} -> NCHW
  kDenseWeight,        // KCRS -> KCRSc{p}k{p}
  kGroupWeight,        // GKCRS -> GKCRSc{p}k{p}
  kChannelWiseWeight,  // C11RS -> C11RSc{p}
  kHybridWeight,       // KCRS -> KRSCk{p}
  kPackedToNhwc,       // feature NCHWc{p} -> NHWC (ShuffleShuffleRemove)
};

// The relayout `key` of `x` with pack size `pack`, made through `m`.
VarRef EmitReformat(OprMaker* m, VarRef x, Reformat key, uint32_t pack);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_RELAYOUT_REFORMAT_H_
