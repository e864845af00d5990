// Network.dump's set_priority_to_id (research megengine_optimize.md §1.5), run on every
// dump after optimization: each operator whose priority is 0 takes its operator id. The
// priorities reach the file only with keep_opr_priority.
#include "mge/dump/set_priority_to_id.h"

namespace graphport::mge {

void SetPriorityToId(const std::vector<uint64_t>* ids, Graph* graph) {
  // A loaded graph's ids: one counter for operators and their outputs, in load order (as
  // OptGraph numbers them).
  uint64_t next = 0;
  for (size_t i = 0; i < graph->oprs.size(); ++i) {
    Operator& op = graph->oprs[i];
    const uint64_t id = ids != nullptr && i < ids->size() ? (*ids)[i] : next;
    next += 1 + op.outputs.size();
    if (op.priority == 0) op.priority = static_cast<int32_t>(id);
  }
}

}  // namespace graphport::mge
