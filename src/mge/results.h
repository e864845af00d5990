// What the MegEngine family's inspect() and export() give, described once
// (core/result_schema.h): the summary (the common header and `megengine`) and the dump info.
#ifndef GRAPHPORT_MGE_RESULTS_H_
#define GRAPHPORT_MGE_RESULTS_H_

#include "core/result_schema.h"

namespace graphport::mge {

const ResultSchema& MgeResultSchema();

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_RESULTS_H_
