#include "tf/meta_graph/strip_default_attrs.h"

#include <vector>

#include "tf/meta_graph/attr_value_equal.h"
#include "tf/meta_graph/stripped_op_list.h"

namespace graphport::tf {

void StripNodeDefaults(tensorflow::NodeDef* node, const std::set<std::string>& functions,
                       const OpRegistry& registry, StripDefaultAttrsResult* result) {
  if (functions.count(node->op())) return;
  OpRegistry::Found found = registry.Find(node->op());
  if (found.op == nullptr) {
    result->unknown_ops.insert(node->op());
    return;
  }
  std::vector<std::string> doomed;
  for (const auto& attr_def : found.op->attr()) {
    // A caller's or a file's op list may declare "_" attrs; TensorFlow's registry never does.
    if (!attr_def.has_default_value() || attr_def.name().compare(0, 1, "_") == 0) continue;
    auto it = node->attr().find(attr_def.name());
    if (it != node->attr().end() && AreAttrValuesEqual(it->second, attr_def.default_value())) {
      doomed.push_back(attr_def.name());
    }
  }
  for (const auto& name : doomed) node->mutable_attr()->erase(name);
  result->removed += static_cast<int>(doomed.size());
}

void StripDefaultAttrs(tensorflow::GraphDef* graph, const OpRegistry& registry,
                       StripDefaultAttrsResult* result) {
  std::set<std::string> functions = FunctionNames(*graph);
  for (auto& node : *graph->mutable_node()) StripNodeDefaults(&node, functions, registry, result);
  if (!graph->has_library()) return;  // mutable_library() would add an empty one to the output
  for (auto& function : *graph->mutable_library()->mutable_function()) {
    for (auto& node : *function.mutable_node_def())
      StripNodeDefaults(&node, functions, registry, result);
  }
}

}  // namespace graphport::tf
