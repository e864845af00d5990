// keep_var_name: 0 = no var names; 1 = names of output vars; 2 = all vars. FBS v1 names an
// operator's outputs (all of them) when the level is 2, or 1 and one of them is a graph
// output; FBS_V2 writes a named middle tensor for every var at level 1 and 2 alike.
#include <set>

#include "mge/dump/dump_plan.h"

namespace graphport::mge {

void PlanVarNames(const Graph& graph, const DumpRequest& request, DumpPlan* plan) {
  const int level = request.keep_var_name;
  std::set<uint32_t> graph_outputs;
  for (const OutputVar& v : graph.outputs) graph_outputs.insert(v.compact_id);
  plan->var_names.resize(graph.vars.size());
  std::vector<bool> needed(graph.vars.size(), false);
  plan->write_output_names.assign(graph.oprs.size(), false);
  if (request.format == DumpFormat::kFbsV1) {
    for (size_t i = 0; i < graph.oprs.size(); ++i) {
      const Operator& op = graph.oprs[i];
      bool any_output = false;
      for (uint32_t id : op.outputs) any_output |= graph_outputs.count(id) != 0;
      bool write = !op.outputs.empty() && (level >= 2 || (level == 1 && any_output));
      plan->write_output_names[i] = write;
      if (write) {
        for (uint32_t id : op.outputs) needed[id] = true;
      }
    }
  } else {
    plan->write_middle_tensors = level >= 1;
    if (level >= 1) needed.assign(graph.vars.size(), true);
  }
  for (uint32_t id = 0; id < graph.vars.size(); ++id) {
    if (!needed[id]) continue;
    std::optional<std::string> name = graph.VarName(id);
    if (name) {
      plan->var_names[id] = *name;
    } else {
      // MegEngine names every var; the input did not store this one's name.
      plan->var_names[id] = "var" + std::to_string(id);
      ++plan->synthesized_var_names;
    }
  }
}

}  // namespace graphport::mge
