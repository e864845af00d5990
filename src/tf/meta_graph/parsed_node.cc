#include "tf/meta_graph/parsed_node.h"

#include <string>

#include "tf/meta_graph/attr_value_equal.h"

namespace graphport::tf {

bool ParsedAttrEquals(const tensorflow::NodeDef& node, std::string_view key,
                      const tensorflow::AttrValue& value) {
  auto it = node.attr().find(std::string(key));
  return it != node.attr().end() && AreAttrValuesEqual(it->second, value);
}

void ParsedNodeEdit::RemoveAttr(std::string_view key) {
  if (node_->mutable_attr()->erase(std::string(key)) > 0 && attrs_removed_ != nullptr) {
    ++*attrs_removed_;
  }
}

void EditParsedNode(const NodePasses& passes, tensorflow::NodeDef* node, int* attrs_removed) {
  ParsedNodeView view(*node);
  ParsedNodeEdit edit(node, attrs_removed);
  for (const auto& pass : passes) pass->Edit(view, &edit);
}

void ForEachParsedNode(const tensorflow::GraphDef& graph, const NodeVisitor& visit) {
  for (const auto& node : graph.node()) visit(ParsedNodeView(node));
}

}  // namespace graphport::tf
