// The node view and edit over a node held as wire bytes (tf/wire_graph.h, meta_graph/
// node_view.h): the view reads the node's records, the edit records what the passes ask in a
// few flags, and the export's NodePlan applies them when the node is written, without a parse
// where the bytes allow it (wire_node_plan.h).
#ifndef GRAPHPORT_TF_META_GRAPH_WIRE_NODE_VIEW_H_
#define GRAPHPORT_TF_META_GRAPH_WIRE_NODE_VIEW_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "tf/meta_graph/node_view.h"
#include "tf/meta_graph/scope.h"
#include "tf/wire_graph.h"

namespace graphport::tf {

// The edits passes recorded for one node, or for every node alike.
struct WireNodeEdits {
  bool device_cleared = false;
  // Keys the passes' own (NodeEdit::RemoveAttr); a node that loses one is rewritten from its
  // parse, where the passes run again.
  std::vector<std::string_view> removed_attrs;

  bool operator==(const WireNodeEdits& other) const {
    return device_cleared == other.device_cleared && removed_attrs == other.removed_attrs;
  }
  bool operator!=(const WireNodeEdits& other) const { return !(*this == other); }
};

// Node `index` of `graph`, as the edits recorded so far leave it. The export's scope renames
// the node before the passes see it (node_rewrite.h); `scope` is that scope, or empty.
class WireNodeView final : public NodeView {
 public:
  WireNodeView(const WireGraph& graph, size_t index, const WireNodeEdits& edits, const Scope& scope)
      : graph_(graph), index_(index), edits_(edits), scope_(scope) {}
  std::string_view name() const override;
  std::string_view op() const override { return graph_.op(index_); }
  std::string_view device() const override;
  bool AttrEquals(std::string_view key, const tensorflow::AttrValue& value) const override;

 private:
  const WireGraph& graph_;
  size_t index_;
  const WireNodeEdits& edits_;
  const Scope& scope_;
};

class WireNodeEdit final : public NodeEdit {
 public:
  explicit WireNodeEdit(WireNodeEdits* edits) : edits_(edits) {}
  void ClearDevice() override { edits_->device_cleared = true; }
  void RemoveAttr(std::string_view key) override { edits_->removed_attrs.push_back(key); }

 private:
  WireNodeEdits* edits_;
};

// What the passes that edit every node alike (NodePass::ReadsNode() false) do, learnt once
// from the first node; nothing for a graph without nodes.
WireNodeEdits EveryNodeEdits(const NodePasses& passes, const WireGraph& graph, const Scope& scope);
// What all the passes do to node `index`, in their order.
WireNodeEdits NodeEdits(const NodePasses& passes, const WireGraph& graph, size_t index,
                        const Scope& scope);
// Whether a pass reads nodes, so that each node's edits may differ from EveryNodeEdits.
bool AnyPassReadsNodes(const NodePasses& passes);
// Whether the passes keep node `index` (NodePass::Keeps), asked of the node as loaded.
bool PassesKeep(const NodePasses& passes, const WireGraph& graph, size_t index);

// Calls `visit` with a view of each node of `graph` as loaded, in order.
void ForEachWireNodeView(const WireGraph& graph, const NodeVisitor& visit);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_WIRE_NODE_VIEW_H_
