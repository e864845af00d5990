// CombineAstypeAndReduce (research megengine_optimize.md §2.3 P16): a Reduce of a TypeCvt
// from Float16 to Float32 reads the Float16 value instead, with data_type FLOAT_O32xC32 (the
// kernel accumulates in float32 and writes float32, so the conversion is not needed).
#ifndef GRAPHPORT_MGE_OPTIMIZE_COMBINE_ASTYPE_AND_REDUCE_COMBINE_ASTYPE_AND_REDUCE_H_
#define GRAPHPORT_MGE_OPTIMIZE_COMBINE_ASTYPE_AND_REDUCE_COMBINE_ASTYPE_AND_REDUCE_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport CombineAstypeAndReduce(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_COMBINE_ASTYPE_AND_REDUCE_COMBINE_ASTYPE_AND_REDUCE_H_
