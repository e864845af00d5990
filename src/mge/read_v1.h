// Reads one FBS v1 dump (MGBS/MGBC header, value blob, size-prefixed "mgb1" flatbuffer).
#ifndef GRAPHPORT_MGE_READ_V1_H_
#define GRAPHPORT_MGE_READ_V1_H_

#include <string>
#include <string_view>

#include "mge/container.h"
#include "mge/mge_model.h"

namespace graphport::mge {

// `bytes` is the whole input; `graph->flatbuffer` must already point at the dump's (aligned)
// size-prefixed flatbuffer. Verifies it, then fills `graph`. Throws Error(kParseError).
void ReadV1Graph(std::string_view bytes, const DumpSpan& span, const std::string& file,
                 Graph* graph);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_READ_V1_H_
