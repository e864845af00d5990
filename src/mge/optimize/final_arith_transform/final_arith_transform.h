// FinalArithTransform (research megengine_optimize.md §2.3 P13): turns the normal forms
// NormalizeArithChain leaves behind back into the cheaper operators: x + (-y) -> x - y,
// (-x) + (-y) -> -(x + y), x * pow(y, -1) -> x / y, pow(x, -1) * pow(y, -1) ->
// PowC(x * y, -1), pow(x, c) with a constant scalar c -> PowC(x, c), and pow(pow(x, a), c)
// -> pow(x, a * c) when a is not a constant (a singly read inner pow only).
#ifndef GRAPHPORT_MGE_OPTIMIZE_FINAL_ARITH_TRANSFORM_FINAL_ARITH_TRANSFORM_H_
#define GRAPHPORT_MGE_OPTIMIZE_FINAL_ARITH_TRANSFORM_FINAL_ARITH_TRANSFORM_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport FinalArithTransform(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_FINAL_ARITH_TRANSFORM_FINAL_ARITH_TRANSFORM_H_
