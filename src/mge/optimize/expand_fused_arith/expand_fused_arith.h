// ExpandFusedArith (research megengine_optimize.md §2.3 P5): the fused Elemwise modes are
// taken apart so that the arithmetic passes after it see plain ADD and MUL chains:
// FUSE_MUL_ADD3(a, b, c) -> a * b + c, FUSE_MUL_ADD4(a, b, c, d) -> a * b + c * d and
// FUSE_ADD_{RELU,SIGMOID,TANH,H_SWISH}(a, b) -> mode(a + b). ArithFuse fuses them again
// later in the pipeline, and gives back what an optimized graph held (deduplicated into the
// loaded operators); the round trip spends the ids MegEngine's does, which show in what later
// passes make.
#ifndef GRAPHPORT_MGE_OPTIMIZE_EXPAND_FUSED_ARITH_EXPAND_FUSED_ARITH_H_
#define GRAPHPORT_MGE_OPTIMIZE_EXPAND_FUSED_ARITH_EXPAND_FUSED_ARITH_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport ExpandFusedArith(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_EXPAND_FUSED_ARITH_EXPAND_FUSED_ARITH_H_
