// When an export writes the loaded graph's nodes from their own bytes (tf/wire_graph.h).
#ifndef GRAPHPORT_TF_META_GRAPH_WIRE_NODES_H_
#define GRAPHPORT_TF_META_GRAPH_WIRE_NODES_H_

#include <set>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tf/export.h"
#include "tf/tf_model.h"
#include "tf/wire_graph.h"

namespace graphport::tf {

// The model's wire nodes, when this export can write them node by node (tf/meta_graph/
// wire_node_plan.h): no graph_def is given in their place, and for text no node has fields to
// leave out (which only a parse lists). Else null: the graph is parsed. A library stays parsed
// with the graph's other fields; the plan follows the nodes' calls into it.
const WireGraph* WireNodesFor(const TfModel& model, const TfExportOptions& options);

// Inputs named "$unbound_inputs_..." (made by an earlier scoped export), in node order.
void AddUnboundInputs(const tensorflow::NodeDef& node, std::vector<std::string>* unbound);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_WIRE_NODES_H_
