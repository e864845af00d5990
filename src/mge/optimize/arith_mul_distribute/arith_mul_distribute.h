// ArithMulDistribute (research megengine_optimize.md §2.3 P9): a product of a sum by a
// smaller tensor, (a * b + d) * e with e broadcast over the sum, is distributed into the
// terms when every term has a factor that e broadcasts to and that is smaller than the
// whole: a * (b * e) + d * e, which multiplies fewer elements. Chains are the singly read
// ADD and MUL operators under the product, rebuilt in their original shape.
#ifndef GRAPHPORT_MGE_OPTIMIZE_ARITH_MUL_DISTRIBUTE_ARITH_MUL_DISTRIBUTE_H_
#define GRAPHPORT_MGE_OPTIMIZE_ARITH_MUL_DISTRIBUTE_ARITH_MUL_DISTRIBUTE_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport ArithMulDistribute(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_ARITH_MUL_DISTRIBUTE_ARITH_MUL_DISTRIBUTE_H_
