// When an export writes the loaded graph's nodes as their own bytes (tf/wire_graph.h), and what
// it reads from the index instead of parsed nodes: names, ops, unbound inputs.
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

// The model's wire nodes, when this export can write them as bytes: no option needs them
// parsed (exportScope renames inside attrs, stripDefaultAttrs and clearExtraneousSavers read
// attrs, and a library's functions are called through attrs), and for text no node has fields
// to leave out (which only a parse lists). Else null: the graph is parsed.
const WireGraph* WireNodesFor(const TfModel& model, const TfExportOptions& options);

std::set<std::string> WireNodeNames(const WireGraph& wire);
// Sorted by code point, each once, as OpsUsedByGraph lists them.
std::vector<std::string> WireOps(const WireGraph& wire);

// Inputs named "$unbound_inputs_..." (made by an earlier scoped export), in node order.
void AddUnboundInputs(const tensorflow::NodeDef& node, std::vector<std::string>* unbound);
// The same over the wire nodes: only those the index saw name such an input are parsed.
void WireUnboundInputs(const WireGraph& wire, std::vector<std::string>* unbound);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_WIRE_NODES_H_
