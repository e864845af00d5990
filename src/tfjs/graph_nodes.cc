#include "tfjs/graph_nodes.h"

namespace graphport::tfjs {

const tensorflow::NodeDef& WireGraphNodes::Node(size_t i) {
  graph_.ParseNode(i, &scratch_);
  return scratch_;
}

std::optional<std::string_view> WireGraphNodes::SerializedNode(size_t i) const {
  if (!graph_.nodes()[i].canonical) return std::nullopt;
  return graph_.NodeBytes(i);
}

const tensorflow::FunctionDefLibrary& WireGraphNodes::library() {
  if (library_ == nullptr) library_ = &graph_.Library(&library_arena_);
  return *library_;
}

}  // namespace graphport::tfjs
