#include "tf/meta_graph/strip_default_attrs.h"

#include <utility>

#include "tf/meta_graph/parsed_node.h"

namespace graphport::tf {

StripDefaultAttrs::StripDefaultAttrs(OpRegistry registry,
                                     std::set<std::string, std::less<>> functions)
    : registry_(std::move(registry)), functions_(std::move(functions)) {}

const std::vector<const tensorflow::OpDef::AttrDef*>& StripDefaultAttrs::DefaultedAttrs(
    std::string_view op) const {
  auto it = defaulted_.find(op);
  if (it != defaulted_.end()) return it->second;
  std::vector<const tensorflow::OpDef::AttrDef*>& attrs = defaulted_[std::string(op)];
  if (functions_.count(op) > 0) return attrs;  // a function call: not an op, nothing unknown
  OpRegistry::Found found = registry_.Find(std::string(op));
  if (found.op == nullptr) {
    unknown_ops_.emplace(op);
    return attrs;
  }
  for (const auto& attr : found.op->attr()) {
    // A caller's or a file's op list may declare "_" attrs; TensorFlow's registry never does.
    if (attr.has_default_value() && attr.name().compare(0, 1, "_") != 0) attrs.push_back(&attr);
  }
  return attrs;
}

void StripDefaultAttrs::Edit(const NodeView& node, NodeEdit* edit) const {
  for (const tensorflow::OpDef::AttrDef* attr : DefaultedAttrs(node.op())) {
    if (node.AttrEquals(attr->name(), attr->default_value())) edit->RemoveAttr(attr->name());
  }
}

void StripParsedGraph(const StripDefaultAttrs& pass, tensorflow::GraphDef* graph, int* removed) {
  auto strip = [&](tensorflow::NodeDef* node) {
    ParsedNodeEdit edit(node, removed);
    pass.Edit(ParsedNodeView(*node), &edit);
  };
  for (auto& node : *graph->mutable_node()) strip(&node);
  if (!graph->has_library()) return;  // mutable_library() would add an empty one to the output
  for (auto& function : *graph->mutable_library()->mutable_function()) {
    for (auto& node : *function.mutable_node_def()) strip(&node);
  }
}

std::set<std::string, std::less<>> LibraryFunctionNames(const tensorflow::GraphDef& graph) {
  std::set<std::string, std::less<>> names;
  for (const auto& f : graph.library().function()) names.insert(f.signature().name());
  return names;
}

void StripGraphDefaultAttrs(tensorflow::GraphDef* graph, const OpRegistry& registry,
                            StripDefaultAttrsResult* result) {
  StripDefaultAttrs pass(registry, LibraryFunctionNames(*graph));
  StripParsedGraph(pass, graph, &result->removed);
  result->unknown_ops.insert(pass.unknown_ops().begin(), pass.unknown_ops().end());
}

}  // namespace graphport::tf
