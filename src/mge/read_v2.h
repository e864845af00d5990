// Reads one FBS_V2 dump: a size-prefixed "mgv2" flatbuffer with the values inside.
#ifndef GRAPHPORT_MGE_READ_V2_H_
#define GRAPHPORT_MGE_READ_V2_H_

#include <string>

#include "mge/container.h"
#include "mge/mge_model.h"

namespace graphport::mge {

// `graph->flatbuffer` must already point at the (aligned) size-prefixed flatbuffer.
// Verifies it, then fills `graph`. Throws Error(kParseError).
void ReadV2Graph(const DumpSpan& span, const std::string& file, Graph* graph);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_READ_V2_H_
