// ShuffleShuffleRemovePass, run after EnableNchwxx by enable_nchw44 and enable_nchw88 (research
// megengine_optimize.md §4.7; MegEngine's tensor_reformat.cpp): it finds the Reshape +
// Dimshuffle pairs that relay NCHW <-> NCHWc4 (and NCHWc4 -> NHWC), each read once, and puts
// a RelayoutPlaceholder in their place; then every chain of placeholders and TypeCvts read once
// is made again as one relayout (none when its ends have the same layout: a relayout and its
// inverse cancel) and its TypeCvts. A pair the layout pass emitted comes out as it was (made
// again, and found in the graph); what changes is the ids MegEngine spends doing it. The
// NCHW4 <-> NCHW32 pairs and RelayoutFormat operators it also knows come from CUDA layouts,
// which graphport does not run.
#ifndef GRAPHPORT_MGE_OPTIMIZE_SHUFFLE_SHUFFLE_REMOVE_SHUFFLE_SHUFFLE_REMOVE_H_
#define GRAPHPORT_MGE_OPTIMIZE_SHUFFLE_SHUFFLE_REMOVE_SHUFFLE_SHUFFLE_REMOVE_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport ShuffleShuffleRemove(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_SHUFFLE_SHUFFLE_REMOVE_SHUFFLE_SHUFFLE_REMOVE_H_
