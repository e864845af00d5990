// Writes a graph as FBS_V2: one size-prefixed "mgv2" flatbuffer with the values inside,
// replaying GraphDumperOSSV2::dump's builder calls (research megengine_dump_details.md §3.3).
#ifndef GRAPHPORT_MGE_WRITE_V2_H_
#define GRAPHPORT_MGE_WRITE_V2_H_

#include "mge/dump/dump_plan.h"
#include "mge/write_common.h"

namespace graphport::mge {

// Throws Error(kUnsupported) naming an operator FBS_V2 cannot hold.
WrittenDump WriteV2(const DumpPlan& plan);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_WRITE_V2_H_
