// RemoveShapeHint (research megengine_optimize.md §2.3 P22): a ShapeHint only informs shape
// inference; its output is replaced by its input.
#ifndef GRAPHPORT_MGE_OPTIMIZE_REMOVE_SHAPE_HINT_REMOVE_SHAPE_HINT_H_
#define GRAPHPORT_MGE_OPTIMIZE_REMOVE_SHAPE_HINT_REMOVE_SHAPE_HINT_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport RemoveShapeHint(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_REMOVE_SHAPE_HINT_REMOVE_SHAPE_HINT_H_
