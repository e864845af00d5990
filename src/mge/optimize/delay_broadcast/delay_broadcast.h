// DelayBroadcast (research megengine_optimize.md §2.3 P4): moves Broadcasts after the
// element-wise work above them, so that work runs on the smaller tensor: relu(bcast(x, s))
// becomes bcast(relu(x), s).
//
// A chain is a run of operators each reading the one below through its "chain input":
// Broadcast (input 0), or a TypeCvt or Elemwise whose inputs but one are scalars of constant
// shape (that one). Every link below the top has one reader. From the top of a chain that
// holds Broadcasts, the non-Broadcast operators down to the deepest Broadcast are copied onto
// the value under it, and the Broadcasts are made again after them, deepest first;
// Broadcasts at the very top stay on top. The top's var passes its name to the new one.
#ifndef GRAPHPORT_MGE_OPTIMIZE_DELAY_BROADCAST_DELAY_BROADCAST_H_
#define GRAPHPORT_MGE_OPTIMIZE_DELAY_BROADCAST_DELAY_BROADCAST_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport DelayBroadcast(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_DELAY_BROADCAST_DELAY_BROADCAST_H_
