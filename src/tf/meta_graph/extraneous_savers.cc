#include "tf/meta_graph/extraneous_savers.h"

#include <string_view>

#include "tf/meta_graph/parsed_node.h"
#include "tf/meta_graph/scope.h"

namespace graphport::tf {
namespace {

bool IsSaveOrRestoreOp(std::string_view op) {
  static const std::set<std::string_view> kOps = {
      "SaveV2",    "Save",    "SaveSlices",   "LegacySave",    "LegacySaveSlice",
      "RestoreV2", "Restore", "RestoreSlice", "LegacyRestore", "LegacyRestoreSlice"};
  return kOps.count(op) > 0;
}

// "a/b/c" -> "a/b"; "c" -> "".
std::string ScopeOf(std::string_view name) {
  size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? "" : std::string(name.substr(0, slash));
}

}  // namespace

std::set<std::string> FindExtraneousSaverNodes(const tensorflow::GraphDef& graph,
                                               const tensorflow::SaverDef* saver_def) {
  return FindExtraneousSaverNodes(
      [&](const NodeVisitor& visit) { ForEachParsedNode(graph, visit); }, saver_def);
}

std::set<std::string> FindExtraneousSaverNodes(const ForEachNode& for_each_node,
                                               const tensorflow::SaverDef* saver_def) {
  std::set<std::string> saver_op_names, scopes;
  for_each_node([&](const NodeView& node) {
    if (!IsSaveOrRestoreOp(node.op())) return;
    const std::string_view name = node.name();
    saver_op_names.emplace(name);
    scopes.insert(ScopeOf(name));
  });
  std::set<std::string> extraneous;
  for (const auto& scope : scopes) {
    // A scope that is itself the name of a saver op is not a saver scope (TensorFlow's rule).
    if (!saver_op_names.count(scope)) extraneous.insert(scope + "/");
  }
  if (saver_def != nullptr) {
    extraneous.erase(ScopeOf(InputNodeName(saver_def->save_tensor_name())) + "/");
    extraneous.erase(ScopeOf(InputNodeName(saver_def->restore_op_name())) + "/");
  }
  std::set<std::string> excluded;
  if (extraneous.empty()) return excluded;
  for_each_node([&](const NodeView& node) {
    const std::string_view name = node.name();
    for (const auto& scope : extraneous) {
      // A saver at the top level has scope "/", which no node name starts with.
      if (name.substr(0, scope.size()) == scope) {
        excluded.emplace(name);
        break;
      }
    }
  });
  return excluded;
}

}  // namespace graphport::tf
