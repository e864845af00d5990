// Static inference of what a new or loaded operator's outputs are before anything runs
// (research megengine_optimize.md §3.5): the static shape where it can be told, the dtype of
// operators a pass makes, and MegEngine's CONST / MUTABLE status of value and shape, which
// decides what may be folded. A Host2DeviceCopy's shape is static (stored in the model) but
// MUTABLE, so nothing computed from an input is ever folded.
#ifndef GRAPHPORT_MGE_OPTIMIZE_SHAPE_INFER_H_
#define GRAPHPORT_MGE_OPTIMIZE_SHAPE_INFER_H_

#include "mge/optimize/opt_graph.h"

namespace graphport::mge::opt {

// Fills n->outputs[*].shape (kept when already known and nothing better is inferred),
// missing dtypes, and n->value_const / n->shape_const. Inputs must already be in `g`.
void InferStatic(const OptGraph& g, OptNode* n);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_SHAPE_INFER_H_
