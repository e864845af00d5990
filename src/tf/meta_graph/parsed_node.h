// The node view and edit over a parsed tensorflow::NodeDef (meta_graph/node_view.h): the
// passes change the message itself, a copy of the loaded node that lends its attr values
// (LendNode).
#ifndef GRAPHPORT_TF_META_GRAPH_PARSED_NODE_H_
#define GRAPHPORT_TF_META_GRAPH_PARSED_NODE_H_

#include "tensorflow/graph.pb.h"
#include "tf/meta_graph/node_view.h"

namespace graphport::tf {

// NodeView::AttrEquals of a parsed node.
bool ParsedAttrEquals(const tensorflow::NodeDef& node, std::string_view key,
                      const tensorflow::AttrValue& value);

class ParsedNodeView final : public NodeView {
 public:
  explicit ParsedNodeView(const tensorflow::NodeDef& node) : node_(node) {}
  std::string_view name() const override { return node_.name(); }
  std::string_view op() const override { return node_.op(); }
  std::string_view device() const override { return node_.device(); }
  bool AttrEquals(std::string_view key, const tensorflow::AttrValue& value) const override {
    return ParsedAttrEquals(node_, key, value);
  }
  bool ReadAttr(std::string_view key, tensorflow::AttrValue* value) const override;

 private:
  const tensorflow::NodeDef& node_;
};

// `node` must not share submessages with the model (LendNode lends attr values): an edit
// replaces a lent value, never changes it. With `attrs_removed`, counts the attrs the passes
// remove (the export's info reports them).
class ParsedNodeEdit final : public NodeEdit {
 public:
  explicit ParsedNodeEdit(tensorflow::NodeDef* node, int* attrs_removed = nullptr)
      : node_(node), attrs_removed_(attrs_removed) {}
  void ClearDevice() override { node_->clear_device(); }
  void RemoveAttr(std::string_view key) override;
  void SetAttr(std::string_view key, const tensorflow::AttrValue& value) override;
  void RenameWith(const NodeRenamer& renamer) override;

 private:
  tensorflow::NodeDef* node_;
  int* attrs_removed_;
};

// Runs `passes` over `node` in order, each seeing what the ones before it did; adds the attrs
// they remove to `*attrs_removed` when given.
void EditParsedNode(const NodePasses& passes, tensorflow::NodeDef* node,
                    int* attrs_removed = nullptr);

// A copy of `in` in `out`, which must be arena-allocated, for the passes to edit: the
// tensors, lists, shapes and functions in `in`'s attrs are not copied but lent to `out`
// (weights stay where they are), so `out`'s arena must die before `in`, and `out`'s attr
// values must not be changed in place (erasing or replacing an attr is fine).
void LendNode(const tensorflow::NodeDef& in, tensorflow::NodeDef* out);

// Calls `visit` with a view of each node of `graph`, in order.
void ForEachParsedNode(const tensorflow::GraphDef& graph, const NodeVisitor& visit);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_PARSED_NODE_H_
