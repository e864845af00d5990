// What an export does with each node of a graph that is still wire bytes (tf/wire_graph.h)
// when its options touch nodes, decided one node at a time so the graph is never held parsed:
// nodes a node pass does not keep are left out (exportScope's outside nodes); a renamed node
// (exportScope) is edited record by record; a node is rewritten through a scratch NodeDef only
// when a pass changes its attrs (stripDefaultAttrs removes one of its op's defaults, the scope
// a colocation list) or edits it otherwise than every node; every other node is copied, with
// the edits the node passes make to every node alike (clearDevices: without its device). On
// the way it learns what the rest of the export needs of the nodes: how many, their names,
// unbound inputs, attrs removed.
#ifndef GRAPHPORT_TF_META_GRAPH_WIRE_NODE_PLAN_H_
#define GRAPHPORT_TF_META_GRAPH_WIRE_NODE_PLAN_H_

#include <set>
#include <string>
#include <vector>

#include "tf/meta_graph/node_view.h"
#include "tf/wire_graph.h"

namespace graphport::tf {

struct WireNodeOptions {
  NodePasses passes;                 // meta_graph/node_view.h, in order
  bool list_unbound_inputs = false;  // the unbound_inputs collection is rebuilt
  bool want_names = false;           // saveDebugInfo reads the exported names
};

struct WireNodeFacts {
  size_t exported = 0;
  std::set<std::string> names;  // when want_names: the exported nodes' names, as loaded
  // When list_unbound_inputs: every "$unbound_inputs_..." input of the exported nodes, made by
  // this export or an earlier one, in node order.
  std::vector<std::string> unbound;
  int attrs_removed = 0;  // by the passes (NodeEdit::RemoveAttr), in the exported nodes
};

NodePlan PlanWireNodes(const WireGraph& wire, const WireNodeOptions& options, WireNodeFacts* facts);

// The ops the nodes `plan` exports use, following their calls into `library` (UsedOps):
// sorted by code point, each once. Only a node whose attrs may name a function is parsed.
std::vector<std::string> UsedWireOps(const WireGraph& wire, const NodePlan& plan,
                                     const tensorflow::FunctionDefLibrary& library);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_WIRE_NODE_PLAN_H_
