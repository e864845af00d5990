// Pre-flight of an export: every op the written model would hold, function bodies included,
// checked against what its target runs. For TF.js, the ops the runtime (4.22) executes: it
// loads a model naming an op it lacks and fails only when it runs it ("Unknown op"), so an
// export that would write such a model says so first. Stricter than tfjs-converter's own
// check: the Ragged ops it accepts have no executor in the runtime, the SimpleML ops need
// @tensorflow/tfjs-tfdf, and Assert/CheckNumerics run only once stripped. For TensorFlow, the
// ops of its registry (tf/registry_ops.h): TensorFlow refuses to import a graph naming another.
#ifndef GRAPHPORT_TFJS_PREFLIGHT_H_
#define GRAPHPORT_TFJS_PREFLIGHT_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tf/meta_graph/graph_nodes.h"

namespace graphport::tfjs {

// The runtime a written model is meant for.
enum class OpTarget { kTfjs, kTensorflow };

// "TF.js 4.22", "TensorFlow's op registry": what the report says the ops run in.
std::string OpTargetTitle(OpTarget target);

// True when the TF.js runtime executes `op` in a graph model.
bool TfjsRuntimeRuns(const std::string& op);

// True when `target` runs `op`.
bool TargetRuns(OpTarget target, const std::string& op);

struct UnsupportedOp {
  uint64_t count = 0;
  std::vector<std::string> nodes;  // the first few, as "node" or "function/node"
};

struct OpCheck {
  std::map<std::string, UnsupportedOp> unsupported;  // by op
  uint64_t ops = 0;                // distinct ops checked, function bodies included
  uint64_t nodes = 0;              // nodes checked, function bodies included
  std::set<std::string> seen_ops;  // what `ops` counts, over every graph added
};

// The ops of `graph` and of its library's function bodies, checked against `target`, which
// also runs `also_runs` (for TensorFlow: the ops of the model's stripped_op_list, which the
// TensorFlow that wrote it registered, and of the opRegistry option).
OpCheck CheckOps(tf::GraphNodes* graph, OpTarget target,
                 const std::set<std::string>& also_runs = {});

// The ops of `graph` and of its library's function bodies that TF.js cannot run, by op.
std::map<std::string, UnsupportedOp> FindUnsupportedOps(tf::GraphNodes* graph);
// CheckOps of one more graph added to *check, each node's name after `node_prefix`
// ("modelInitializer/": the initializer graph, which TF.js runs before the model).
void AddOpCheck(tf::GraphNodes* graph, OpTarget target, const std::set<std::string>& also_runs,
                const std::string& node_prefix, OpCheck* check);

// What fixes `op` for `target`, when graphport knows ("freeze fixes this"); else "".
std::string UnsupportedOpHint(OpTarget target, const std::string& op);

// [{op, count, nodes, hint}], for info.unsupportedOps and the page.
nlohmann::json UnsupportedOpsJson(const std::map<std::string, UnsupportedOp>& ops,
                                  OpTarget target = OpTarget::kTfjs);

// "VarHandleOp x4 (a, b, c, ...): freeze fixes this; ..." : each op, its count, its first
// nodes and what fixes it, when known.
std::string UnsupportedOpsList(const std::map<std::string, UnsupportedOp>& ops, OpTarget target);

// The error message of an export that refuses them: the list and how to write it anyway.
std::string UnsupportedOpsMessage(const std::map<std::string, UnsupportedOp>& ops,
                                  OpTarget target = OpTarget::kTfjs);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_PREFLIGHT_H_
