// ParamMerge (research megengine_optimize.md §2.3 P20): every SharedDeviceTensor, in visiting
// order, becomes an output of one MultipleDeviceTensorHolder named `merged<N>`; its outputs
// and tensors take the merged vars' explicit names. Existing holders are kept as they are.
#ifndef GRAPHPORT_MGE_OPTIMIZE_PARAM_MERGE_PARAM_MERGE_H_
#define GRAPHPORT_MGE_OPTIMIZE_PARAM_MERGE_PARAM_MERGE_H_

#include "mge/optimize/pass.h"

namespace graphport::mge::opt {

PassReport ParamMerge(OptGraph* g);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_PARAM_MERGE_PARAM_MERGE_H_
