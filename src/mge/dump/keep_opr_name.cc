// keep_opr_name: Operator.name is written only when kept (and the input stored it).
#include "mge/dump/dump_plan.h"

namespace graphport::mge {

void PlanOprNames(const Graph& graph, const DumpRequest& request, DumpPlan* plan) {
  plan->opr_names.assign(graph.oprs.size(), std::nullopt);
  if (!request.keep_opr_name) return;
  for (size_t i = 0; i < graph.oprs.size(); ++i) {
    plan->opr_names[i] = graph.oprs[i].name;
    if (!graph.oprs[i].name) ++plan->missing_opr_names;
  }
}

}  // namespace graphport::mge
