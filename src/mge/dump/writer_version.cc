// The version a dump names its writer by (Graph.mgb_version / Model.mge_version). MegEngine
// writes its own; graphport writes as MegEngine v1.13.4's Network.dump, whose dumps
// tests/fixtures/mge_reference/ holds, unless the graph is kept as loaded or a param of it is
// laid out as an older release lays it out (param tables are copied as their writer laid them
// out: naming v1.13.4 would make v1.13.4 read them with its own layout).
#include "mge/dump/dump_plan.h"
#include "mge/schema/param_history.h"
#include "mge/schema/schema_reflection.h"

namespace graphport::mge {
namespace {

bool ParamsLaidOutAsNetworkDumpVersion(const Graph& graph) {
  const reflection::Schema& schema = GraphV1Schema();
  for (const Operator& op : graph.oprs) {
    for (const Param& p : op.params) {
      const ParamLayout as_written = ParamLayoutAsWritten(schema, p.type, graph.version);
      const ParamLayout current = ParamLayoutAsWritten(schema, p.type, kNetworkDumpVersion);
      if (as_written.table != current.table || as_written.format_numbering != nullptr) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

void PlanWriterVersion(const Graph& graph, const DumpRequest& request, DumpPlan* plan) {
  const bool own = !request.as_loaded && ParamsLaidOutAsNetworkDumpVersion(graph);
  plan->version = own ? kNetworkDumpVersion : graph.version;
}

}  // namespace graphport::mge
