#include "tf/meta_graph/parsed_node.h"

namespace graphport::tf {

void EditParsedNode(const NodePasses& passes, tensorflow::NodeDef* node) {
  ParsedNodeView view(*node);
  ParsedNodeEdit edit(node);
  for (const auto& pass : passes) pass->Edit(view, &edit);
}

}  // namespace graphport::tf
