// The node view and edit over a node held as wire bytes (tf/wire_graph.h, meta_graph/
// node_view.h): the view reads the node's records, the edit records what the passes ask in a
// few fields, and the export's NodePlan applies them when the node is written, without a parse
// where the bytes allow it (wire_node_plan.h).
#ifndef GRAPHPORT_TF_META_GRAPH_WIRE_NODE_VIEW_H_
#define GRAPHPORT_TF_META_GRAPH_WIRE_NODE_VIEW_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tf/meta_graph/node_view.h"
#include "tf/wire_graph.h"

namespace graphport::tf {

// The edits passes recorded for one node, or for every node alike.
struct WireNodeEdits {
  bool device_cleared = false;
  // Keys the passes' own (NodeEdit::RemoveAttr, SetAttr). A node that loses or changes an
  // attr is rewritten from its parse, where the passes run again.
  std::vector<std::string_view> removed_attrs;
  std::vector<std::pair<std::string_view, tensorflow::AttrValue>> set_attrs;
  // Applied to the name and inputs as the node's records are written.
  const NodeRenamer* renamer = nullptr;

  // Whether writing the node needs its parse: an attr removed or set.
  bool ChangesAttrs() const { return !removed_attrs.empty() || !set_attrs.empty(); }
  // Emptied for the next node, keeping the room the vectors took.
  void Clear();
};

// Node `index` of `graph`, as the edits recorded so far leave it.
class WireNodeView final : public NodeView {
 public:
  WireNodeView(const WireGraph& graph, size_t index, const WireNodeEdits& edits)
      : graph_(graph), index_(index), edits_(edits) {}
  std::string_view name() const override;
  std::string_view op() const override { return graph_.op(index_); }
  std::string_view device() const override;
  bool AttrEquals(std::string_view key, const tensorflow::AttrValue& value) const override;
  bool ReadAttr(std::string_view key, tensorflow::AttrValue* value) const override;

 private:
  // The value of attr `key` as loaded: the bytes of its AttrValue in `*bytes`, or, for a node
  // not written as libprotobuf writes it, its parse in `*parsed` (then `*bytes` is null;
  // `parsed` may be null when only the presence counts).
  bool FindLoadedAttr(std::string_view key, std::string_view* bytes,
                      tensorflow::AttrValue* parsed) const;

  const WireGraph& graph_;
  size_t index_;
  const WireNodeEdits& edits_;
  mutable std::string joined_name_;  // a renamed name in more than one piece
};

class WireNodeEdit final : public NodeEdit {
 public:
  explicit WireNodeEdit(WireNodeEdits* edits) : edits_(edits) {}
  void ClearDevice() override { edits_->device_cleared = true; }
  void RemoveAttr(std::string_view key) override;
  void SetAttr(std::string_view key, const tensorflow::AttrValue& value) override;
  void RenameWith(const NodeRenamer& renamer) override { edits_->renamer = &renamer; }

 private:
  WireNodeEdits* edits_;
};

// What the passes that edit every node alike (NodePass::ReadsNode() false) do, learnt once
// from the first node; nothing for a graph without nodes.
WireNodeEdits EveryNodeEdits(const NodePasses& passes, const WireGraph& graph);
// What all the passes do to node `index`, in their order, in `*edits` (cleared first).
void NodeEdits(const NodePasses& passes, const WireGraph& graph, size_t index,
               WireNodeEdits* edits);
// Whether a pass reads nodes, so that each node's edits may differ from EveryNodeEdits.
bool AnyPassReadsNodes(const NodePasses& passes);
// Whether the passes keep node `index` (NodePass::Keeps, asked of the node as loaded) and, if
// they do, what they do to it (NodeEdits), through one view of the node.
bool KeepAndEditNode(const NodePasses& passes, const WireGraph& graph, size_t index,
                     WireNodeEdits* edits);

// Calls `visit` with a view of each node of `graph` as loaded, in order.
void ForEachWireNodeView(const WireGraph& graph, const NodeVisitor& visit);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_WIRE_NODE_VIEW_H_
