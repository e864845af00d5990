// ParamRedistribute (research megengine_optimize.md §2.3 P7): moves constants towards the
// parameters they can be folded into, so that ParamFuse then computes them once. For each
// operator with some but not all inputs const, and again for each operator it produces:
//  1. reassociate f(g(a, b), c), b and c const, g read once: (a + b) + c -> a + (b + c) (same
//     mode ADD, MUL, MAX or MIN, no new broadcast); conv(x * k, w) -> conv(x, k * w) and
//     conv(x, w) * k -> conv(x, k' * w) for a per-channel k; matmul(x * k, w) and
//     matmul(x, w) * k likewise for a row or column vector k;
//  2. distribute over a constant addend: conv(x + b, w) -> conv(x, w) + b' (no padding) and
//     matmul(x + b, w) -> matmul(x, w) + matmul(b, w);
//  3. a product (or quotient) by a constant over a sum read once: each term times the
//     constant, reassociated as in 1 (one term may fail), summed again.
// With BatchNorm folded by ConvertBatchNormToElemwise this puts the scale into the weights
// and the rest into one bias.
#ifndef GRAPHPORT_MGE_OPTIMIZE_PARAM_REDISTRIBUTE_PARAM_REDISTRIBUTE_H_
#define GRAPHPORT_MGE_OPTIMIZE_PARAM_REDISTRIBUTE_PARAM_REDISTRIBUTE_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport ParamRedistribute(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_PARAM_REDISTRIBUTE_PARAM_REDISTRIBUTE_H_
