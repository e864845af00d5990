// RemoveRedundantCopy (research megengine_optimize.md §2.3 P15): Copy(Copy(x)) becomes x when
// the outer Copy goes back to x's comp node, or one Copy from x's comp node to the outer
// one's, when the two comp nodes share memory or are a CPU and a CUDA / Atlas device (the
// pairs MegEngine copies between directly). Comp nodes are read from the locators in the
// model: all CPU ones share host memory; "xpu" is taken as a CPU (what it resolves to on a
// machine without a GPU); GPUs share memory only with themselves.
#ifndef GRAPHPORT_MGE_OPTIMIZE_REMOVE_REDUNDANT_COPY_REMOVE_REDUNDANT_COPY_H_
#define GRAPHPORT_MGE_OPTIMIZE_REMOVE_REDUNDANT_COPY_REMOVE_REDUNDANT_COPY_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport RemoveRedundantCopy(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_REMOVE_REDUNDANT_COPY_REMOVE_REDUNDANT_COPY_H_
