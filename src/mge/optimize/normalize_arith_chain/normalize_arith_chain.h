// NormalizeArithChain (research megengine_optimize.md §2.3 P6): rewrites each chain of
// additive operators (ADD, SUB, NEGATE, MUL or TRUE_DIV by a constant scalar) and each chain
// of multiplicative ones (MUL, TRUE_DIV, POW by a constant scalar, PowC) as a sum, or product,
// of distinct terms with float32 coefficients: x - y + z - (y - x) becomes
// z + y * (-2) + x * 2, x / y becomes x * pow(y, -1), PowC(x, e) becomes pow(x, e).
//
// A chain runs from an endpoint (a var read by another kind of operator, read twice, or a
// graph endpoint) down through links read once; its leaves are collected breadth first with
// their coefficients, equal leaves merged, and the sum rebuilt in the order the leaves were
// first met. A chain is rewritten only when that changes something MegEngine cares about: a
// SUB or TRUE_DIV, two coefficients other than 1, a repeated leaf, or a PowC. Integer
// products are left alone. FinalArithTransform turns what is left of the NEGATE and POW forms
// back into SUB, TRUE_DIV and PowC.
#ifndef GRAPHPORT_MGE_OPTIMIZE_NORMALIZE_ARITH_CHAIN_NORMALIZE_ARITH_CHAIN_H_
#define GRAPHPORT_MGE_OPTIMIZE_NORMALIZE_ARITH_CHAIN_NORMALIZE_ARITH_CHAIN_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport NormalizeArithChain(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_NORMALIZE_ARITH_CHAIN_NORMALIZE_ARITH_CHAIN_H_
