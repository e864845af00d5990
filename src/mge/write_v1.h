// Writes a graph as FBS v1: MGBC header (or MGBS with compat "8.14"), the tensor values, the
// size-prefixed "mgb1" flatbuffer, replaying GraphDumperOSS::dump's builder calls so the
// bytes equal MegEngine's (research megengine_dump_details.md §3.2, verified byte for byte).
#ifndef GRAPHPORT_MGE_WRITE_V1_H_
#define GRAPHPORT_MGE_WRITE_V1_H_

#include "mge/dump/dump_plan.h"
#include "mge/write_common.h"

namespace graphport::mge {

// Throws Error(kUnsupported) naming an operator FBS v1 cannot hold.
WrittenDump WriteV1(const DumpPlan& plan);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_WRITE_V1_H_
