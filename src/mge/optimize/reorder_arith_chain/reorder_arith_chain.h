// ReorderArithChain with IMMUTABLE_AND_PARAM constants (research megengine_optimize.md §2.3
// P10/P12): each chain of ADD, MUL, MAX or MIN is rebuilt so that constants meet first and
// small terms are combined before they are broadcast. Its leaves, ordered by var id, are
// grouped by (shape, const); each group is folded left; the const groups are merged where
// their shapes broadcast into one another, then all groups of equal shape, then those whose
// shapes broadcast into one another (into the smallest admissible one); the rest is folded
// in increasing element count. So (w5c0 + (w1v1 + w5v1 + w1v1^2) + w5c1) becomes
// (w1v1 + w1v1^2) + (w5v1 + (w5c0 + w5c1)), where the constant sum folds. A chain whose
// endpoint is const is left to ParamFuse; running the pass on its own output changes nothing.
//
// MegEngine groups the leaves in a hash map, whose order decides which group sums are made
// first; here the groups are taken in the order their first leaf comes (an order MegEngine's
// tests agree with, but not pinned down for chains of several shapes).
#ifndef GRAPHPORT_MGE_OPTIMIZE_REORDER_ARITH_CHAIN_REORDER_ARITH_CHAIN_H_
#define GRAPHPORT_MGE_OPTIMIZE_REORDER_ARITH_CHAIN_REORDER_ARITH_CHAIN_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport ReorderArithChain(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_REORDER_ARITH_CHAIN_REORDER_ARITH_CHAIN_H_
