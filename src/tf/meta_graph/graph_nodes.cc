#include "tf/meta_graph/graph_nodes.h"

namespace graphport::tf {

WireGraphNodes::WireGraphNodes(const WireGraph& graph, const NodePlan& plan,
                               const tensorflow::GraphDef& rest)
    : graph_(graph), plan_(plan), rest_(rest) {
  kept_.reserve(graph.nodes().size());
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    if (plan.For(i) != NodePlan::kSkip) kept_.push_back(static_cast<uint32_t>(i));
  }
}

std::string_view WireGraphNodes::name(size_t i) const {
  const size_t node = kept_[i];
  if (plan_.For(node) == NodePlan::kCopy) return graph_.name(node);
  // Renamed, perhaps (exportScope): the name the rewritten node has.
  rewritten_name_ = graph_.Rewritten(node, plan_, &names_)->name();
  names_.Reset();
  return rewritten_name_;
}

const tensorflow::NodeDef& WireGraphNodes::Node(size_t i) {
  const size_t node = kept_[i];
  rewrites_.Reset();
  if (plan_.For(node) != NodePlan::kCopy) return *graph_.Rewritten(node, plan_, &rewrites_);
  graph_.ParseNode(node, &scratch_);
  if (plan_.drop_devices) scratch_.clear_device();
  return scratch_;
}

std::optional<std::string_view> WireGraphNodes::SerializedNode(size_t i) const {
  const size_t node = kept_[i];
  const WireNode& wire = graph_.nodes()[node];
  if (plan_.For(node) != NodePlan::kCopy || !wire.canonical) return std::nullopt;
  if (plan_.drop_devices && wire.device_bytes > 0) return std::nullopt;
  return graph_.NodeBytes(node);
}

const tensorflow::FunctionDefLibrary& WireGraphNodes::library() {
  if (library_ == nullptr) {
    library_ = plan_.copy_library ? graph_.ParseLibrary(&library_arena_) : &rest_.library();
  }
  return *library_;
}

}  // namespace graphport::tf
