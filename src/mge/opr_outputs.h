// How many numbered (non-volatile) outputs an operator has. FBS_V2 lists them; FBS v1 leaves
// them implicit in the operator's semantics, so a v1 reader must know them to number vars.
#ifndef GRAPHPORT_MGE_OPR_OUTPUTS_H_
#define GRAPHPORT_MGE_OPR_OUTPUTS_H_

#include <cstdint>

#include "mge/mge_model.h"

namespace graphport::mge {

// The number of var ids MegEngine's loader gives the operator's outputs in an FBS v1 file.
// Uses output_name when the file stores it (one entry per numbered output), else the
// operator's class and params. False for an operator whose count we cannot know.
bool V1NumberedOutputs(const Operator& op, uint32_t* count);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_OPR_OUTPUTS_H_
