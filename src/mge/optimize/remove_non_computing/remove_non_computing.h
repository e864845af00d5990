// RemoveNonComputingOpr (research megengine_optimize.md §2.3 P3): Identity,
// MarkNoBroadcastElemwise and SetGrad compute nothing at inference; each is bypassed (its
// output replaced by its input). MegEngine's rewrite of a Split of a constant scalar is not
// done yet: such a Split is kept.
#ifndef GRAPHPORT_MGE_OPTIMIZE_REMOVE_NON_COMPUTING_REMOVE_NON_COMPUTING_H_
#define GRAPHPORT_MGE_OPTIMIZE_REMOVE_NON_COMPUTING_REMOVE_NON_COMPUTING_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport RemoveNonComputingOpr(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_REMOVE_NON_COMPUTING_REMOVE_NON_COMPUTING_H_
