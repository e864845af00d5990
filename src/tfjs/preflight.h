// Pre-flight of a TF.js export: every op the written model would hold, function bodies
// included, checked against what the TF.js runtime (4.22) executes. The runtime loads a model
// naming an op it lacks and fails only when it runs it ("Unknown op"), so an export that would
// write such a model says so first. Stricter than tfjs-converter's own check: the Ragged ops it
// accepts have no executor in the runtime, the SimpleML ops need @tensorflow/tfjs-tfdf, and
// Assert/CheckNumerics run only once stripped.
#ifndef GRAPHPORT_TFJS_PREFLIGHT_H_
#define GRAPHPORT_TFJS_PREFLIGHT_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tfjs/graph_nodes.h"

namespace graphport::tfjs {

// True when the TF.js runtime executes `op` in a graph model.
bool TfjsRuntimeRuns(const std::string& op);

struct UnsupportedOp {
  uint64_t count = 0;
  std::vector<std::string> nodes;  // the first few, as "node" or "function/node"
};

// The ops of `graph` and of its library's function bodies that TF.js cannot run, by op.
std::map<std::string, UnsupportedOp> FindUnsupportedOps(GraphNodes* graph);
// The same, added to *found, each node's name after `node_prefix` ("modelInitializer/": the
// initializer graph, which TF.js runs before the model).
void AddUnsupportedOps(GraphNodes* graph, const std::string& node_prefix,
                       std::map<std::string, UnsupportedOp>* found);

// [{op, count, nodes, hint}], for info.unsupportedOps and the page.
nlohmann::json UnsupportedOpsJson(const std::map<std::string, UnsupportedOp>& ops);

// "TF.js cannot run ... : VarHandleOp x4 (a, b, c, ...), ..." with what fixes each, when known.
std::string UnsupportedOpsMessage(const std::map<std::string, UnsupportedOp>& ops);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_PREFLIGHT_H_
