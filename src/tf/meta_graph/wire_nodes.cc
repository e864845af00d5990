#include "tf/meta_graph/wire_nodes.h"

#include <google/protobuf/arena.h>

#include "tf/meta_graph/scope.h"

namespace graphport::tf {

using google::protobuf::Arena;

const WireGraph* WireNodesFor(const TfModel& model, const TfExportOptions& options) {
  const WireGraph* wire = model.wire_graph();
  if (wire == nullptr || options.graph_def != nullptr || !options.export_scope.empty() ||
      options.strip_default_attrs || options.clear_extraneous_savers ||
      wire->header().library().function_size() > 0 || (options.as_text && !wire->all_canonical())) {
    return nullptr;
  }
  return wire;
}

std::set<std::string> WireNodeNames(const WireGraph& wire) {
  std::set<std::string> names;
  for (const WireNode& node : wire.nodes()) names.emplace(node.name);
  return names;
}

std::vector<std::string> WireOps(const WireGraph& wire) {
  std::vector<std::string> ops;
  for (const auto& [op, count] : wire.op_counts()) ops.emplace_back(op);
  return ops;
}

void AddUnboundInputs(const tensorflow::NodeDef& node, std::vector<std::string>* unbound) {
  for (const auto& input : node.input()) {
    if (InputNodeName(input).substr(0, kUnboundInputPrefix.size()) == kUnboundInputPrefix) {
      unbound->push_back(input);
    }
  }
}

void WireUnboundInputs(const WireGraph& wire, std::vector<std::string>* unbound) {
  Arena scratch;
  for (size_t i = 0; i < wire.nodes().size(); ++i) {
    if (!wire.nodes()[i].unbound_input) continue;
    auto* node = Arena::CreateMessage<tensorflow::NodeDef>(&scratch);
    wire.ParseNode(i, node);
    AddUnboundInputs(*node, unbound);
    scratch.Reset();
  }
}

}  // namespace graphport::tf
