// The dtype of every var, as MegEngine's operators infer them (research
// megengine_dump_details.md §4.3), for strip info: the file stores dtypes only for tensors,
// config output dtypes and some FBS_V2 middle tensors.
#ifndef GRAPHPORT_MGE_DTYPE_INFER_H_
#define GRAPHPORT_MGE_DTYPE_INFER_H_

#include <optional>
#include <string_view>
#include <vector>

#include "mge/mge_model.h"

namespace graphport::mge {

// Per var id: the inferred DTypeEnum, or nullopt where the rules do not say.
std::vector<std::optional<int>> InferVarDTypes(const Graph& graph);

// Whether the operator has a trailing volatile `workspace` output (dtype Byte).
bool HasWorkspaceOutput(const Operator& op);
// The same for an operator class, by its key.
bool ClassHasWorkspaceOutput(std::string_view key);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DTYPE_INFER_H_
