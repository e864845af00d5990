// ParamFuse (research megengine_optimize.md §2.3 P8/P17/P19): constant folding through the
// reference evaluator. Constants here are ImmutableTensor, SharedDeviceTensor and
// MultipleDeviceTensorHolder outputs and what is computed from them alone; a constant input
// of a non-constant operator, and a constant graph output, is evaluated and replaced by an
// ImmutableTensor (when it comes from ImmutableTensors only) or a SharedDeviceTensor, named
// `fuse(<shared operators, sorted>):<var name>@<var id>`. Where the evaluator lacks an
// operator, mode or dtype, that var is left as it is.
#ifndef GRAPHPORT_MGE_OPTIMIZE_PARAM_FUSE_PARAM_FUSE_H_
#define GRAPHPORT_MGE_OPTIMIZE_PARAM_FUSE_PARAM_FUSE_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport ParamFuse(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_PARAM_FUSE_PARAM_FUSE_H_
