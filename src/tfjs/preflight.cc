#include "tfjs/preflight.h"

#include <set>

#include "tf/registry_ops.h"
#include "tfjs/tfjs_ops.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;

constexpr size_t kNodesListed = 5;

std::string TfjsHint(const std::string& op) {
  static const std::set<std::string> kFrozenAway = {
      "VarHandleOp", "VariableV2", "Variable", "ReadVariableOp", "AssignVariableOp",
      "VarIsInitializedOp", "Assign", "StatefulPartitionedCall", "PartitionedCall", "RestoreV2",
      "SaveV2", "MergeV2Checkpoints", "ResourceGather", "ResourceGatherNd",
      // A table filled from a text file: the freeze reads the file and fills it from Consts.
      "InitializeTableFromTextFile", "InitializeTableFromTextFileV2"};
  if (kFrozenAway.count(op) != 0) return "freeze fixes this";
  if (op == "Assert" || op == "CheckNumerics") return "a debug op: TF.js runs it only stripped";
  if (op.rfind("Ragged", 0) == 0) return "the converter accepts it but the runtime has no kernel";
  if (op.rfind("SimpleML", 0) == 0) return "needs @tensorflow/tfjs-tfdf";
  return "";
}

// The ops unfuse_ops.h rewrites into TensorFlow's own.
std::string TensorflowHint(const std::string& op) {
  static const std::set<std::string> kUnfused = {
      "_FusedConv2D", "_FusedMatMul", "FusedDepthwiseConv2dNative", "Prelu", "DepthwiseConv2d"};
  if (kUnfused.count(op) != 0) return "unfuseOps fixes this";
  return "";
}

void Note(std::map<std::string, UnsupportedOp>* found, const std::string& op,
          const std::string& node) {
  UnsupportedOp& entry = (*found)[op];
  ++entry.count;
  if (entry.nodes.size() < kNodesListed) entry.nodes.push_back(node);
}

}  // namespace

std::string OpTargetTitle(OpTarget target) {
  return target == OpTarget::kTfjs ? "TF.js 4.22" : "TensorFlow's op registry";
}

bool TfjsRuntimeRuns(const std::string& op) {
  if (op == "Assert" || op == "CheckNumerics") return false;
  if (op.rfind("Ragged", 0) == 0 || op.rfind("SimpleML", 0) == 0) return false;
  return IsTfjsOp(op);
}

bool TargetRuns(OpTarget target, const std::string& op) {
  return target == OpTarget::kTfjs ? TfjsRuntimeRuns(op) : tf::InTensorflowRegistry(op);
}

void AddOpCheck(tf::GraphNodes* graph, OpTarget target, const std::set<std::string>& also_runs,
                const std::string& node_prefix, OpCheck* check) {
  // TensorFlow runs a node that calls a library function by its name; TF.js does not (a
  // freeze inlines such calls).
  std::set<std::string> functions;
  if (target == OpTarget::kTensorflow) {
    for (const auto& f : graph->library().function()) functions.insert(f.signature().name());
  }
  std::string op;
  auto visit = [&](const std::string& node) {
    ++check->nodes;
    check->seen_ops.insert(op);
    if (!TargetRuns(target, op) && functions.count(op) == 0 && also_runs.count(op) == 0) {
      Note(&check->unsupported, op, node);
    }
  };
  for (size_t i = 0; i < graph->size(); ++i) {
    op.assign(graph->op(i));
    visit(node_prefix + std::string(graph->name(i)));
  }
  for (const auto& function : graph->library().function()) {
    for (const auto& node : function.node_def()) {
      op = node.op();
      visit(node_prefix + function.signature().name() + "/" + node.name());
    }
  }
  check->ops = check->seen_ops.size();
}

OpCheck CheckOps(tf::GraphNodes* graph, OpTarget target, const std::set<std::string>& also_runs) {
  OpCheck check;
  AddOpCheck(graph, target, also_runs, "", &check);
  return check;
}

std::map<std::string, UnsupportedOp> FindUnsupportedOps(tf::GraphNodes* graph) {
  return CheckOps(graph, OpTarget::kTfjs).unsupported;
}

std::string UnsupportedOpHint(OpTarget target, const std::string& op) {
  return target == OpTarget::kTfjs ? TfjsHint(op) : TensorflowHint(op);
}

json UnsupportedOpsJson(const std::map<std::string, UnsupportedOp>& ops, OpTarget target) {
  json list = json::array();
  for (const auto& [op, entry] : ops) {
    std::string hint = UnsupportedOpHint(target, op);
    list.push_back({{"op", op},
                    {"count", entry.count},
                    {"nodes", entry.nodes},
                    {"hint", hint.empty() ? json(nullptr) : json(hint)}});
  }
  return list;
}

std::string UnsupportedOpsList(const std::map<std::string, UnsupportedOp>& ops, OpTarget target) {
  std::string text;
  for (const auto& [op, entry] : ops) {
    text += text.empty() ? "" : "; ";
    text += op + " x" + std::to_string(entry.count) + " (";
    for (size_t k = 0; k < entry.nodes.size(); ++k) text += (k ? ", " : "") + entry.nodes[k];
    if (entry.count > entry.nodes.size()) text += ", ...";
    text += ")";
    std::string hint = UnsupportedOpHint(target, op);
    if (!hint.empty()) text += ": " + hint;
  }
  return text;
}

std::string UnsupportedOpsMessage(const std::map<std::string, UnsupportedOp>& ops,
                                  OpTarget target) {
  if (target == OpTarget::kTensorflow) {
    return "TensorFlow's op registry lacks this graph's ops " + UnsupportedOpsList(ops, target) +
           ", so TensorFlow cannot import it. Export with allowUnsupportedOps to write it "
           "anyway (a TensorFlow with these ops registered as custom ops)";
  }
  return "the TF.js runtime cannot run this model's ops " + UnsupportedOpsList(ops, target) +
         ". Export with allowUnsupportedOps to write it anyway (a model for a runtime with "
         "custom ops, tf.registerOp)";
}

}  // namespace graphport::tfjs
