#include "tfjs/preflight.h"

#include <set>

#include "tfjs/tfjs_ops.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;

constexpr size_t kNodesListed = 5;

// What fixes an op that TF.js cannot run, when graphport knows.
std::string Hint(const std::string& op) {
  static const std::set<std::string> kFrozenAway = {
      "VarHandleOp",      "VariableV2",         "Variable", "ReadVariableOp",
      "AssignVariableOp", "VarIsInitializedOp", "Assign",   "StatefulPartitionedCall",
      "PartitionedCall",  "RestoreV2",          "SaveV2",   "MergeV2Checkpoints",
      "ResourceGather",   "ResourceGatherNd"};
  if (kFrozenAway.count(op) != 0) return "freeze fixes this";
  if (op == "Assert" || op == "CheckNumerics") return "a debug op: TF.js runs it only stripped";
  if (op.rfind("Ragged", 0) == 0) return "the converter accepts it but the runtime has no kernel";
  if (op.rfind("SimpleML", 0) == 0) return "needs @tensorflow/tfjs-tfdf";
  return "";
}

void Note(std::map<std::string, UnsupportedOp>* found, const std::string& op,
          const std::string& node) {
  UnsupportedOp& entry = (*found)[op];
  ++entry.count;
  if (entry.nodes.size() < kNodesListed) entry.nodes.push_back(node);
}

}  // namespace

bool TfjsRuntimeRuns(const std::string& op) {
  if (op == "Assert" || op == "CheckNumerics") return false;
  if (op.rfind("Ragged", 0) == 0 || op.rfind("SimpleML", 0) == 0) return false;
  return IsTfjsOp(op);
}

std::map<std::string, UnsupportedOp> FindUnsupportedOps(GraphNodes* graph) {
  std::map<std::string, UnsupportedOp> found;
  AddUnsupportedOps(graph, "", &found);
  return found;
}

void AddUnsupportedOps(GraphNodes* graph, const std::string& node_prefix,
                       std::map<std::string, UnsupportedOp>* found) {
  std::string op;
  for (size_t i = 0; i < graph->size(); ++i) {
    op.assign(graph->op(i));
    if (!TfjsRuntimeRuns(op)) Note(found, op, node_prefix + std::string(graph->name(i)));
  }
  for (const auto& function : graph->library().function()) {
    for (const auto& node : function.node_def()) {
      if (!TfjsRuntimeRuns(node.op())) {
        Note(found, node.op(), node_prefix + function.signature().name() + "/" + node.name());
      }
    }
  }
}

json UnsupportedOpsJson(const std::map<std::string, UnsupportedOp>& ops) {
  json list = json::array();
  for (const auto& [op, entry] : ops) {
    std::string hint = Hint(op);
    list.push_back({{"op", op},
                    {"count", entry.count},
                    {"nodes", entry.nodes},
                    {"hint", hint.empty() ? json(nullptr) : json(hint)}});
  }
  return list;
}

std::string UnsupportedOpsMessage(const std::map<std::string, UnsupportedOp>& ops) {
  std::string text;
  for (const auto& [op, entry] : ops) {
    text += text.empty() ? "" : "; ";
    text += op + " x" + std::to_string(entry.count) + " (";
    for (size_t k = 0; k < entry.nodes.size(); ++k) text += (k ? ", " : "") + entry.nodes[k];
    if (entry.count > entry.nodes.size()) text += ", ...";
    text += ")";
    std::string hint = Hint(op);
    if (!hint.empty()) text += ": " + hint;
  }
  return "the TF.js runtime cannot run this model's ops " + text +
         ". Export with allowUnsupportedOps to write it anyway (a model for a runtime with "
         "custom ops, tf.registerOp)";
}

}  // namespace graphport::tfjs
