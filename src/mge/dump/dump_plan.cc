#include "mge/dump/dump_plan.h"

namespace graphport::mge {

DumpPlan MakeDumpPlan(const Graph& graph, const DumpRequest& request) {
  DumpPlan plan;
  plan.graph = &graph;
  plan.format = request.format;
  plan.magic = request.compat_814 ? V1Magic::kMgbs : V1Magic::kMgbc;
  PlanVarNames(graph, request, &plan);
  PlanOprNames(graph, request, &plan);
  PlanParamNames(graph, request, &plan);
  PlanOprPriorities(graph, request, &plan);
  PlanMetadata(graph, request, &plan);
  PlanWriterVersion(graph, request, &plan);
  return plan;
}

}  // namespace graphport::mge
