// keep_opr_priority: Operator.priority is written only when kept; 0 is never stored.
#include "mge/dump/dump_plan.h"

namespace graphport::mge {

void PlanOprPriorities(const Graph& graph, const DumpRequest& request, DumpPlan* plan) {
  plan->priorities.assign(graph.oprs.size(), 0);
  if (!request.keep_opr_priority) return;
  for (size_t i = 0; i < graph.oprs.size(); ++i) plan->priorities[i] = graph.oprs[i].priority;
}

}  // namespace graphport::mge
