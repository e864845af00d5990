#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

void OpRegistry::AddLayer(const tensorflow::OpList* ops, std::string source, bool complete) {
  Layer layer{std::move(source), complete, {}};
  for (const auto& op : ops->op()) layer.ops.emplace(op.name(), &op);
  layers_.push_back(std::move(layer));
}

OpRegistry::Found OpRegistry::Find(const std::string& name) const {
  for (const auto& layer : layers_) {
    auto it = layer.ops.find(name);
    if (it != layer.ops.end()) return Found{it->second, &layer.source, layer.complete};
  }
  return Found{};
}

const tensorflow::OpDef* OpRegistry::FindComplete(const std::string& name) const {
  for (const auto& layer : layers_) {
    if (!layer.complete) continue;
    auto it = layer.ops.find(name);
    if (it != layer.ops.end()) return it->second;
  }
  return nullptr;
}

}  // namespace graphport::tf
