// ArithFuse (research megengine_optimize.md §2.3 P11): the fused Elemwise modes back from
// sums. In each ADD chain the products read only by the chain are grouped by the shapes of
// their two operands (the one with fewer elements first): groups of equal shapes first, then
// the others from the smallest broadcast shape up; within a group two products make a
// FUSE_MUL_ADD4, a lone one a FUSE_MUL_ADD3 with a bias term of its smaller (else larger)
// operand's shape, or stays a MUL. Every result becomes a bias term, and the bias terms are
// summed group by group. Separately RELU, SIGMOID, TANH and H_SWISH of an ADD read only by
// them become FUSE_ADD_RELU and its kin.
//
// MegEngine keeps the groups in hash maps; here they are taken in the order their first term
// comes, which MegEngine's own test (a·b + c·d + e·f + g + h) agrees with.
#ifndef GRAPHPORT_MGE_OPTIMIZE_ARITH_FUSE_ARITH_FUSE_H_
#define GRAPHPORT_MGE_OPTIMIZE_ARITH_FUSE_ARITH_FUSE_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport ArithFuse(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_ARITH_FUSE_ARITH_FUSE_H_
