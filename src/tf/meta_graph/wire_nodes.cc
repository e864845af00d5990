#include "tf/meta_graph/wire_nodes.h"

#include <google/protobuf/arena.h>

#include "tf/meta_graph/scope.h"

namespace graphport::tf {

using google::protobuf::Arena;

const WireGraph* WireNodesFor(const TfModel& model, const TfExportOptions& options) {
  const WireGraph* wire = model.wire_graph();
  if (wire == nullptr || options.graph_def != nullptr ||
      (options.as_text && !wire->all_canonical())) {
    return nullptr;
  }
  return wire;
}

void AddUnboundInputs(const tensorflow::NodeDef& node, std::vector<std::string>* unbound) {
  for (const auto& input : node.input()) {
    if (InputNodeName(input).substr(0, kUnboundInputPrefix.size()) == kUnboundInputPrefix) {
      unbound->push_back(input);
    }
  }
}

}  // namespace graphport::tf
