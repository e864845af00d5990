// enable_fuse_preprocess's passes, FuseNCHW4Int8Preprocess and FuseWarpPerspectiveDimshuffle
// (research megengine_optimize.md §4.4), as far as graphport can tell them: both start from
// an operator a float graph does not have (a TypeCvt to a quantized dtype, a
// WarpPerspective). A graph without one is left as it is, as MegEngine leaves it; a graph with
// one is refused (Error kUnsupported naming the operator), since the research does not give
// the patterns in enough detail to fuse them as MegEngine does.
#ifndef GRAPHPORT_MGE_OPTIMIZE_FUSE_PREPROCESS_FUSE_PREPROCESS_H_
#define GRAPHPORT_MGE_OPTIMIZE_FUSE_PREPROCESS_FUSE_PREPROCESS_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport FusePreprocess(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_FUSE_PREPROCESS_FUSE_PREPROCESS_H_
