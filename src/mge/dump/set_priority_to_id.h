// Network.dump's set_priority_to_id: operators without a priority get their operator id.
#ifndef GRAPHPORT_MGE_DUMP_SET_PRIORITY_TO_ID_H_
#define GRAPHPORT_MGE_DUMP_SET_PRIORITY_TO_ID_H_

#include <cstdint>
#include <vector>

#include "mge/mge_model.h"

namespace graphport::mge {

// `ids`: MegEngine's id of each of graph->oprs (an optimized graph's, from OptGraph::Emit);
// nullptr for a graph as loaded, whose ids follow from its operators' order.
void SetPriorityToId(const std::vector<uint64_t>* ids, Graph* graph);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DUMP_SET_PRIORITY_TO_ID_H_
