#include "tf/meta_graph/parsed_node.h"

namespace graphport::tf {

void EditParsedNode(const NodePasses& passes, tensorflow::NodeDef* node) {
  ParsedNodeView view(*node);
  ParsedNodeEdit edit(node);
  for (const auto& pass : passes) pass->Edit(view, &edit);
}

void ForEachParsedNode(const tensorflow::GraphDef& graph, const NodeVisitor& visit) {
  for (const auto& node : graph.node()) visit(ParsedNodeView(node));
}

}  // namespace graphport::tf
