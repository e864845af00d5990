// FoldingReduceMean (research megengine_optimize.md §4.5; one of the enable_fuse_grain
// passes, on by default): a mean written as a sum divided by a count,
//   TRUE_DIV(Reduce SUM(p, axis) [-> AxisAddRemove], TypeCvt(GetVarShape(p, axis), Float32))
// where p's operator has no other reader, becomes Reduce MEAN(p, axis) [-> the same
// AxisAddRemove].
#ifndef GRAPHPORT_MGE_OPTIMIZE_FOLDING_REDUCE_MEAN_FOLDING_REDUCE_MEAN_H_
#define GRAPHPORT_MGE_OPTIMIZE_FOLDING_REDUCE_MEAN_FOLDING_REDUCE_MEAN_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport FoldingReduceMean(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_FOLDING_REDUCE_MEAN_FOLDING_REDUCE_MEAN_H_
